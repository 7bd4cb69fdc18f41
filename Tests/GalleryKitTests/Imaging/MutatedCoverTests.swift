import CVipsShim
import Foundation
import Testing

@testable import GalleryKit

/// Covers damaged at random, the way a broken server or a hostile one may send them: each made
/// into a build's chain of thumbnails with the shim's direct paths (`png_pixels.c`,
/// `jpeg_direct.c`, `direct_resize.c`, the encoders) and then with libvips's alone, which must
/// agree: the same thumbnails, or the same refusal. The damage is seeded, so every run tries the
/// same covers, and each failure names its seed and what was changed.
///
/// Random damage mostly breaks a PNG's CRCs or its zlib stream's checksum, which sends it to
/// libvips at once. So most of the PNG damage here is made the way a careful forger would: the
/// rows' filtered bytes (filter types too) are changed and the stream and chunks are written
/// again around them, or a header byte is changed and its CRC fixed. Those reach the shim's own
/// decoding, and the tests count that they did.
///
/// Each test does its work on a thread of its own (``Report/collect(_:)``) and checks what it
/// found afterwards: held for seconds on end, the test process's two pool threads left the timing
/// tests of other suites (the preview's watcher) waiting past their deadlines.
@Suite struct MutatedCoverTests {
    /// What a test's thread found: where the two ways disagreed, and how many covers the shim
    /// decoded (or drew) itself.
    struct Report: Sendable {
        var mismatches: [String] = []
        var decoded = 0
        var tried = 0

        /// Runs `work` on a new thread (freeing libvips's per-thread state after it) and returns
        /// its report.
        static func collect(_ work: @escaping @Sendable (inout Report) throws -> Void) async throws -> Report {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread {
                    var report = Report()
                    let result = Result { try work(&report) }.map { report }
                    Thumbnailer.threadFinished()
                    continuation.resume(with: result)
                }
                thread.stackSize = 8 << 20
                thread.start()
            }
        }

        /// What a test's cover lacked: thrown on the work's thread, where `#require` could not
        /// record it against the test.
        struct Missing: Error { var what: String }

