import CVipsShim
import Foundation
import Testing

@testable import GalleryKit

/// A PNG cover is decoded by `png_pixels.c` (libdeflate and SSE2) rather than by libpng, when it
/// is sure to give libpng's pixels: the thumbnails are byte for byte libvips's own, and
/// whatever is unusual or damaged is left to libvips.
@Suite struct PNGDecodingTests {
    /// Whether the shim decodes `png` itself.
    static func decodedDirectly(_ png: [UInt8]) throws -> Bool {
        try Thumbnailer.requireLibrary()
        var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        let decoded = png.withUnsafeBytes { gallery_png_pixels($0.baseAddress, $0.count, &width, &height, &bands, &pixels) }
        free(pixels)
        return decoded == 1
    }

    /// What making `png` into `spec` gives with the shim's paths and then with libvips's alone
    /// (the thumbnail, or nil when refused), and whether the first made it from the shim's decode:
    /// on this thread only, since the switch is the calling thread's.
    static func bothWays(_ png: [UInt8], as spec: ThumbnailSpec) -> (direct: [UInt8]?, libvips: [UInt8]?, decoded: Bool) {
        let before = gallery_png_decoded_on_this_thread()
        let direct = try? Thumbnailer.encode(png, as: spec)
        let decoded = gallery_png_decoded_on_this_thread() > before
        gallery_shim_paths_set_enabled(0)
        defer { gallery_shim_paths_set_enabled(1) }
        return (direct, try? Thumbnailer.encode(png, as: spec), decoded)
    }

    /// Rows of sub, average and Paeth, which are undone two at a time, in every order: each pair
    /// of rows one of the nine (or, after a row of up, the rows between them).
    static let everyPair: [UInt8] = [1, 1, 1, 3, 1, 4, 3, 1, 3, 3, 3, 4, 4, 1, 4, 3, 4, 4]

