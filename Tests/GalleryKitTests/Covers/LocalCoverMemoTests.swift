import Foundation
import Testing

@testable import GalleryKit

/// Local covers are hashed once, and again only when their file is touched.
@Suite struct LocalCoverMemoTests {
    let album = Album(title: "Best of Bowie", artist: "David Bowie", genre: "Pop", year: 1992, coverURL: "covers/local.svg")

    func makeSite() throws -> SiteFolder {
        let root = FileManager.default.temporaryDirectory
            .appending(path: "gallery-memo-site-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root.appending(path: "content/covers"), withIntermediateDirectories: true)
        try Data(TestImages.starterSVG()).write(to: root.appending(path: "content/covers/local.svg"))
        return SiteFolder(root: root)
    }

    func cover(_ site: SiteFolder, _ memo: LocalCoverMemo) async -> Cover? {
        await Library(site: site, fetcher: nil, localMemo: memo).cover(for: album).cover
    }

    @Test func anUntouchedFileIsNotReadAgain() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let memoFile = site.root.appending(path: ".gallery-cache/local-covers.tsv")
        let first = LocalCoverMemo(file: memoFile)
        let hashed = try #require(await cover(site, first))
        #expect(hashed.contentHash == ContentHash.of(try Data(contentsOf: hashed.file)))
        first.save()

        // Put a different hash in the memo: if the next build reads it back without reading the
        // file, the memo was used; the real hash would mean the file was hashed again.
        let text = try String(contentsOf: memoFile, encoding: .utf8)
        #expect(text.contains(hashed.contentHash))
        let planted = String(repeating: "ab", count: 32)
        try text.replacingOccurrences(of: hashed.contentHash, with: planted).write(to: memoFile, atomically: true, encoding: .utf8)
        let second = try #require(await cover(site, LocalCoverMemo(file: memoFile)))
        #expect(second.contentHash == planted)
        #expect(second.kind == .svg && second.size == hashed.size)
    }

    @Test func aChangedFileIsHashedAgainEvenWithItsSizeAndTimeKept() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let memoFile = site.root.appending(path: ".gallery-cache/local-covers.tsv")
        let memo = LocalCoverMemo(file: memoFile)
        let before = try #require(await cover(site, memo))
        memo.save()
        // Same length, same modification time: only the change time (which nothing can set back)
        // tells the file was written.
        let file = before.file
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        var bytes = try Data(contentsOf: file)
        let index = try #require(bytes.lastIndex(of: UInt8(ascii: "<")))
        bytes[index - 1] = bytes[index - 1] == UInt8(ascii: " ") ? UInt8(ascii: "\n") : UInt8(ascii: " ")
        try bytes.write(to: file)
        try FileManager.default.setAttributes([.modificationDate: try #require(modified)], ofItemAtPath: file.path)
        let after = try #require(await cover(site, LocalCoverMemo(file: memoFile)))
        #expect(after.size == before.size)
        #expect(after.contentHash == ContentHash.of(bytes))
        #expect(after.contentHash != before.contentHash)
    }

    @Test func aDamagedMemoIsEmpty() async throws {
        let site = try makeSite()
        defer { try? FileManager.default.removeItem(at: site.root) }
        let memoFile = site.root.appending(path: ".gallery-cache/local-covers.tsv")
        try FileManager.default.createDirectory(at: memoFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "\(LocalCoverMemo.header)\nnot\ta\tline\n\u{0}garbage".write(to: memoFile, atomically: true, encoding: .utf8)
        let cover = try #require(await cover(site, LocalCoverMemo(file: memoFile)))
        #expect(cover.contentHash == ContentHash.of(try Data(contentsOf: cover.file)))
    }
}
