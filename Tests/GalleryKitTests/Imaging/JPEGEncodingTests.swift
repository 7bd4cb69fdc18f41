import CVipsShim
import Foundation
import Testing

@testable import GalleryKit

/// A JPEG thumbnail already in memory (every size of a chain) is written by libjpeg directly
/// (`jpeg_encode.c`) rather than through libvips's jpegsave: the same bytes, at every quality,
/// with and without chroma subsampling, grey or RGB, at sides that fill no whole block.
@Suite struct JPEGEncodingTests {
    static let encodes = gallery_vips_version() / 100 == 814

    /// Thumbnails of `cover` into `specs` (one chain) with the shim's paths and with libvips's
    /// alone, and how many the first wrote with libjpeg directly, on this thread.
    static func bothWays(_ cover: [UInt8], as specs: [ThumbnailSpec]) throws -> (direct: [[UInt8]], libvips: [[UInt8]], encoded: Int) {
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = gallery_jpegs_encoded_on_this_thread()
        let direct = try thumbnailer.thumbnails(of: cover, as: specs)
        let encoded = Int(gallery_jpegs_encoded_on_this_thread() - before)
        gallery_shim_paths_set_enabled(0)
        defer { gallery_shim_paths_set_enabled(1) }
        return (direct, try thumbnailer.thumbnails(of: cover, as: specs), encoded)
    }

    @Test(arguments: [1, 50, 80, 89, 90, 100])
    func theSameBytesAsLibvipsAtEveryQuality(quality: Int) throws {
        for colourType: UInt8 in [2, 0] {
            let cover = PNGBuilder(width: 90, height: 90, colourType: colourType, filters: [1, 4], seed: 5).bytes()
            for size in [1, 7, 16, 17, 33, 90] {
                let (direct, libvips, encoded) = try Self.bothWays(cover, as: [ThumbnailSpec(size: size, format: .jpeg, quality: quality)])
                #expect(encoded == (Self.encodes ? 1 : 0), "colour type \(colourType), \(size) px, quality \(quality): written \(encoded) times")
                let same = direct == libvips
                #expect(same, "colour type \(colourType), \(size) px, quality \(quality)")
            }
        }
    }

    /// The chain a build makes, from a JPEG and a PNG cover: every size written directly, the
    /// same bytes.
    @Test func aBuildsChain() throws {
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0, format: .jpeg) }
        for cover in [try Thumbnailer.pattern(width: 1200, height: 1200, kind: .jpeg), PNGBuilder(width: 600, height: 600, filters: [4, 2], seed: 9).bytes()] {
            let (direct, libvips, encoded) = try Self.bothWays(cover, as: specs)
            let same = direct == libvips
            #expect(encoded == (Self.encodes ? 3 : 0) && same, "written \(encoded) times")
        }
    }

    /// A lone thumbnail (made from the cover's pipeline, not from a copy in memory) is left to
    /// libvips; a cover with alpha, flattened on white for JPEG and then copied into memory, is
    /// written directly: the same bytes either way.
    @Test func aLoneThumbnailIsLeftToLibvips() throws {
        let cover = PNGBuilder(width: 64, height: 64, colourType: 2, filters: [1], seed: 3).bytes()
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = gallery_jpegs_encoded_on_this_thread()
        let lone = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 32, format: .jpeg))
        #expect(gallery_jpegs_encoded_on_this_thread() == before)
        gallery_shim_paths_set_enabled(0)
        let libvips = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 32, format: .jpeg))
        gallery_shim_paths_set_enabled(1)
        let same = lone == libvips
        #expect(same)
        let alpha = PNGBuilder(width: 64, height: 64, colourType: 6, filters: [1], seed: 3).bytes()
        let (direct, viaLibvips, encoded) = try Self.bothWays(alpha, as: [ThumbnailSpec(size: 32, format: .jpeg)])
        let alike = direct == viaLibvips
        #expect(encoded == (Self.encodes ? 1 : 0) && alike)
    }
}