    /// Every colour type the shim takes, every filter alone and mixed (and every pair of the
    /// filters that are undone two rows at a time), at sides where a row is
    /// shorter than a pixel's register, not a multiple of 16 bytes, or ends on a 3-byte pixel.
    /// Each is made into a PNG thumbnail of its own size, so nothing resizes it: the bytes are
    /// the decoded pixels, losslessly.
    @Test(arguments: [UInt8(0), 2, 4, 6])
    func everyFilterDecodesAsLibpngDoes(colourType: UInt8) throws {
        var compared = 0
        for side in [1, 2, 3, 5, 16, 17, 31, 64, 101] {
            for filters: [UInt8] in [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4], [4, 3, 4, 1, 2, 2], Self.everyPair, [2] + Self.everyPair] {
                let builder = PNGBuilder(width: side, height: side, colourType: colourType, filters: filters, seed: UInt32(side))
                let png = builder.bytes()
                #expect(try Self.decodedDirectly(png), "\(side) px, filters \(filters)")
                let (direct, libvips, decoded) = Self.bothWays(png, as: ThumbnailSpec(size: side, format: .png))
                let same = decoded && direct != nil && direct == libvips
                #expect(same, "colour type \(colourType), \(side) px, filters \(filters)")
                compared += 1
            }
        }
        #expect(compared == 9 * 9)
    }

    /// PNGs compressed by zlib (libvips's own, through libpng), made into every fit and format
    /// at the sizes a build makes, one at a time and as a chain from one decode.
    @Test func compressedPNGsMakeLibvipssThumbnails() throws {
        var compared = 0
        for (width, height) in [(1200, 1200), (640, 480), (301, 999)] {
            let png = try Thumbnailer.pattern(width: width, height: height, kind: .png)
            #expect(try Self.decodedDirectly(png), "\(width)×\(height)")
            for fit in ThumbnailFit.allCases {
                for format in [ThumbnailFormat.webp, .jpeg] {
                    let spec = ThumbnailSpec(size: 300, fit: fit, format: format)
                    let (direct, libvips, decoded) = Self.bothWays(png, as: spec)
                    let same = decoded && direct != nil && direct == libvips
                    #expect(same, "\(width)×\(height) \(fit) \(format)")
                    compared += 1
                }
            }
            let specs = [100, 200, 300].map { ThumbnailSpec(size: $0) }
            let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
            let direct = try thumbnailer.thumbnails(of: png, as: specs)
            let libvips = try thumbnailer.libvipsThumbnails(of: png, as: specs)
            #expect(direct == libvips, "\(width)×\(height): the chain")
        }
        #expect(compared == 3 * ThumbnailFit.allCases.count * 2)
    }

    /// Chunks that leave the pixels alone (text, time, resolution, and the colour hints libvips
    /// does not apply), before and after the image data, and the data cut into many chunks,
    /// some empty, still decode directly, to the same thumbnails.
    @Test func harmlessChunksAndManyIDATChunks() throws {
        let text = Array("Comment\u{0}Scanned from the sleeve".utf8)
        var builder = PNGBuilder(width: 40, height: 30, colourType: 6, filters: [4, 1, 0, 3, 2])
        builder.before = [
            ("gAMA", TestImages.bigEndian(45_455)), ("cHRM", [UInt8](repeating: 1, count: 32)), ("sRGB", [0]),
            ("sBIT", [8, 8, 8, 8]), ("pHYs", TestImages.bigEndian(11_811) + TestImages.bigEndian(11_811) + [1]),
            ("bKGD", [0, 255, 0, 0, 0, 255]), ("tEXt", text), ("iTXt", Array("Title\u{0}\u{0}\u{0}\u{0}\u{0}Côté".utf8)),
        ]
        builder.after = [("tIME", [7, 234, 11, 30, 9, 30, 0]), ("zTXt", Array("Note\u{0}\u{0}".utf8) + TestImages.zlibStored(Array("x".utf8)))]
        builder.pieces = 7
        let pieces = builder.bytes()
        builder.pieces = 40_000  // more chunks than stream bytes: most are empty
        for png in [pieces, builder.bytes()] {
            #expect(try Self.decodedDirectly(png))
            for spec in [ThumbnailSpec(size: 40, format: .png), ThumbnailSpec(size: 17, fit: .contain, format: .jpeg)] {
                let (direct, libvips, decoded) = Self.bothWays(png, as: spec)
                let same = decoded && direct != nil && direct == libvips
                #expect(same, "\(png.count) bytes, \(spec.size) \(spec.format)")
            }
        }
    }

    /// What libpng or libvips reads otherwise is left to libvips, which still makes a thumbnail
    /// of it: other bit depths, a palette, interlacing, transparency by colour, a colour
    /// profile, EXIF (an orientation), chunks it does not know, and an image too large to hold
    /// whole.
    @Test func whatLibvipsReadsOtherwiseIsLeftToIt() throws {
        let plain = PNGBuilder(width: 9, height: 9)
        var cases: [(String, PNGBuilder)] = []
        var sixteen = plain
        sixteen.bitDepth = 16
        cases.append(("16 bits", sixteen))
        var four = plain
        (four.colourType, four.bitDepth) = (0, 4)
        cases.append(("4-bit grey", four))
        var palette = plain
        palette.colourType = 3
        palette.before = [("PLTE", (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), 128] })]
        cases.append(("a palette", palette))
        var interlaced = PNGBuilder(width: 1, height: 1)  // one pixel: the same stream, interlaced or not
        interlaced.interlace = 1
        cases.append(("interlaced", interlaced))
        for (name, chunk) in [
            ("tRNS", TestImages.bigEndian(0) + [0, 0]), ("iCCP", Array("p\u{0}\u{0}".utf8) + TestImages.zlibStored([1, 2, 3])),
            ("eXIf", Array("MM\u{0}*".utf8) + TestImages.bigEndian(8) + [0, 0]), ("PLTE", [0, 0, 0, 255, 255, 255]),
            ("oFFs", TestImages.bigEndian(3) + TestImages.bigEndian(3) + [0]), ("vpAg", [0, 0, 0, 9, 0, 0, 0, 9, 0]),
        ] {
            var builder = plain
            builder.before = [(name, chunk)]
            cases.append((name, builder))
        }
        for (name, builder) in cases {
            let png = builder.bytes()
            #expect(try !Self.decodedDirectly(png), "\(name)")
            let made = try? Thumbnailer.encode(png, as: ThumbnailSpec(size: 9, format: .png))
            #expect(made != nil, "\(name): libvips makes it")
        }
        // Four times as many pixels as the shim holds whole: refused from the header alone.
        #expect(try !Self.decodedDirectly(TestImages.pngClaiming(width: 8192, height: 8192)))
    }

    /// A damaged PNG is left to libvips, whose verdict (a thumbnail or a refusal) stands: a
    /// chunk failing its CRC, the file cut short, no IEND, a stream longer or shorter than the
    /// image, a filter that does not exist, image data split by another chunk.
    @Test func damagedPNGsGetLibvipssVerdict() throws {
        let builder = PNGBuilder(width: 24, height: 24, colourType: 2, filters: [1, 4])
        let whole = builder.bytes()
        #expect(try Self.decodedDirectly(whole))
        var cases: [(String, [UInt8])] = []
        var flipped = whole
        flipped[whole.count - 20] ^= 0x10  // inside the image data
        cases.append(("an IDAT failing its CRC", flipped))
        var texted = builder
        texted.after = [("tEXt", Array("Key\u{0}value".utf8))]
        var badText = texted.bytes()
        badText[badText.count - 14] ^= 1  // the tEXt chunk's CRC
        cases.append(("a tEXt chunk failing its CRC", badText))
        cases.append(("cut short", Array(whole.prefix(whole.count - 40))))
        cases.append(("no IEND", Array(whole.prefix(whole.count - 12))))
        cases.append(("a stream with bytes after it", builder.bytes(stream: builder.stream + [0, 0, 0, 0])))
        cases.append(("a stream a row short", builder.bytes(stream: TestImages.zlibStored(Array(builder.filtered.dropLast(24 * 3 + 1))))))
        cases.append(("a stream a row long", builder.bytes(stream: TestImages.zlibStored(builder.filtered + [0] + Array(repeating: 9, count: 24 * 3)))))
        var unknownFilter = builder
        unknownFilter.filters = [1, 4, 5]
        cases.append(("filter 5", unknownFilter.bytes()))
        var split = builder
        split.pieces = 2
        let halves = split.bytes()
        let secondIDAT = try #require(Self.offsets(of: "IDAT", in: halves).last) - 4
        cases.append(("IDAT split by a tEXt chunk", Array(halves[..<secondIDAT]) + TestImages.chunk("tEXt", Array("a\u{0}b".utf8)) + Array(halves[secondIDAT...])))
        for (name, png) in cases {
            #expect(try !Self.decodedDirectly(png), "\(name)")
            let (direct, libvips, decoded) = Self.bothWays(png, as: ThumbnailSpec(size: 24, format: .png))
            #expect(!decoded && direct == libvips, "\(name): \(direct == nil ? "refused" : "made") with the shim, \(libvips == nil ? "refused" : "made") without")
        }
    }

    /// Where the chunk type `type` starts in `png`.
    static func offsets(of type: String, in png: [UInt8]) -> [Int] {
        let needle = Array(type.utf8)
        return (0...(png.count - 4)).filter { Array(png[$0..<$0 + 4]) == needle }
    }

    /// A square opaque cover whose thumbnail libvips would begin by averaging its rows in groups
    /// (its reduce's box shrink by 2 or more, from 4 times the thumbnail's side) has them
    /// averaged as it is decoded, and libvips's reducev and reduceh do the rest: the same
    /// thumbnails, in every fit, for sides the size divides and sides it does not. Other covers
    /// (a side the group does not divide, alpha, not square, a shrink under 4) are left to
    /// libvips's thumbnail.
    @Test func rowsShrunkAsLibvipsWouldMakeTheSameThumbnails() throws {
        let shrinking: [(side: Int, size: Int, colourType: UInt8)] = [
            (400, 100, 2), (500, 100, 2), (548, 137, 2), (426, 100, 0), (600, 100, 2), (1000, 100, 0),
            (832, 100, 2), (800, 50, 0), (570, 120, 2), (514, 128, 2), (1200, 300, 2),
        ]
        let notShrinking: [(width: Int, height: Int, size: Int, colourType: UInt8)] = [
            (401, 401, 100, 2), (830, 830, 100, 2), (300, 300, 100, 0), (900, 900, 50, 2),
            (400, 400, 100, 6), (400, 360, 90, 2), (400, 400, 100, 4),
        ]
        // libvips 8.15 and later (Highway) round a box of 3, 5 or 6 rows otherwise: with them
        // only boxes of 2, 4 and 8 rows are made so, and the others are left to libvips.
        let newer = gallery_vips_version() >= 81500
        var cases = shrinking.map { shrinking in
            let box = Int((Double(shrinking.side) / Double(shrinking.size) / 2).rounded(.down))
            let builder = PNGBuilder(width: shrinking.side, height: shrinking.side, colourType: shrinking.colourType, filters: [1, 4, 2], seed: 7)
            return (builder, shrinking.size, !newer || box & (box - 1) == 0)
        }
        cases += notShrinking.map { (PNGBuilder(width: $0.width, height: $0.height, colourType: $0.colourType, filters: [1, 4, 2], seed: 7), $0.size, false) }
        for (builder, size, shrinks) in cases {
            let png = builder.bytes()
            let name = "\(builder.width)×\(builder.height) colour type \(builder.colourType) into \(size)"
            for fit in ThumbnailFit.allCases {
                for format in [ThumbnailFormat.png, .webp] {
                    let before = (gallery_png_rows_shrunk_on_this_thread(), gallery_rows_reduced_on_this_thread(), gallery_columns_reduced_on_this_thread())
                    let (direct, libvips, decoded) = Self.bothWays(png, as: ThumbnailSpec(size: size, fit: fit, format: format))
                    #expect(decoded, "\(name) \(fit): decoded directly")
                    let shrunk = gallery_png_rows_shrunk_on_this_thread() - before.0
                    #expect(shrunk == (shrinks ? 1 : 0), "\(name) \(fit): shrunk \(shrunk) times")
                    // And with libvips 8.14, reduced by reduce_rows.c, rows and columns, where the
                    // shrink left has at most 8 binary places (4 to 5.5 or 8 to 11 times the size,
                    // 4.75…).
                    let rest = Double(builder.width) / Double(size) / Double(max(1, Int((Double(builder.width) / Double(size) / 2).rounded(.down))))
                    let reducible = shrinks && gallery_vips_version() / 100 == 814 && (rest * 256).rounded(.down) == rest * 256
                    let reducedRows = gallery_rows_reduced_on_this_thread() - before.1
                    let reducedColumns = gallery_columns_reduced_on_this_thread() - before.2
                    #expect(reducedRows == (reducible ? 1 : 0) && reducedColumns == reducedRows, "\(name) \(fit): rows reduced \(reducedRows) times, columns \(reducedColumns)")
                    let same = direct != nil && direct == libvips
                    #expect(same, "\(name) \(fit) \(format)")
                }
            }
        }
    }

    /// The smaller sizes of a chain, resized from the largest in memory, have their rows and
    /// columns reduced by reduce_rows.c (libvips 8.14, shrinks with few binary places: 1.5, 2.5,
    /// 1.25, 3…),
    /// whatever the cover's format: the same thumbnails as libvips's thumbnail of the largest.
    /// Others (alpha, a shrink such as 300 / 137) are left to libvips.
    @Test func smallerSizesOfAChainMakeLibvipssThumbnails() throws {
        let jpeg = try Thumbnailer.pattern(width: 1200, height: 1200, kind: .jpeg)
        let webp = try Thumbnailer.pattern(width: 640, height: 640, kind: .webp)
        let grey = PNGBuilder(width: 600, height: 600, colourType: 0, filters: [4, 1], seed: 3).bytes()
        let alpha = PNGBuilder(width: 400, height: 400, colourType: 6, filters: [4, 1], seed: 3).bytes()
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        var reducedAny = false, reducedColumns = false
        for (name, cover) in [("JPEG", jpeg), ("WebP", webp), ("grey PNG", grey), ("RGBA PNG", alpha)] {
            for sizes in [[100, 200, 300], [120, 240, 300], [137, 300], [64, 128, 256]] {
                for format in [ThumbnailFormat.png, .jpeg] {
                    let specs = sizes.map { ThumbnailSpec(size: $0, fit: .crop, format: format) }
                    let before = (gallery_rows_reduced_on_this_thread(), gallery_columns_reduced_on_this_thread())
                    let direct = try thumbnailer.thumbnails(of: cover, as: specs)
                    reducedAny = reducedAny || gallery_rows_reduced_on_this_thread() > before.0
                    reducedColumns = reducedColumns || gallery_columns_reduced_on_this_thread() > before.1
                    let libvips = try thumbnailer.libvipsThumbnails(of: cover, as: specs)
                    let same = direct == libvips
                    #expect(same, "\(name) \(sizes) \(format)")
                }
            }
        }
        #expect(reducedAny == (gallery_vips_version() / 100 == 814) && reducedColumns == reducedAny)
    }

    /// Rows averaged in groups of 2 to 8 round as libvips's shrinkv does, (sum + factor / 2) /
    /// factor, on rows whose length is not a multiple of the 16 bytes averaged at once, with the
    /// largest sums there are.
    @Test func shrinkingRoundsAsShrinkvDoes() {
        for factor in 2...8 {
            for (width, bands) in [(1, 1), (7, 3), (21, 3), (33, 1)] {
                let stride = width * bands
                let rows = factor * 3
                var pixels: [UInt8] = (0..<(stride * rows)).map { (index: Int) -> UInt8 in
                    index / stride >= rows - factor ? 255 : UInt8(truncatingIfNeeded: index &* 97 &+ index / 3)
                }
                var expected: [UInt8] = []
                for group in 0..<3 {
                    for i in 0..<stride {
                        var sum = factor / 2
                        for k in 0..<factor { sum += Int(pixels[(group * factor + k) * stride + i]) }
                        expected.append(UInt8(sum / factor))
                    }
                }
                let height = gallery_png_shrink_rows(&pixels, Int32(width), Int32(rows), Int32(bands), Int32(factor))
                #expect(height == 3)
                let same = Array(pixels.prefix(stride * 3)) == expected
                #expect(same, "by \(factor): \(width) px of \(bands) bands")
            }
        }
    }

    /// reduce_rows.c's AVX2 loop (32 bytes at a time, where the CPU has it) and its SSE2 loop
    /// make the same rows, on rows whose length is not a multiple of either, with extreme
    /// values; and without AVX2 the thumbnails are still libvips's.
    @Test func reducingRowsIsTheSameWithOrWithoutAVX2() throws {
        var state: UInt32 = 12_345
        for length in [1, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 3600] {
            for shrink in [1.5, 2, 2.5, 3, 4.75] {
                let inRows = 9 * 4
                let outRows = Int(Double(inRows) / shrink)
                let input: [UInt8] = (0..<(length * inRows)).map { index in
                    state = state &* 1_664_525 &+ 1_013_904_223
                    // Rows of 0 and 255 in turn in places, where the kernel's lobes clip.
                    return (index / length) % 7 < 2 ? UInt8((index / length) % 2 * 255) : UInt8(truncatingIfNeeded: state >> 24)
                }
                func reduced(avx2: Int32) -> [UInt8] {
                    var output = [UInt8](repeating: 0, count: length * outRows)
                    gallery_reduce_rows_set_avx2(avx2)
                    defer { gallery_reduce_rows_set_avx2(1) }
                    let status = gallery_reduce_rows(input, length, Int32(inRows), &output, Int32(outRows), shrink, 0.25)
                    #expect(status == 0)
                    return output
                }
                let same = reduced(avx2: 1) == reduced(avx2: 0)
                #expect(same, "\(length) bytes by \(shrink)")
            }
        }
        let cover = try Thumbnailer.pattern(width: 1200, height: 1200, kind: .png)
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0, format: .jpeg) }
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        gallery_reduce_rows_set_avx2(0)
        let withoutAVX2 = try thumbnailer.thumbnails(of: cover, as: specs)
        gallery_reduce_rows_set_avx2(1)
        let libvips = try thumbnailer.libvipsThumbnails(of: cover, as: specs)
        #expect(withoutAVX2 == libvips)
    }

    /// Many threads decoding at once make the same thumbnails, the cover going through the
    /// shim's decode (checked on this thread, so the threads do not compare libvips with itself).
    @Test func theSameOnManyThreads() throws {
        let png = try Thumbnailer.pattern(width: 800, height: 800, kind: .png)
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0, format: .jpeg) }
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = gallery_png_decoded_on_this_thread()
        _ = try thumbnailer.thumbnails(of: png, as: specs)
        #expect(gallery_png_decoded_on_this_thread() == before + 1)
        let expected = try thumbnailer.libvipsThumbnails(of: png, as: specs)
        #expect(thumbnailer.mismatches(of: png, as: specs, expected: expected, rounds: 8) == 0)
    }
}
