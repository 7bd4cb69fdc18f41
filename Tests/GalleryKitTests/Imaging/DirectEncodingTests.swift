import CVipsShim
import Foundation
import Testing

@testable import GalleryKit

/// A JPEG or WebP thumbnail already in memory (every size of a chain) is written by libjpeg or
/// libwebp directly (`jpeg_direct.c`, `webp_encode.c`) rather than through libvips's savers:
/// the same bytes, at every quality, with and without chroma subsampling, at sides that fill no
/// whole block.
@Suite struct DirectEncodingTests {
    static let encodes = gallery_vips_version() / 100 == 814

    /// How many thumbnails the calling thread has written directly in `format`.
    static func written(_ format: ThumbnailFormat) -> Int {
        Int(format == .jpeg ? gallery_jpegs_encoded_on_this_thread() : gallery_webps_encoded_on_this_thread())
    }

    /// Thumbnails of `cover` into `specs` (one chain) with the shim's paths and with libvips's
    /// alone, and how many the first wrote directly, on this thread.
    static func bothWays(_ cover: [UInt8], as specs: [ThumbnailSpec]) throws -> (direct: [[UInt8]], libvips: [[UInt8]], written: Int) {
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let format = specs[0].format
        let before = written(format)
        let direct = try thumbnailer.thumbnails(of: cover, as: specs)
        let written = written(format) - before
        return (direct, try thumbnailer.libvipsThumbnails(of: cover, as: specs), written)
    }

    @Test(arguments: [1, 50, 80, 89, 90, 100])
    func theSameBytesAsLibvipsAtEveryQuality(quality: Int) throws {
        for (colourType, format, direct) in [(UInt8(2), ThumbnailFormat.jpeg, true), (0, .jpeg, true), (2, .webp, true), (0, .webp, false)] {
            let cover = PNGBuilder(width: 90, height: 90, colourType: colourType, filters: [1, 4], seed: 5).bytes()
            for size in [1, 7, 16, 17, 33, 90] {
                let name = "colour type \(colourType), \(size) px, \(format) quality \(quality)"
                let (made, libvips, written) = try Self.bothWays(cover, as: [ThumbnailSpec(size: size, format: format, quality: quality)])
                #expect(written == (Self.encodes && direct ? 1 : 0), "\(name): written \(written) times")
                let same = made == libvips
                #expect(same, "\(name)")
            }
        }
    }

    /// The chain a build makes, from a JPEG and a PNG cover: every size written directly, the
    /// same bytes.
    @Test(arguments: [ThumbnailFormat.jpeg, .webp])
    func aBuildsChain(format: ThumbnailFormat) throws {
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0, format: format) }
        for cover in [try Thumbnailer.pattern(width: 1200, height: 1200, kind: .jpeg), PNGBuilder(width: 600, height: 600, filters: [4, 2], seed: 9).bytes()] {
            let (direct, libvips, written) = try Self.bothWays(cover, as: specs)
            let same = direct == libvips
            #expect(written == (Self.encodes ? 3 : 0) && same, "written \(written) times")
        }
    }

    /// A lone thumbnail (made from the cover's pipeline, not from a copy in memory) is left to
    /// libvips; a cover with alpha, flattened on white for JPEG and then copied into memory, is
    /// written directly as JPEG, and left to libvips as WebP (which keeps the alpha): the same
    /// bytes either way.
    @Test(arguments: [ThumbnailFormat.jpeg, .webp])
    func aLoneThumbnailIsLeftToLibvips(format: ThumbnailFormat) throws {
        let cover = PNGBuilder(width: 64, height: 64, colourType: 2, filters: [1], seed: 3).bytes()
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = Self.written(format)
        let lone = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 32, format: format))
        #expect(Self.written(format) == before)
        gallery_shim_paths_set_enabled(0)
        let libvips = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 32, format: format))
        gallery_shim_paths_set_enabled(1)
        let same = lone == libvips
        #expect(same)
        let alpha = PNGBuilder(width: 64, height: 64, colourType: 6, filters: [1], seed: 3).bytes()
        let (direct, viaLibvips, written) = try Self.bothWays(alpha, as: [ThumbnailSpec(size: 32, format: format)])
        let alike = direct == viaLibvips
        #expect(written == (Self.encodes && format == .jpeg ? 1 : 0) && alike)
    }
}
