import CVipsShim
import Foundation
import Testing

@testable import GalleryKit

/// A square JPEG cover whose resize, after libjpeg's shrink-on-load, is one `reduce_rows.c`
/// makes exactly (libvips 8.14) is reduced by it rather than by libvips's thumbnail: the same
/// thumbnails, byte for byte, and whatever libvips would treat otherwise (turned upright, CMYK,
/// not square, damaged, another shrink) is left to libvips.
@Suite struct JPEGReducingTests {
    /// A JPEG of noise and gradients (`PNGBuilder`'s pixels), grey or RGB, with no metadata: at
    /// quality 80 its chroma is subsampled (4:2:0, as most photos'), at 90 not (libvips's rule).
    static func jpeg(side: Int, grey: Bool = false, quality: Int = 80) throws -> [UInt8] {
        let png = PNGBuilder(width: side, height: side, colourType: grey ? 0 : 2, filters: [0], seed: UInt32(side)).bytes()
        return try Thumbnailer.encode(png, as: ThumbnailSpec(size: side, format: .jpeg, quality: quality))
    }

    /// `jpeg` with a segment put in after its start marker.
    static func inserting(_ marker: UInt8, _ payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return Array(jpeg.prefix(2)) + [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg.dropFirst(2))
    }

    /// An APP1 Exif segment whose only tag is the orientation.
    static func exif(orientation: UInt8) -> [UInt8] {
        Array("Exif\u{0}\u{0}II*\u{0}".utf8) + [8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0]
    }

    /// What making `jpeg` into `specs` (one chain) gives with the shim's paths and then with
    /// libvips's alone (each a thumbnail list, or the error's text), and how many JPEGs the
    /// first reduced itself, on this thread.
    ///
    /// Every JPEG reduced must have been decoded by `jpeg_direct.c` too: otherwise what is
    /// counted as reduced is -1.
    static func bothWays(_ jpeg: [UInt8], as specs: [ThumbnailSpec]) -> (direct: Result<[[UInt8]], ThumbnailError>, libvips: Result<[[UInt8]], ThumbnailError>, reduced: Int) {
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = (gallery_jpegs_reduced_on_this_thread(), gallery_jpegs_decoded_on_this_thread())
        let direct = Result { () throws(ThumbnailError) in try thumbnailer.thumbnails(of: jpeg, as: specs) }
        let reduced = Int(gallery_jpegs_reduced_on_this_thread() - before.0)
        let decoded = Int(gallery_jpegs_decoded_on_this_thread() - before.1)
        return (direct, Result { () throws(ThumbnailError) in try thumbnailer.libvipsThumbnails(of: jpeg, as: specs) }, decoded == reduced ? reduced : -1)
    }

