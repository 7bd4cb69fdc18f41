import Foundation
import Testing

@testable import GalleryKit

/// The thumbnail cache on disk: an unchanged cover is never encoded twice.
@Suite struct ThumbnailCacheTests {
    let folder = FileManager.default.temporaryDirectory
        .appending(path: "gallery-thumbnail-cache-\(UUID().uuidString)", directoryHint: .isDirectory)
    let specs = SiteConfig.Thumbnails().specs(tileSize: 100)

    /// A cover file in the test folder, as the facade would hand it out.
    func cover(_ bytes: [UInt8], kind: ImageKind) throws -> Cover {
        let file = folder.appending(path: "source/\(UUID().uuidString).\(kind.fileExtension)")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return Cover(file: file, kind: kind, contentHash: ContentHash.of(bytes), size: bytes.count)
    }

    func inode(of file: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int)
    }

    func cache() -> ThumbnailCache {
        ThumbnailCache(folder: folder.appending(path: "thumbnails"), thumbnailer: Thumbnailer(maxPixels: 8192 * 8192))
    }

    @Test func aCachedThumbnailIsNotEncodedAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 900, height: 700, kind: .jpeg), kind: .jpeg)
        let first = try cache().thumbnails(of: cover, as: specs)
        #expect(first.map(\.wasMade) == [true, true, true])
        #expect(try first.map { try Thumbnailer.dimensions(of: $0.bytes).width } == [100, 200, 300])
        // A new cache on the same folder (the next build) finds all three, without the cover.
        try FileManager.default.removeItem(at: cover.file)
        let second = try cache().thumbnails(of: cover, as: specs)
        #expect(second.map(\.wasMade) == [false, false, false])
        #expect(second.map(\.bytes) == first.map(\.bytes))
    }

    @Test func everySettingIsPartOfTheKey() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 500, height: 500, kind: .png), kind: .png)
        let cache = cache()
        let base = ThumbnailSpec(size: 100)
        let variants = [
            base,
            ThumbnailSpec(size: 120),
            ThumbnailSpec(size: 100, fit: .contain),
            ThumbnailSpec(size: 100, format: .jpeg),
            ThumbnailSpec(size: 100, quality: 50),
        ]
        let made = try cache.thumbnails(of: cover, as: variants)
        #expect(made.allSatisfy { $0.wasMade })
        #expect(Set(variants.map { cache.file(forCover: cover.contentHash, spec: $0) }).count == variants.count)
        #expect(try cache.thumbnails(of: cover, as: variants).allSatisfy { !$0.wasMade })
        // Another cover with the same settings is its own entry.
        let other = try self.cover(Thumbnailer.pattern(width: 500, height: 400, kind: .png), kind: .png)
        #expect(try cache.thumbnails(of: other, as: [base]).map(\.wasMade) == [true])
    }

    @Test func aTornCacheFileIsMadeAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 300, height: 300, kind: .png), kind: .png)
        let cache = cache()
        let made = try cache.thumbnails(of: cover, as: [specs[0]])
        let file = try #require(made.first?.file)
        try Data(made[0].bytes.prefix(made[0].bytes.count / 2)).write(to: file)
        let torn = try inode(of: file)
        let again = try cache.thumbnails(of: cover, as: [specs[0]])
        #expect(again.map(\.wasMade) == [true])
        #expect(again.map(\.bytes) == made.map(\.bytes))
        #expect(try [UInt8](Data(contentsOf: file)) == made[0].bytes)
        // Replaced by a rename, not rewritten in place: a reader never sees a half-written file.
        #expect(try inode(of: file) != torn)
        let files = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        #expect(!files.contains { $0.contains(".tmp-") })
    }

    @Test func aCorruptCoverIsNotCached() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Thumbnailer.pattern(width: 300, height: 300, kind: .png)
        let cover = try cover(Array(whole.prefix(whole.count / 3)), kind: .png)
        #expect(throws: ThumbnailError.self) { _ = try cache().thumbnails(of: cover, as: specs) }
        #expect(!FileManager.default.fileExists(atPath: cache().file(forCover: cover.contentHash, spec: specs[0]).path))
    }
}
