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

    /// A cached thumbnail whose bytes changed where its format has no check of its own (QA round
    /// 21: 64 bytes flipped inside a WebP, which was published broken) is made again, as a torn
    /// one is; so is one whose hash the cache does not hold (its size file lost).
    @Test func aDamagedThumbnailInTheCacheIsMadeAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 900, height: 700, kind: .png), kind: .png)
        let first = try cache().thumbnails(of: cover, as: specs)
        let large = try #require(first[2].file)
        var damaged = try [UInt8](Data(contentsOf: large))
        for offset in damaged.count / 2..<damaged.count / 2 + 64 { damaged[offset] ^= 0x5A }
        try Data(damaged).write(to: large)
        #expect(ThumbnailCache.isWhole(damaged, format: .webp), "the container still looks whole")
        let second = try cache().thumbnails(of: cover, as: specs)
        #expect(second.map(\.wasMade) == [false, false, true])
        #expect(second.map(\.bytes) == first.map(\.bytes))
        #expect(try [UInt8](Data(contentsOf: large)) == first[2].bytes, "the cache holds the good bytes again")
        #expect(try cache().thumbnails(of: cover, as: specs).map(\.wasMade) == [false, false, false])

        try FileManager.default.removeItem(at: cache().sizeFile(forCover: cover.contentHash))
        let third = try cache().thumbnails(of: cover, as: specs)
        #expect(third.map(\.bytes) == first.map(\.bytes))
        #expect(try cache().thumbnails(of: cover, as: specs).map(\.wasMade) == [false, false, false])
    }

    /// A size file whose size line is wrong (damaged, or edited) does not refuse a good cover
    /// on every build (QA round 22): a refusal on its word is checked against the cover's header,
    /// and the record is mended.
    @Test func aWrongSizeRecordDoesNotRefuseAGoodCover() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 400, height: 400, kind: .png), kind: .png)
        let first = try cache().thumbnails(of: cover, as: specs)
        let record = cache().sizeFile(forCover: cover.contentHash)
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for wrong in ["9000 9000", "1 4000"] {
            try (([wrong] + lines.dropFirst().map(String.init)).joined(separator: "\n")).write(to: record, atomically: true, encoding: .utf8)
            let again = try cache().thumbnails(of: cover, as: specs)
            #expect(again.map(\.bytes) == first.map(\.bytes), "\(wrong)")
            #expect(try String(contentsOf: record, encoding: .utf8).hasPrefix("400 400\n"), "\(wrong): the record is mended")
        }
        // A cover that is too large is still refused, record or not.
        let small = ThumbnailCache(folder: folder.appending(path: "thumbnails"), thumbnailer: Thumbnailer(maxPixels: 100_000))
        #expect(throws: ThumbnailError(.tooManyPixels(width: 400, height: 400, limit: 100_000))) {
            _ = try small.thumbnails(of: cover, as: specs)
        }
    }

    /// The thumbnails of one cover for `specs`, from a cache (in `folder`, or a new one) that first
    /// made those of `earlier`. Each is named by its size and a hash of its bytes, so a failure
    /// says which differ.
    func thumbnails(of cover: Cover, as specs: [ThumbnailSpec], after earlier: [[ThumbnailSpec]], in folder: URL? = nil) throws -> [String] {
        let folder = folder ?? self.folder.appending(path: "thumbnails-\(UUID().uuidString)")
        let cache = ThumbnailCache(folder: folder, thumbnailer: Thumbnailer(maxPixels: 8192 * 8192))
        for specs in earlier { _ = try cache.thumbnails(of: cover, as: specs) }
        return try zip(specs, cache.thumbnails(of: cover, as: specs)).map { "\($0.size): \(ContentHash.of($1.bytes).prefix(12))" }
    }

    /// Tile sizes whose thumbnails overlap: 300 (`large`) is the largest of 100 and 140, and made
    /// from the cover; at 200 it is resized from the 400. However full the cache, and from
    /// whichever settings, the thumbnails of a set of sizes are those a cold cache makes.
    @Test(arguments: [ImageKind.png, .jpeg])
    func aThumbnailIsTheSameWhateverTheCacheHeld(kind: ImageKind) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 1200, height: 900, kind: kind), kind: kind)
        let sets = [100, 140, 103, 200].map { SiteConfig.Thumbnails().specs(tileSize: $0) }
        let cold = try sets.map { try thumbnails(of: cover, as: $0, after: []) }
        for (index, specs) in sets.enumerated() {
            for (other, earlier) in sets.enumerated() where other != index {
                let warmed = try thumbnails(of: cover, as: specs, after: [earlier])
                #expect(warmed == cold[index], "\(specs.map(\.size)) after \(earlier.map(\.size))")
            }
            let all = try thumbnails(of: cover, as: specs, after: sets.filter { $0 != specs })
            #expect(all == cold[index], "\(specs.map(\.size)) after all the others")
        }
    }

    /// A thumbnail resized from a larger one names it; the largest, made from the cover, does not.
    @Test func aThumbnailResizedFromALargerOneIsNamedByIt() {
        let cache = cache()
        func names(_ specs: [ThumbnailSpec], kind: ImageKind = .png) -> [String] {
            cache.files(forCover: "abcdef", kind: kind, as: specs).map { file in
                #expect(file.deletingLastPathComponent().lastPathComponent == "ab")
                return file.lastPathComponent
            }
        }
        let version = Thumbnailer.shimVersion
        let settings = SiteConfig.Thumbnails()
        #expect(names(settings.specs(tileSize: 140)) == [
            "abcdef-140-of300-crop-q80-v\(version).webp", "abcdef-280-of300-crop-q80-v\(version).webp", "abcdef-300-crop-q80-v\(version).webp",
        ])
        #expect(names(settings.specs(tileSize: 200)) == [
            "abcdef-200-of400-crop-q80-v\(version).webp", "abcdef-400-crop-q80-v\(version).webp", "abcdef-300-of400-crop-q80-v\(version).webp",
        ])
        #expect(names([ThumbnailSpec(size: 100, format: .jpeg), ThumbnailSpec(size: 200, fit: .contain, format: .jpeg)]) == [
            "abcdef-100-crop-q80-v\(version).jpg", "abcdef-200-contain-q80-v\(version).jpg",
        ])
        // An SVG's sizes are each drawn from the vector: none is resized from another.
        #expect(names(settings.specs(tileSize: 140), kind: .svg) == [
            "abcdef-140-crop-q80-v\(version).webp", "abcdef-280-crop-q80-v\(version).webp", "abcdef-300-crop-q80-v\(version).webp",
        ])
    }

    /// A cache that lost the smallest thumbnail makes it from the cover with the rest of its chain,
    /// as a cold cache does, rather than alone; the files it still had are left as they are.
    @Test func aMissingThumbnailIsMadeWithItsChain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cover = try cover(Thumbnailer.pattern(width: 900, height: 700, kind: .png), kind: .png)
        let cache = cache()
        let first = try cache.thumbnails(of: cover, as: specs)
        let files = first.compactMap(\.file)
        #expect(files.count == 3)
        try FileManager.default.removeItem(at: files[0])
        let kept = try files.dropFirst().map { try inode(of: $0) }
        let again = try cache.thumbnails(of: cover, as: specs)
        #expect(again.map(\.wasMade) == [true, false, false])
        #expect(again.map(\.bytes) == first.map(\.bytes))
        #expect(again.map(\.file) == first.map(\.file))
        #expect(try files.dropFirst().map { try inode(of: $0) } == kept)
        #expect(try [UInt8](Data(contentsOf: files[0])) == first[0].bytes)
    }

    /// Before a thumbnail's name said what it was resized from, `…-300-crop-q80-v3.webp` could
    /// hold a 300 resized from a 400 (made at tile size 200) as well as one made from the cover.
    /// Those names are not read, so such a cache cannot put the first in a build that wants the
    /// second.
    @Test func aCacheFromBeforeChainsWereNamedIsNotRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = try Thumbnailer.pattern(width: 900, height: 700, kind: .png)
        let cover = try cover(bytes, kind: .png)
        let earlier = SiteConfig.Thumbnails().specs(tileSize: 200)
        let made = try Thumbnailer(maxPixels: 8192 * 8192).thumbnails(of: bytes, as: earlier)
        for (spec, thumbnail) in zip(earlier, made) {
            let file = folder.appending(path: "thumbnails/\(cover.contentHash.prefix(2))/\(cover.contentHash)-\(spec.size)-crop-q80-v3.webp")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(thumbnail).write(to: file)
        }
        let cold = try thumbnails(of: cover, as: specs, after: [])
        #expect(try thumbnails(of: cover, as: specs, after: [], in: folder.appending(path: "thumbnails")) == cold)
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
        #expect(Set(cache.files(forCover: cover.contentHash, kind: cover.kind, as: variants)).count == variants.count)
        #expect(Set(variants.map { cache.files(forCover: cover.contentHash, kind: cover.kind, as: [$0]) }).count == variants.count)
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
        for file in cache().files(forCover: cover.contentHash, kind: cover.kind, as: specs) {
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent)")
        }
    }
}
