import Foundation
import Testing

@testable import GalleryKit

/// A file of `static/` becomes a folder of the same name, or a folder a file: the build moves
/// the earlier build's output out of the way, as a clean build into a new folder would have no
/// such output, and never removes what no build made.
@Suite struct OutputsInTheWayTests {
    typealias Site = RemovedOutputsBuildTests.Site

    func public_(_ site: Site, _ path: String) -> String {
        site.folder.appending(path: "public/\(path)").path
    }

    func kind(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    @Test func aFileThatBecomesAFolderAndBackIsPublishedEachTime() async throws {
        let site = try Site()
        defer { site.remove() }
        try site.write("a file\n", to: "static/foo")
        let first = await site.build()
        #expect(first.summary.succeeded, "\(first.diagnostics)")
        #expect(kind(public_(site, "foo")) == .typeRegular)

        try FileManager.default.removeItem(at: site.folder.appending(path: "static/foo"))
        try site.write("<p>a folder</p>\n", to: "static/foo/index.html")
        try site.write("deeper\n", to: "static/foo/a/b.txt")
        let folder = await site.build()
        #expect(folder.summary.succeeded, "\(folder.diagnostics)")
        #expect(try String(contentsOfFile: public_(site, "foo/a/b.txt"), encoding: .utf8) == "deeper\n")
        #expect(folder.summary.removed == 1, "the file foo")

        try FileManager.default.removeItem(at: site.folder.appending(path: "static/foo"))
        try site.write("a file again\n", to: "static/foo")
        let file = await site.build()
        #expect(file.summary.succeeded, "\(file.diagnostics)")
        #expect(try String(contentsOfFile: public_(site, "foo"), encoding: .utf8) == "a file again\n")
        #expect(file.summary.removed == 2, "foo/index.html and foo/a/b.txt")
        #expect(file.summary.pagesRemoved == 1)

        // The same site as a clean build's, which had nothing in the way.
        let incremental = try site.output()
        let clean = await site.build(clean: true)
        #expect(clean.summary.succeeded, "\(clean.diagnostics)")
        #expect(try site.output() == incremental)
    }

    @Test func aFolderHoldingAFileNoBuildMadeIsLeftAloneAndTheBuildSaysWhy() async throws {
        let site = try Site()
        defer { site.remove() }
        try site.write("<p>a folder</p>\n", to: "static/bar/index.html")
        let first = await site.build()
        #expect(first.summary.succeeded, "\(first.diagnostics)")
        // Someone keeps a file of their own in the published folder.
        try "mine\n".write(toFile: public_(site, "bar/mine.txt"), atomically: true, encoding: .utf8)

        try FileManager.default.removeItem(at: site.folder.appending(path: "static/bar"))
        try site.write("a file\n", to: "static/bar")
        let before = try site.output()
        let refused = await site.build()
        #expect(!refused.summary.succeeded)
        #expect(refused.summary.outputUnchanged)
        #expect(refused.diagnostics.contains { $0.description.contains("public/bar") && $0.description.contains("mine.txt") }, "\(refused.diagnostics)")
        #expect(try site.output() == before, "nothing in the output folder changed")

        // Moved away, the next build goes through.
        try FileManager.default.removeItem(atPath: public_(site, "bar/mine.txt"))
        let next = await site.build()
        #expect(next.summary.succeeded, "\(next.diagnostics)")
        #expect(kind(public_(site, "bar")) == .typeRegular)
    }
}
