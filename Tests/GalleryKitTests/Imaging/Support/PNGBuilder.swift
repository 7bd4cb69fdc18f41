/// PNGs put together chunk by chunk for the PNG decoding tests: any colour type and bit depth,
/// rows with the filters asked for, chunks before and after the image data, the data cut into
/// several IDAT chunks, and damage on request. The stream is stored, not compressed (see
/// ``TestImages/zlibStored(_:)``); libvips's own PNGs supply compressed ones.
struct PNGBuilder {
    var width: Int
    var height: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
    var colourType: UInt8 = 2
    var bitDepth: UInt8 = 8
    var interlace: UInt8 = 0
    /// The rows' filters, in turn (0 none, 1 sub, 2 up, 3 average, 4 Paeth; 5 and above are
    /// not filters, and written with the row unfiltered).
    var filters: [UInt8] = [0, 1, 2, 3, 4]
    var seed: UInt32 = 1
    /// Chunks between IHDR and the image data, and between it and IEND: (type, data).
    var before: [(String, [UInt8])] = []
    var after: [(String, [UInt8])] = []
    /// How many IDAT chunks the stream is cut into (some of them empty when it is short).
    var pieces = 1

    var samples: Int {
        switch colourType {
        case 2: 3
        case 4: 2
        case 6: 4
        default: 1
        }
    }

    /// Bytes per pixel, as the filters count them (at least 1).
    var pixelBytes: Int { max(1, samples * Int(bitDepth) / 8) }

    /// The pixels, a row at a time: noise in the left half; in the right, flat bands (where
    /// Paeth's three neighbours tie) between gradients.
    var rows: [[UInt8]] {
        var state = seed &* 2_654_435_761 | 1
        let rowBytes = (width * samples * Int(bitDepth) + 7) / 8
        return (0..<height).map { y in
            (0..<rowBytes).map { i in
                state = state &* 1_664_525 &+ 1_013_904_223
                let x = i / pixelBytes
                if x < width / 2 { return UInt8(truncatingIfNeeded: state >> 24) }
                if y % 4 < 2 { return UInt8(truncatingIfNeeded: seed &* 37) }
                return UInt8(truncatingIfNeeded: x &* 3 &+ y &* 5 &+ (i % pixelBytes) &* 40)
            }
        }
    }

    /// The filtered rows, each after its filter byte: the zlib stream's contents.
    var filtered: [UInt8] {
        var out: [UInt8] = []
        var above: [UInt8]?
        for (y, row) in rows.enumerated() {
            let filter = filters[y % filters.count]
            out.append(filter)
            for i in row.indices {
                let left = i >= pixelBytes ? Int(row[i - pixelBytes]) : 0
                let up = above.map { Int($0[i]) } ?? 0
                let upperLeft = i >= pixelBytes ? above.map { Int($0[i - pixelBytes]) } ?? 0 : 0
                let predicted: Int
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = (left + up) / 2
                case 4: predicted = Self.paeth(left, up, upperLeft)
                default: predicted = 0
                }
                out.append(UInt8(truncatingIfNeeded: Int(row[i]) - predicted))
            }
            above = row
        }
        return out
    }

    static func paeth(_ left: Int, _ up: Int, _ upperLeft: Int) -> Int {
        let estimate = left + up - upperLeft
        let (toLeft, toUp, toUpperLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft))
        if toLeft <= toUp && toLeft <= toUpperLeft { return left }
        return toUp <= toUpperLeft ? up : upperLeft
    }

    /// The zlib stream of ``filtered``.
    var stream: [UInt8] { TestImages.zlibStored(filtered) }

    /// The PNG, with `stream` (the image data's stream, ``stream`` unless given) cut into
    /// ``pieces`` IDAT chunks.
    func bytes(stream given: [UInt8]? = nil) -> [UInt8] {
        let stream = given ?? stream
        var header = TestImages.bigEndian(UInt32(width)) + TestImages.bigEndian(UInt32(height))
        header += [bitDepth, colourType, 0, 0, interlace]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + TestImages.chunk("IHDR", header)
        for (type, data) in before { png += TestImages.chunk(type, data) }
        let piece = (stream.count + pieces - 1) / pieces
        for start in stride(from: 0, to: pieces * max(piece, 1), by: max(piece, 1)) {
            png += TestImages.chunk("IDAT", Array(stream[min(start, stream.count)..<min(start + piece, stream.count)]))
        }
        for (type, data) in after { png += TestImages.chunk(type, data) }
        return png + TestImages.chunk("IEND", [])
    }
}
