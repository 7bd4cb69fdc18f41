import Foundation
import GalleryPreview
import Testing

/// The resolver on a real folder: `site/public/` served, `site/secret.txt` beside it.
@Suite final class StaticFileResolverTests {
    let site: URL
    let output: URL
    let resolver: StaticFileResolver

    init() throws {
        site = FileManager.default.temporaryDirectory.appending(path: "gallery-resolver-\(UUID().uuidString)", directoryHint: .isDirectory)
        output = site.appending(path: "public", directoryHint: .isDirectory)
        let files = FileManager.default
        try files.createDirectory(at: output.appending(path: "albums/a-b"), withIntermediateDirectories: true)
        try Data("index".utf8).write(to: output.appending(path: "index.html"))
        try Data("album".utf8).write(to: output.appending(path: "albums/a-b/index.html"))
        try Data("secret".utf8).write(to: site.appending(path: "secret.txt"))
        try files.createSymbolicLink(atPath: output.appending(path: "leak.txt").path, withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: output.appending(path: "outside").path, withDestinationPath: site.path)
        try files.createSymbolicLink(atPath: output.appending(path: "home.html").path, withDestinationPath: "index.html")
        resolver = StaticFileResolver(root: output)
    }

    deinit {
        try? FileManager.default.removeItem(at: site)
    }

    func real(_ path: String) -> String {
        output.appending(path: path).resolvingSymlinksInPath().path
    }

    @Test func findsFilesAndFolderIndexes() {
        #expect(resolver.lookup("/") == .file(real("index.html")))
        #expect(resolver.lookup("/index.html") == .file(real("index.html")))
        #expect(resolver.lookup("/albums/a-b/") == .file(real("albums/a-b/index.html")))
        #expect(resolver.lookup("/albums/a%2Db/") == .file(real("albums/a-b/index.html")))
        #expect(resolver.lookup("/home.html") == .file(real("index.html")))
    }

    @Test func sendsAFolderWithoutItsSlashToTheSlash() {
        #expect(resolver.lookup("/albums/a-b") == .redirect("/albums/a-b/"))
    }

    @Test func missingFilesAreNotFound() {
        #expect(resolver.lookup("/nope.html") == .notFound)
        #expect(resolver.lookup("/albums/") == .notFound)
        #expect(resolver.lookup("/%252e%252e/secret.txt") == .notFound)
        #expect(StaticFileResolver(root: site.appending(path: "none")).lookup("/") == .notFound)
        // A file asked for as a folder, as a static host answers it.
        #expect(resolver.lookup("/index.html/") == .notFound)
        #expect(resolver.lookup("/albums/a-b/index.html/") == .notFound)
    }

    @Test func refusesEverythingOutsideTheOutput() {
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%2E%2E%2Fsecret.txt", "/..%5csecret.txt",
                     "/leak.txt", "/outside/secret.txt", "/outside/public/index.html", "/outside/"] {
            #expect(resolver.lookup(path) == .forbidden, "\(path)")
        }
    }
}
