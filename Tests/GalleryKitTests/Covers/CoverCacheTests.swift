import Foundation
import Testing

@testable import GalleryKit

/// The cover cache on disk: content-addressed objects, the index, and what survives damage.
@Suite struct CoverCacheTests {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "gallery-cover-cache-\(UUID().uuidString)", directoryHint: .isDirectory)
    let url = URL(string: "https://covers.example/a.png") ?? URL(fileURLWithPath: "/")
    static let other = URL(string: "https://mirror.example/same.png") ?? URL(fileURLWithPath: "/")
    let image = TestImages.png(seed: 3)

    func files() -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func storesBytesByContentHashWithAMetadataRecord() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CoverCache(folder: folder)
        let cover = try await cache.store(image, kind: .png, for: url, etag: "\"e1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT", contentType: "image/png")
        let hash = ContentHash.of(image)
        #expect(cover == Cover(file: folder.appending(path: "objects/\(hash.prefix(2))/\(hash).png"), kind: .png, contentHash: hash, size: image.count))
        #expect(try Data(contentsOf: cover.file) == Data(image))
        try await cache.flush()
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending(path: "index.json"))) as? [String: Any]
        let record = try #require((index?["covers"] as? [String: Any])?[url.absoluteString] as? [String: Any])
        #expect(record["url"] as? String == url.absoluteString)
        #expect(record["etag"] as? String == "\"e1\"")
        #expect(record["last_modified"] as? String == "Wed, 21 Oct 2015 07:28:00 GMT")
        #expect(record["content_type"] as? String == "image/png")
        #expect(record["size"] as? Int == image.count)
        #expect(record["content_hash"] as? String == hash)
        let fetched = try #require(record["fetched_at"] as? String)
        #expect(fetched.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "not ISO-8601 UTC: \(fetched)")
        #expect(!files().contains { $0.contains(".tmp-") })
    }

    @Test func aNewCacheOnTheSameFolderFindsTheCover() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = CoverCache(folder: folder)
        let stored = try await writer.store(image, kind: .png, for: url)
        try await writer.flush()
        #expect(await CoverCache(folder: folder).cover(for: url) == stored)
        #expect(await CoverCache(folder: folder).cover(for: Self.other) == nil)
    }

    /// Two builds sharing one cache (two sites, `--cache`) each read the index, and each wrote
    /// the one it had: the second lost the first's covers, which an offline build then missed.
    /// An index written meanwhile is taken in, but for what this cache changed itself.
    @Test func twoCachesOnOneFolderKeepEachOthersCovers() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = CoverCache(folder: folder), second = CoverCache(folder: folder)
        let third = URL(string: "https://covers.example/c.png") ?? url
        let a = try await first.store(image, kind: .png, for: url)
        try await first.flush()
        let b = try await second.store(TestImages.png(seed: 4), kind: .png, for: Self.other)
        await second.recordFailure(third, reason: "HTTP 404")
        try await second.flush()
        // The first changes the failed one; its own old view of it must not win back.
        _ = try await first.store(TestImages.png(seed: 5), kind: .png, for: third)
        try await first.flush()
        let reader = CoverCache(folder: folder)
        #expect(await reader.cover(for: url) == a)
        #expect(await reader.cover(for: Self.other) == b)
        #expect(await reader.cover(for: third) != nil)
        #expect(await reader.lastFailure(for: third) == nil)
        // What the other removed (a --gc) stays removed.
        _ = try await second.removeAll(but: [Self.other.absoluteString, third.absoluteString])
        await first.recordFailure(URL(string: "https://covers.example/d.png") ?? url, reason: "HTTP 500")
        try await first.flush()
        #expect(await CoverCache(folder: folder).cover(for: url) == nil)
        #expect(await CoverCache(folder: folder).cover(for: Self.other) == b)
    }

    @Test func identicalBytesFromTwoURLsAreStoredOnce() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CoverCache(folder: folder)
        let a = try await cache.store(image, kind: .png, for: url)
        let b = try await cache.store(image, kind: .png, for: Self.other)
        #expect(a.file == b.file)
        #expect(files().filter { $0.hasSuffix(".png") }.count == 1)
    }

    @Test func aCorruptIndexCountsAsEmpty() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"covers\": {\"https://covers.example/a.png\": {\"url\": 3".utf8).write(to: folder.appending(path: "index.json"))
        let cache = CoverCache(folder: folder)
        #expect(await cache.cover(for: url) == nil)
        _ = try await cache.store(image, kind: .png, for: url)
        try await cache.flush()
        #expect(await CoverCache(folder: folder).cover(for: url) != nil)
    }

    @Test func aMissingOrTruncatedObjectCountsAsAbsent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = CoverCache(folder: folder)
        let cover = try await cache.store(image, kind: .png, for: url)
        try Data(image.prefix(10)).write(to: cover.file)
        #expect(await cache.cover(for: url) == nil)
        let again = try await cache.store(image, kind: .png, for: url)
        try FileManager.default.removeItem(at: again.file)
        #expect(await cache.cover(for: url) == nil)
    }

    @Test func temporaryFilesOfEndedProcessesAreRemovedOnOpen() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let shard = folder.appending(path: "objects/ab", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        let abandoned = shard.appending(path: ".abcd.png.tmp-2147483000-17")
        let live = shard.appending(path: ".abce.png.tmp-\(ProcessInfo.processInfo.processIdentifier)-18")
        try Data([1, 2, 3]).write(to: abandoned)
        try Data([1, 2, 3]).write(to: live)
        _ = CoverCache(folder: folder)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(FileManager.default.fileExists(atPath: live.path), "a running process's file was removed")
    }
}