    static func same(_ a: Result<[[UInt8]], ThumbnailError>, _ b: Result<[[UInt8]], ThumbnailError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x.description == y.description
        default: false
        }
    }

    static let reduces = gallery_vips_version() / 100 == 814

    /// Sides and sizes where libvips loads the JPEG shrunk by 1, 2 or 4 and reduces by a shrink
    /// with few binary places (2, 2.5, 3: reduced here; 1201 and 401 px load at 600 and 200, as
    /// libvips crops libjpeg's rounded-up size), and where the shrink left is not one
    /// (2.33 from 466 px into 100, 3.99 from 399, 3.2 from 320; none from 100: left to libvips),
    /// grey and RGB with and without subsampled chroma, alone (in every fit and format once) and
    /// as the chain a build makes.
    @Test func squareJPEGsMakeLibvipssThumbnails() throws {
        let cases: [(side: Int, size: Int, reduced: Bool)] = [
            (1200, 300, true), (500, 100, true), (200, 100, true), (300, 100, true), (1000, 100, true), (600, 200, true),
            (1201, 300, true), (401, 100, true),
            (466, 100, false), (399, 100, false), (320, 100, false), (100, 100, false),
        ]
        var reducedAny = false
        var made: [String: [UInt8]] = [:]
        for (side, size, reducible) in cases {
            for (kind, grey, quality) in [("RGB 4:2:0", false, 80), ("RGB 4:4:4", false, 90), ("grey", true, 80)] {
                let key = "\(side) \(kind)"
                let jpeg = try made[key] ?? Self.jpeg(side: side, grey: grey, quality: quality)
                made[key] = jpeg
                let name = "\(side) px \(kind) into \(size)"
                // Every fit and format once; a square cover is cut or padded alike.
                let fits = side == 1200 && size == 300 ? ThumbnailFit.allCases : [.crop]
                let formats: [ThumbnailFormat] = side == 1200 && size == 300 ? [.jpeg, .webp, .png] : [.jpeg]
                for fit in fits {
                    for format in formats {
                        let (direct, libvips, reduced) = Self.bothWays(jpeg, as: [ThumbnailSpec(size: size, fit: fit, format: format)])
                        #expect(reduced == (reducible && Self.reduces ? 1 : 0), "\(name) \(fit) \(format): reduced \(reduced) times")
                        let same = Self.same(direct, libvips) && (try? direct.get()) != nil
                        #expect(same, "\(name) \(fit) \(format)")
                        reducedAny = reducedAny || reduced > 0
                    }
                }
                let chain = [50, 100, size].filter { $0 <= size }.map { ThumbnailSpec(size: $0, format: .jpeg) }
                let (direct, libvips, _) = Self.bothWays(jpeg, as: chain)
                let same = Self.same(direct, libvips)
                #expect(same, "\(name): the chain")
            }
        }
        #expect(reducedAny == Self.reduces)
    }

    /// A large cover libjpeg shrinks by 4 (3000 px into 300, loaded at 750) is reduced too.
    @Test func aCoverShrunkByFourWhileLoading() throws {
        let jpeg = try Thumbnailer.pattern(width: 3000, height: 3000, kind: .jpeg)
        let (direct, libvips, reduced) = Self.bothWays(jpeg, as: [100, 200, 300].map { ThumbnailSpec(size: $0, format: .webp) })
        let same = Self.same(direct, libvips)
        #expect(reduced == (Self.reduces ? 1 : 0) && same)
    }

    /// A colour profile is carried through the reduce, and the thumbnail converted with it as
    /// libvips's would be: Adobe RGB's numbers come out other than they went in.
    @Test func aProfileIsKept() throws {
        let profile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/ghostscript/a98.icc")))
        let plain = try Self.jpeg(side: 1200)
        let tagged = Self.inserting(0xE2, Array("ICC_PROFILE\u{0}".utf8) + [1, 1] + profile, into: plain)
        let spec = [ThumbnailSpec(size: 300, format: .png)]
        let (direct, libvips, reduced) = Self.bothWays(tagged, as: spec)
        let same = Self.same(direct, libvips)
        #expect(reduced == (Self.reduces ? 1 : 0) && same)
        let untagged = Self.bothWays(plain, as: spec).direct
        let differs = (try? direct.get()) != (try? untagged.get())
        #expect(differs, "the profile made no difference")
    }

    /// What libvips's thumbnail treats otherwise is left to it: a cover to be turned upright
    /// (EXIF orientation 6; orientation 1 is reduced), one that is not square, a CMYK one with
    /// no profile of its own, and damaged ones (cut short and closed with an end marker; cut
    /// inside its header), which get libvips's verdict.
    @Test func whatLibvipsTreatsOtherwiseIsLeftToIt() throws {
        let jpeg = try Self.jpeg(side: 1200)
        let upright = Self.bothWays(Self.inserting(0xE1, Self.exif(orientation: 1), into: jpeg), as: [ThumbnailSpec(size: 300)])
        let uprightSame = Self.same(upright.direct, upright.libvips)
        #expect(upright.reduced == (Self.reduces ? 1 : 0) && uprightSame, "orientation 1")
        let cmykCover = try Thumbnailer.cmykPattern(profile: "cmyk", width: 1200, height: 1200, red: 20, green: 120, blue: 200)
        let cases: [(String, [UInt8], Bool)] = [
            ("orientation 6", Self.inserting(0xE1, Self.exif(orientation: 6), into: jpeg), true),
            ("1200×900", try Thumbnailer.pattern(width: 1200, height: 900, kind: .jpeg), true),
            ("CMYK without a profile", CoverCareTests.replacingICCProfile(of: cmykCover, with: nil), true),
            ("cut short", Array(jpeg.prefix(jpeg.count * 3 / 5)) + [0xFF, 0xD9], false),
            ("cut in its header", Array(jpeg.prefix(300)), false),
        ]
        for (name, cover, made) in cases {
            let (direct, libvips, reduced) = Self.bothWays(cover, as: [ThumbnailSpec(size: 300), ThumbnailSpec(size: 100)])
            #expect(reduced == 0, "\(name)")
            let same = Self.same(direct, libvips) && ((try? direct.get()) != nil) == made
            #expect(same, "\(name): \((try? direct.get()) == nil ? "refused" : "made") with the shim, \((try? libvips.get()) == nil ? "refused" : "made") without")
        }
    }

    /// Many threads reducing at once make libvips's thumbnails.
    @Test func theSameOnManyThreads() throws {
        let jpeg = try Self.jpeg(side: 1200)
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0, format: .jpeg) }
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        // The cover goes through the direct decode and reduce (checked on this thread), so the
        // threads do not compare libvips with itself.
        let (_, expected, reduced) = Self.bothWays(jpeg, as: specs)
        #expect(reduced == (Self.reduces ? 1 : 0))
        #expect(thumbnailer.mismatches(of: jpeg, as: specs, expected: try expected.get(), rounds: 8) == 0)
    }
}