        /// Notes `mutant`'s outcome both ways (see ``MutatedCoverTests/agree(_:_:)``).
        mutating func compare(_ mutant: [UInt8], _ what: String) {
            let (decoded, found) = MutatedCoverTests.agree(mutant, what)
            mismatches += found
            self.decoded += decoded ? 1 : 0
            tried += 1
        }
    }

    /// What a build makes of a cover, in JPEG (the direct encoder's format) and in WebP.
    static let chains: [[ThumbnailSpec]] = [
        [ThumbnailSpec(size: 100, format: .jpeg), ThumbnailSpec(size: 50, format: .jpeg)],
        [ThumbnailSpec(size: 100, format: .webp)],
    ]

    /// The chain's thumbnails with the shim's paths and with libvips's alone, and how many
    /// covers the first decoded itself (PNG or JPEG), on this thread.
    static func bothWays(_ bytes: [UInt8], as specs: [ThumbnailSpec]) -> (direct: Result<[[UInt8]], ThumbnailError>, libvips: Result<[[UInt8]], ThumbnailError>, decoded: Int) {
        let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
        let before = gallery_png_decoded_on_this_thread() + gallery_jpegs_decoded_on_this_thread()
        let direct = Result { () throws(ThumbnailError) in try thumbnailer.thumbnails(of: bytes, as: specs) }
        let decoded = Int(gallery_png_decoded_on_this_thread() + gallery_jpegs_decoded_on_this_thread() - before)
        return (direct, Result { () throws(ThumbnailError) in try thumbnailer.libvipsThumbnails(of: bytes, as: specs) }, decoded)
    }

    /// Makes `mutant` both ways, in both chains: whether the shim decoded it, and where the two
    /// ways disagreed.
    static func agree(_ mutant: [UInt8], _ what: String) -> (decoded: Bool, mismatches: [String]) {
        var decoded = false
        var mismatches: [String] = []
        for specs in chains {
            let (direct, libvips, count) = bothWays(mutant, as: specs)
            if !JPEGReducingTests.same(direct, libvips) {
                mismatches.append("\(what), \(specs.first?.format.rawValue ?? ""): \(outcome(direct)) with the shim (\(count > 0 ? "its own decode" : "libvips's decode")), \(outcome(libvips)) without")
            }
            decoded = decoded || count > 0
        }
        return (decoded, mismatches)
    }

    static func outcome(_ result: Result<[[UInt8]], ThumbnailError>) -> String {
        switch result {
        case .success(let thumbnails): "made \(thumbnails.map(\.count)) bytes"
        case .failure(let error): "refused (\(error.description))"
        }
    }

    /// A PNG's chunks: where each starts, its type and its data's range.
    static func chunks(of png: [UInt8]) -> [(start: Int, type: String, data: Range<Int>)] {
        var found: [(Int, String, Range<Int>)] = []
        var position = 8
        while position + 12 <= png.count {
            let length = png[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= png.count - position - 12 else { break }
            let type = String(decoding: png[position + 4..<position + 8], as: UTF8.self)
            found.append((position, type, position + 8..<position + 8 + length))
            position += length + 12
        }
        return found
    }

    /// `png` with the CRC of every chunk it can walk written again.
    static func withCRCsFixed(_ png: [UInt8]) -> [UInt8] {
        var fixed = png
        for chunk in chunks(of: png) {
            let crc = TestImages.bigEndian(TestImages.crc32(Array(png[chunk.start + 4..<chunk.data.upperBound])))
            fixed.replaceSubrange(chunk.data.upperBound..<chunk.data.upperBound + 4, with: crc)
        }
        return fixed
    }

    /// Rows whose filtered bytes and filter types were changed, in a stream and chunks that are
    /// whole again: the shim decodes them (when every filter type is one of the five) and must
    /// give libpng's pixels, in every colour type it takes, at sides where the chain shrinks rows
    /// as they are decoded (400 into 100) and where it does not.
    @Test(arguments: [UInt8(0), 2, 4, 6])
    func pngRowsChangedInAWholeStream(colourType: UInt8) async throws {
        try Thumbnailer.requireLibrary()
        let report = try await Report.collect { report in
            var generator = SeededGenerator(seed: 0x5EED_0000 + UInt64(colourType))
            for side in [37, 400] {
                let filters = (0..<side).map { _ in UInt8.random(in: 0...4, using: &generator) }
                let builder = PNGBuilder(width: side, height: side, colourType: colourType, filters: filters, seed: UInt32(side))
                let filtered = builder.filtered
                let stride = side * builder.samples + 1
                for round in 0..<12 {
                    var rows = filtered
                    var changes: [String] = []
                    for _ in 0..<Int.random(in: 1...6, using: &generator) {
                        if Bool.random(using: &generator) {
                            // A filter type: mostly one of the five, sometimes none.
                            let row = Int.random(in: 0..<side, using: &generator)
                            let filter = UInt8.random(in: 0...(round % 4 == 3 ? 7 : 4), using: &generator)
                            rows[row * stride] = filter
                            changes.append("row \(row) filter \(filter)")
                        } else {
                            let at = Int.random(in: 0..<rows.count, using: &generator)
                            guard at % stride != 0 else { continue }
                            rows[at] = UInt8.random(in: 0...255, using: &generator)
                            changes.append("byte \(at)")
                        }
                    }
                    let png = builder.bytes(stream: TestImages.zlibStored(rows))
                    report.compare(png, "colour type \(colourType), \(side) px, round \(round): \(changes.joined(separator: ", "))")
                }
            }
        }
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.tried == 24)
        // Most rounds keep every filter type one of the five: the shim must have decoded those.
        #expect(report.decoded >= 12, "the shim decoded \(report.decoded) of \(report.tried)")
    }

    /// A PNG compressed by zlib (libvips's own) with one byte of its header changed and the
    /// header's CRC written again (size, bit depth, colour type, compression, filter method,
    /// interlacing), with a byte changed anywhere and every CRC fixed, and cut short anywhere.
    @Test func pngHeadersAndChunksChanged() async throws {
        let report = try await Report.collect { report in
            let source = PNGBuilder(width: 160, height: 160, colourType: 2, filters: [1, 4, 2, 3, 0], seed: 7).bytes()
            let png = try Thumbnailer.encode(source, as: ThumbnailSpec(size: 160, format: .png))
            guard let header = Self.chunks(of: png).first(where: { $0.type == "IHDR" }) else { throw Report.Missing(what: "the PNG's IHDR") }
            var generator = SeededGenerator(seed: 0x5EED_1000)
            report.compare(png, "the PNG itself")
            for _ in 0..<24 {
                var mutant = png
                let at = Int.random(in: header.data, using: &generator)
                let value = Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : mutant[at] ^ (1 << UInt8.random(in: 0...7, using: &generator))
                mutant[at] = value
                report.compare(Self.withCRCsFixed(mutant), "IHDR byte \(at - header.data.lowerBound) set to \(value)")
            }
            for _ in 0..<24 {
                var mutant = png
                let at = Int.random(in: 8..<png.count, using: &generator)
                mutant[at] ^= UInt8.random(in: 1...255, using: &generator)
                report.compare(Self.withCRCsFixed(mutant), "byte \(at) of \(png.count) changed, CRCs fixed")
            }
            for _ in 0..<8 {
                let length = Int.random(in: 8..<png.count, using: &generator)
                report.compare(Array(png.prefix(length)), "cut to \(length) of \(png.count) bytes")
            }
        }
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.tried == 57)
        // The undamaged PNG at least; some changes leave one the shim takes (a byte of a chunk it
        // skips, or of the compressed stream that still inflates to the same size).
        #expect(report.decoded >= 1)
    }

    /// JPEG covers with bytes changed anywhere, bytes put in or taken out, and cut short:
    /// libjpeg's warnings send most to libvips, and those the shim decodes (a change in the scan
    /// that libjpeg reads without a warning) must come out as libvips makes them. RGB with its
    /// chroma subsampled (4:2:0) and not (4:4:4, at a side libjpeg's shrunk rows are cropped
    /// from), and grey.
    ///
    /// The first version of `jpeg_direct.c` gave libjpeg the whole file as one buffer, and made
    /// thumbnails of two of the first 40 RGB covers here that libvips refuses ("Corrupt JPEG
    /// data: bad Huffman code"): see its windowed source.
    @Test(arguments: [(side: 300, grey: false, quality: 80), (401, false, 90), (300, true, 80)])
    func jpegBytesChanged(side: Int, grey: Bool, quality: Int) async throws {
        let report = try await Report.collect { report in
            let jpeg = try JPEGReducingTests.jpeg(side: side, grey: grey, quality: quality)
            var generator = SeededGenerator(seed: 0x5EED_2000 + UInt64(side * 100 + quality) + (grey ? 1 : 0))
            for round in 0..<40 {
                var mutant = jpeg
                var what = "\(side) px \(grey ? "grey" : "RGB") q\(quality), round \(round): "
                switch round % 4 {
                case 0, 1:
                    let count = Int.random(in: 1...3, using: &generator)
                    let positions = (0..<count).map { _ in Int.random(in: 2..<jpeg.count, using: &generator) }
                    for at in positions { mutant[at] ^= UInt8.random(in: 1...255, using: &generator) }
                    what += "bytes \(positions) of \(jpeg.count) changed"
                case 2:
                    let at = Int.random(in: 2..<jpeg.count, using: &generator)
                    let count = Int.random(in: 1...8, using: &generator)
                    if Bool.random(using: &generator) {
                        mutant.insert(contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
                        what += "\(count) bytes put in at \(at)"
                    } else {
                        mutant.removeSubrange(at..<min(at + count, mutant.count))
                        what += "\(count) bytes taken out at \(at)"
                    }
                default:
                    let length = Int.random(in: 2..<jpeg.count, using: &generator)
                    mutant = Array(jpeg.prefix(length))
                    what += "cut to \(length) of \(jpeg.count) bytes"
                }
                report.compare(mutant, what)
            }
            let (undamaged, found) = Self.agree(jpeg, "the JPEG itself")
            report.mismatches += found
            if !undamaged { report.mismatches.append("the shim did not decode the undamaged JPEG") }
        }
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.tried == 40)
        // Many changes in the scan pass libjpeg without a warning: those reached the shim's decode.
        #expect(report.decoded >= 10, "the shim decoded \(report.decoded) of \(report.tried)")
    }

    /// A damaged JPEG that is refused for lost scan data stays refused with bytes put between its
    /// segments before the scan, whose harmless warning ("3 extraneous bytes before marker 0xda")
    /// is then the one libvips reports: gallery's own scan of the file (`jpeg_scan.c`) must find
    /// the damage libvips found. That scan gave libjpeg the whole file as one buffer, where
    /// libjpeg-turbo's fast path reads a bad Huffman code as 0 without a word: covers refused
    /// as they came were made into thumbnails with the bytes put in.
    @Test func harmlessBytesDoNotLetLostScanDataThrough() async throws {
        let report = try await Report.collect { report in
            let jpeg = try JPEGReducingTests.jpeg(side: 300)
            guard let scan = jpeg.firstRange(of: [0xFF, 0xDA])?.lowerBound else { throw Report.Missing(what: "the JPEG's scan") }
            let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)
            let specs = [ThumbnailSpec(size: 100), ThumbnailSpec(size: 50)]
            var generator = SeededGenerator(seed: 0x5EED_3000)
            for round in 0..<60 {
                var mutant = jpeg
                let positions = (0..<Int.random(in: 1...3, using: &generator)).map { _ in Int.random(in: scan + 2..<jpeg.count - 2, using: &generator) }
                for at in positions { mutant[at] ^= UInt8.random(in: 1...255, using: &generator) }
                let lost: String
                do throws(ThumbnailError) {
                    _ = try thumbnailer.thumbnails(of: mutant, as: specs)
                    continue
                } catch {
                    guard Thumbnailer.lostScanData.contains(where: error.description.lowercased().contains) else { continue }
                    lost = error.description
                }
                report.tried += 1
                let padded = Array(mutant[..<scan]) + [0x00, 0x00, 0x07] + Array(mutant[scan...])
                if (try? thumbnailer.thumbnails(of: padded, as: specs)) != nil {
                    report.mismatches.append("round \(round): bytes \(positions) of \(jpeg.count) changed, refused as it came (\(lost)), made with bytes before its scan")
                }
            }
        }
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.tried >= 10, "\(report.tried) of 60 refused for lost scan data")
    }

    /// Square SVG covers with characters changed, put in, taken out or cut off: whatever
    /// `svg_webp.c` draws itself (librsvg and libwebp without libvips) must be what libvips
    /// draws, and libvips must draw it too; the rest is left to libvips.
    @Test(arguments: ["staring-at-the-sun", "its-my-life"])
    func svgCharactersChanged(name: String) async throws {
        let svg = try TestImages.starterSVG(name)
        let report = try await Report.collect { report in
            let spec = ThumbnailSpec(size: 100, format: .webp)
            let pieces = Array("<>/=\"' #0123456789.-abcdefghijklmnopqrstuvwxyz%;:()&".utf8)
            var generator = SeededGenerator(seed: 0x5EED_4000 + UInt64(svg.count))
            for round in 0..<60 {
                var mutant = svg
                let at = Int.random(in: 0..<svg.count, using: &generator)
                let count = Int.random(in: 1...12, using: &generator)
                let what: String
                switch round % 4 {
                case 0:
                    for offset in 0..<min(count, mutant.count - at) { mutant[at + offset] = pieces.randomElement(using: &generator)! }
                    what = "\(count) characters at \(at) changed"
                case 1:
                    mutant.insert(contentsOf: (0..<count).map { _ in pieces.randomElement(using: &generator)! }, at: at)
                    what = "\(count) characters put in at \(at)"
                case 2:
                    mutant.removeSubrange(at..<min(at + count, mutant.count))
                    what = "\(count) characters taken out at \(at)"
                default:
                    mutant = Array(svg.prefix(at))
                    what = "cut to \(at) of \(svg.count) bytes"
                }
                report.tried += 1
                guard let (width, height) = try? Thumbnailer.dimensions(of: mutant), width == height,
                      let direct = Thumbnailer.drawnSVG(mutant, side: width, as: spec) else { continue }
                report.decoded += 1
                let throughLibvips = try? Thumbnailer.encode(mutant, as: spec)
                if direct != throughLibvips {
                    report.mismatches.append("\(name), round \(round): \(what): drawn directly, \(throughLibvips.map { "\($0.count) bytes" } ?? "refused") by libvips")
                }
            }
        }
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        // Most changes leave an SVG librsvg still draws (an attribute's value, a colour, text).
        #expect(report.decoded >= 5, "\(report.decoded) of \(report.tried) drawn directly")
    }
}
