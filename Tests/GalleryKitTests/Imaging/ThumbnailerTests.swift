import Foundation
import Testing

@testable import GalleryKit

/// Real libvips on images made in the test: sizes, formats, crops, and what bad input gets.
@Suite struct ThumbnailerTests {
    let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)

    @Test(arguments: [ImageKind.png, .jpeg])
    func everyThumbnailOfAWideCoverIsExactlyItsSquare(kind: ImageKind) throws {
        let cover = try Thumbnailer.pattern(width: 1200, height: 600, kind: kind)
        #expect(ImageKind.sniff(cover) == kind)
        for size in [100, 200, 300] {
            let thumbnail = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: size))
            let (width, height) = try Thumbnailer.dimensions(of: thumbnail)
            #expect(width == size && height == size, "\(kind) at \(size): \(width)×\(height)")
        }
    }

    @Test(arguments: [ThumbnailFit.crop, .contain])
    func severalSizesFromOneDecodeMatchTheirOwnThumbnails(fit: ThumbnailFit) throws {
        let cover = try Thumbnailer.pattern(width: 1200, height: 600, kind: .png)
        let specs = [100, 300, 200].map { ThumbnailSpec(size: $0, fit: fit, format: .jpeg, quality: 95) }
        let batch = try thumbnailer.thumbnails(of: cover, as: specs)
        #expect(batch.count == 3)
        for (spec, thumbnail) in zip(specs, batch) {
            let (width, height) = try Thumbnailer.dimensions(of: thumbnail)
            #expect(width == spec.size && height == spec.size, "\(fit) at \(spec.size): \(width)×\(height)")
            // Resized from the largest, each shows what a thumbnail made on its own shows.
            let alone = try thumbnailer.thumbnail(of: cover, as: spec)
            for (x, y) in [(1, spec.size / 2), (spec.size / 2, spec.size / 2), (spec.size - 2, spec.size / 2), (spec.size / 2, 2)] {
                let a = try Thumbnailer.pixel(of: thumbnail, x: x, y: y)
                let b = try Thumbnailer.pixel(of: alone, x: x, y: y)
                #expect(abs(a.red - b.red) <= 12 && abs(a.green - b.green) <= 12 && abs(a.blue - b.blue) <= 12, "\(fit) \(spec.size) at (\(x), \(y)): \(a) vs \(b)")
            }
        }
    }

    /// The largest of several sizes is the very thumbnail made on its own, so the cache can
    /// name it the same way whether or not it was made with others.
    @Test(arguments: [ThumbnailFit.crop, .contain, .attention], [ThumbnailFormat.webp, .jpeg, .png])
    func theLargestOfSeveralSizesIsTheThumbnailMadeAlone(fit: ThumbnailFit, format: ThumbnailFormat) throws {
        for kind in [ImageKind.png, .jpeg] {
            let cover = try Thumbnailer.pattern(width: 1000, height: 700, kind: kind)
            let specs = [140, 300, 280].map { ThumbnailSpec(size: $0, fit: fit, format: format) }
            let batch = try thumbnailer.thumbnails(of: cover, as: specs)
            #expect(batch[1] == (try thumbnailer.thumbnail(of: cover, as: specs[1])), "\(kind) \(fit) \(format)")
        }
    }

    /// Sizes of the same fit, format and quality are made together, whatever else the list asks
    /// for: the 100 px crop of a mixed list is the one resized from its 300, as in a list of crops.
    @Test func specsOfOtherSettingsAreChainedApart() throws {
        let crop = [100, 300].map { ThumbnailSpec(size: $0) }
        let contain = [200, 50].map { ThumbnailSpec(size: $0, fit: .contain) }
        let mixed = [crop[0], contain[0], crop[1], contain[1]]
        #expect(Thumbnailer.chains(of: mixed) == [[0, 2], [1, 3]])
        #expect(Thumbnailer.resizedFrom(in: mixed) == [300, nil, nil, 200])
        #expect(Thumbnailer.resizedFrom(in: [ThumbnailSpec(size: 150), ThumbnailSpec(size: 300), ThumbnailSpec(size: 300)]) == [300, nil, nil])
        #expect(Thumbnailer.resizedFrom(in: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 100, quality: 50)]) == [nil, nil])
        let cover = try Thumbnailer.pattern(width: 1000, height: 700, kind: .png)
        let made = try thumbnailer.thumbnails(of: cover, as: mixed)
        #expect([made[0], made[2]] == (try thumbnailer.thumbnails(of: cover, as: crop)))
        #expect([made[1], made[3]] == (try thumbnailer.thumbnails(of: cover, as: contain)))
    }

    /// An SVG's smaller sizes are drawn from the vector, not resized from its largest: an edge
    /// on a pixel boundary stays sharp, as a browser draws it. (Resized from 300 px, the two
    /// columns beside it came out 15 and 239.) And each is the thumbnail made alone.
    @Test func everySizeOfAnSVGIsDrawnFromTheVector() throws {
        let svg = Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300"><rect width="300" height="300" fill="#fff"/><rect width="150" height="300" fill="#000"/></svg>"##.utf8)
        #expect(Thumbnailer.chains(of: [100, 300, 200].map { ThumbnailSpec(size: $0) }, from: .svg) == [[0], [1], [2]])
        #expect(Thumbnailer.resizedFrom(in: [100, 300].map { ThumbnailSpec(size: $0) }, from: .svg) == [nil, nil])
        let specs = [100, 300, 200].map { ThumbnailSpec(size: $0, format: .png) }
        let made = try thumbnailer.thumbnails(of: svg, as: specs)
        for (spec, thumbnail) in zip(specs, made) {
            let half = spec.size / 2
            let left = try Thumbnailer.pixel(of: thumbnail, x: half - 1, y: half)
            let right = try Thumbnailer.pixel(of: thumbnail, x: half, y: half)
            #expect(left.red <= 1 && right.red >= 254, "\(spec.size) px: \(left.red) | \(right.red)")
            #expect(thumbnail == (try thumbnailer.thumbnail(of: svg, as: spec)), "\(spec.size) px")
        }
    }

    @Test func severalSizesOfABadCoverFailAsOne() throws {
        let torn = Array(try Thumbnailer.pattern(width: 400, height: 400, kind: .png).prefix(300))
        #expect(throws: ThumbnailError.self) {
            try thumbnailer.thumbnails(of: torn, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 200)])
        }
    }

    @Test func aCropKeepsTheCentreOfTheCover() throws {
        // Red grows from 0 at the left edge to 255 at the right one: the centre square of a
        // 1200×600 cover spans x = 300…900, so its edges are about a quarter and three quarters red.
        let cover = try Thumbnailer.pattern(width: 1200, height: 600, kind: .png)
        let tile = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, format: .jpeg, quality: 95))
        let left = try Thumbnailer.pixel(of: tile, x: 0, y: 50).red
        let right = try Thumbnailer.pixel(of: tile, x: 99, y: 50).red
        #expect(abs(left - 64) <= 8, "left edge red \(left)")
        #expect(abs(right - 191) <= 8, "right edge red \(right)")
    }

    @Test func containKeepsTheWholeCoverInsideTheSquare() throws {
        let cover = try Thumbnailer.pattern(width: 1200, height: 600, kind: .png)
        let tile = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, fit: .contain, format: .jpeg, quality: 95))
        let (width, height) = try Thumbnailer.dimensions(of: tile)
        #expect(width == 100 && height == 100)
        #expect(try Thumbnailer.pixel(of: tile, x: 0, y: 50).red <= 8, "the left edge of the cover is in the tile")
        let padding = try Thumbnailer.pixel(of: tile, x: 50, y: 2)
        #expect(min(padding.red, padding.green, padding.blue) >= 250, "the padding of a JPEG is white: \(padding)")
        #expect(padding.alpha == 255)
    }

    @Test(arguments: [ThumbnailFormat.webp, .png])
    func containPadsWithTransparencyWhereTheFormatHasIt(format: ThumbnailFormat) throws {
        // A wide cover leaves bands above and below it: see-through, so the tile's own background
        // shows, while the cover itself stays opaque.
        let cover = try Thumbnailer.pattern(width: 1200, height: 600, kind: .jpeg)
        let tile = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, fit: .contain, format: format, quality: 95))
        #expect(try Thumbnailer.dimensions(of: tile) == (100, 100))
        for (x, y) in [(50, 2), (50, 97), (2, 10)] {
            #expect(try Thumbnailer.pixel(of: tile, x: x, y: y).alpha == 0, "\(format) padding at (\(x), \(y))")
        }
        for (x, y) in [(50, 50), (2, 50), (97, 50)] {
            #expect(try Thumbnailer.pixel(of: tile, x: x, y: y).alpha == 255, "\(format) cover at (\(x), \(y))")
        }
    }

    @Test(arguments: ThumbnailFormat.allCases)
    func writesTheFormatAsked(format: ThumbnailFormat) throws {
        let cover = try Thumbnailer.pattern(width: 400, height: 300, kind: .jpeg)
        let spec = ThumbnailSpec(size: 100, format: format)
        guard format.isSupported else {
            #expect(throws: ThumbnailError.self) { _ = try thumbnailer.thumbnail(of: cover, as: spec) }
            return
        }
        let bytes = try thumbnailer.thumbnail(of: cover, as: spec)
        switch format {
        case .webp: #expect(Array(bytes.prefix(4)) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WEBP".utf8))
        case .jpeg: #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        case .png: #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        case .avif: #expect(Array(bytes[4..<12]) == Array("ftypavif".utf8))
        }
        let (width, height) = try Thumbnailer.dimensions(of: bytes)
        #expect(width == 100 && height == 100)
        #expect(ThumbnailCache.isWhole(bytes, format: format))
        #expect(!ThumbnailCache.isWhole(Array(bytes.dropLast(7)), format: format))
        for other in ThumbnailFormat.allCases where other != format {
            #expect(!ThumbnailCache.isWhole(bytes, format: other), "\(format) taken for \(other)")
        }
    }

    @Test(arguments: ThumbnailFormat.allCases.filter { $0 != .png && $0.isSupported })
    func qualityChangesTheBytes(format: ThumbnailFormat) throws {
        let cover = try Thumbnailer.pattern(width: 800, height: 800, kind: .png)
        let low = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 200, format: format, quality: 20))
        let high = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 200, format: format, quality: 95))
        #expect(low.count < high.count, "\(format): q20 \(low.count) bytes, q95 \(high.count) bytes")
    }

    /// A cover from a phone (Tests/Fixtures/images): a Display P3 profile, EXIF with a GPS
    /// position, the camera and the owner's name, and XMP naming her too.
    static func fixture(_ name: String) throws -> [UInt8] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return Array(try Data(contentsOf: folder.appending(path: "Fixtures/images/\(name)")))
    }

    /// No thumbnail keeps the cover's metadata, in any format: libvips 8.14's WebP saver ignores
    /// "strip", and every WebP tile published the phone's GPS position, make, model and owner.
    /// Nor the colour profile: the pixels are converted to sRGB first (P3's (60, 160, 90) is
    /// sRGB's (0, 163, 82)); shown as sRGB without the conversion they were a dull green.
    @Test(arguments: ThumbnailFormat.allCases.filter(\.isSupported), ["phone-p3-gps.jpg", "p3-half-transparent.png"])
    func thumbnailsAreSRGBAndKeepNoMetadata(format: ThumbnailFormat, cover name: String) throws {
        let cover = try Self.fixture(name)
        // Made alone, and resized from a larger one in a batch.
        let batch = [100, 300].map { ThumbnailSpec(size: $0, format: format, quality: 95) }
        let made = try [(ThumbnailSpec(size: 32, format: format, quality: 95), thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 32, format: format, quality: 95)))]
            + zip(batch, try thumbnailer.thumbnails(of: cover, as: batch))
        for (spec, bytes) in made {
            let text = String(decoding: bytes, as: UTF8.self)
            for secret in ["PhoneMaker", "Jane", "xmpmeta", "Exif", "EXIF", "eXIf", "ICC_PROFILE", "ICCP", "iCCP", "XMP "] {
                #expect(!text.contains(secret), "\(name) as \(format) at \(spec.size) keeps '\(secret)'")
            }
            let pixel = try Thumbnailer.pixel(of: bytes, x: spec.size / 2, y: spec.size / 2)
            // JPEG flattens the half-transparent cover onto white; the others keep its alpha.
            let expected = name.hasSuffix(".png") && format == .jpeg ? (127, 209, 168) : (0, 163, 82)
            #expect(abs(pixel.red - expected.0) <= 6 && abs(pixel.green - expected.1) <= 6 && abs(pixel.blue - expected.2) <= 6, "\(name) as \(format): \(pixel)")
            if name.hasSuffix(".png"), format != .jpeg { #expect(abs(pixel.alpha - 128) <= 2, "\(name) as \(format): \(pixel)") }
        }
    }

    /// Builds of the same input must be byte-identical, so every encoder must be deterministic.
    @Test(arguments: ThumbnailFormat.allCases.filter(\.isSupported))
    func theSameInputGivesTheSameBytes(format: ThumbnailFormat) throws {
        let cover = try Thumbnailer.pattern(width: 640, height: 480, kind: .jpeg)
        let spec = ThumbnailSpec(size: 200, format: format)
        #expect(try thumbnailer.thumbnail(of: cover, as: spec) == thumbnailer.thumbnail(of: cover, as: spec))
    }

    @Test func corruptBytesAreAnErrorNotACrash() throws {
        let whole = try Thumbnailer.pattern(width: 600, height: 600, kind: .png)
        let damaged: [[UInt8]] = [
            Array(whole.prefix(whole.count / 2)),
            Array(whole.prefix(40)) + Array(repeating: 0x5A, count: 200),
            [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 64),
        ]
        for bytes in damaged {
            #expect {
                _ = try thumbnailer.thumbnail(of: bytes, as: ThumbnailSpec(size: 100))
            } throws: { error in
                guard let error = error as? ThumbnailError, case .corrupt = error.reason else { return false }
                return true
            }
        }
        #expect(throws: ThumbnailError(.unsupported)) {
            _ = try thumbnailer.thumbnail(of: Array("just some text, not an image".utf8), as: ThumbnailSpec(size: 100))
        }
    }

    @Test func aHeaderClaimingTooManyPixelsIsRefusedBeforeDecoding() throws {
        let bomb = TestImages.pngClaiming(width: 30_000, height: 30_000)
        let (width, height) = try Thumbnailer.dimensions(of: bomb)
        #expect(width == 30_000 && height == 30_000)
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: ThumbnailError(.tooManyPixels(width: 30_000, height: 30_000, limit: 8192 * 8192))) {
            _ = try thumbnailer.thumbnail(of: bomb, as: ThumbnailSpec(size: 100))
        }
        // Decoding 900 million pixels would take seconds and gigabytes; reading a header does not.
        #expect(clock.now - started < .seconds(1))
        let message = ThumbnailError(.tooManyPixels(width: 30_000, height: 30_000, limit: 67_108_864)).description
        #expect(message.contains("30000×30000") && message.contains("max_pixels"))
    }
}
