import Foundation
import Testing

@testable import GalleryKit

/// A square SVG's WebP thumbnails are drawn by librsvg and encoded by libwebp without libvips's
/// pipeline (`gallery_svg_webp`): byte for byte what libvips makes, for what the shim takes,
/// and left to libvips for the rest.
@Suite struct SVGDrawingTests {
    let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)

    /// SVGs the shim draws: text (fonts, shaping), a gradient into transparency, shapes off the
    /// pixel grid, a side (333) that no thumbnail size divides, a viewBox smaller than the
    /// canvas, sizes in points and inches (which depend on the DPI libvips gives librsvg), and
    /// the starter site's covers.
    static func drawable() throws -> [(name: String, svg: [UInt8])] {
        let made: [(String, String)] = [
            ("text", ##"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 300 300"><rect width="300" height="300" fill="#1f3a6b"/><circle cx="150" cy="150" r="68" fill="#e8a33a" fill-opacity="0.8"/><text x="150" y="280" text-anchor="middle" font-family="sans-serif" font-size="24" fill="#e8a33a">No. 1 — Hé ✓</text></svg>"##),
            ("transparency", ##"<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 100 100"><defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f" stop-opacity="0.3"/></linearGradient></defs><circle cx="50" cy="50" r="45" fill="url(#g)"/></svg>"##),
            ("odd side", ##"<svg xmlns="http://www.w3.org/2000/svg" width="333" height="333"><rect width="333" height="333" fill="#fafafa"/><circle cx="166.5" cy="166.5" r="100" fill="none" stroke="#c00" stroke-width="7"/><rect x="3.3" y="7.1" width="50.2" height="40.9" fill="#2a7" transform="rotate(13 32 32)"/></svg>"##),
            ("points", ##"<svg xmlns="http://www.w3.org/2000/svg" width="216pt" height="216pt"><rect width="100%" height="100%" fill="#123"/><text x="10" y="100" font-size="20pt" fill="#fff">pt</text><line x1="0" y1="0" x2="100%" y2="100%" stroke="#ee8" stroke-width="2mm"/></svg>"##),
            ("inches", ##"<svg xmlns="http://www.w3.org/2000/svg" width="1in" height="1in" viewBox="0 0 10 10"><rect width="10" height="10" fill="#fff"/><circle cx="5" cy="5" r="4" fill="#639"/></svg>"##),
        ]
        var drawable = made.map { ($0.0, Array($0.1.utf8)) }
        for name in ["american-pie", "best-of-bowie", "its-my-life", "nothing-like-the-sun", "staring-at-the-sun"] {
            drawable.append((name, try TestImages.starterSVG(name)))
        }
        return drawable
    }

    @Test func aSquareSVGsWebPIsLibvipssOwnBytes() throws {
        var drawn = 0
        for (name, svg) in try Self.drawable() {
            let (width, height) = try Thumbnailer.dimensions(of: svg)
            #expect(width == height, "\(name): \(width)×\(height)")
            for fit in ThumbnailFit.allCases {
                for (size, quality) in [(100, 80), (200, 80), (300, 80), (137, 55), (48, 100)] {
                    let spec = ThumbnailSpec(size: size, fit: fit, format: .webp, quality: quality)
                    // Compared as a Bool: a failing `#expect` on the arrays prints every byte.
                    guard let direct = Thumbnailer.drawnSVG(svg, side: width, as: spec) else {
                        Issue.record("\(name) \(fit) \(size): not drawn directly")
                        continue
                    }
                    let throughLibvips = try Thumbnailer.encode(svg, as: spec)
                    let same = direct == throughLibvips
                    #expect(same, "\(name) \(fit) \(size) q\(quality): \(direct.count) bytes, libvips \(throughLibvips.count)")
                    drawn += 1
                }
            }
        }
        #expect(drawn == 10 * ThumbnailFit.allCases.count * 5)
    }

    /// What the thumbnailer hands out for an SVG goes the direct way: the same bytes through
    /// `thumbnail(of:as:)`, `thumbnails(of:as:)` and the cache, on four threads at once.
    @Test func thumbnailsOfASquareSVGAreTheSameOnManyThreads() throws {
        let svg = try TestImages.starterSVG("staring-at-the-sun")
        let specs = [100, 200, 300].map { ThumbnailSpec(size: $0) }
        let expected = try specs.map { try Thumbnailer.encode(svg, as: $0) }
        let shared = thumbnailer
        let together = try shared.thumbnails(of: svg, as: specs) == expected
        let alone = try specs.map { try shared.thumbnail(of: svg, as: $0) } == expected
        #expect(together && alone)
        #expect(shared.mismatches(of: svg, as: specs, expected: expected, rounds: 10) == 0)
    }

    /// Anything the shim cannot be sure of drawing as libvips would is left to libvips, which
    /// still makes it: another format, a side other than the header's, a size that is not
    /// whole, no size at all (a viewBox alone), a cover that is not square, bytes that are no SVG.
    @Test func otherCoversAreLeftToLibvips() throws {
        let square = Array(##"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="#abc"/></svg>"##.utf8)
        func drawn(_ svg: [UInt8], side: Int, _ spec: ThumbnailSpec) -> Bool { Thumbnailer.drawnSVG(svg, side: side, as: spec) != nil }
        #expect(drawn(square, side: 300, ThumbnailSpec(size: 100)))
        #expect(!drawn(square, side: 300, ThumbnailSpec(size: 100, format: .jpeg)))
        #expect(!drawn(square, side: 300, ThumbnailSpec(size: 100, format: .png)))
        #expect(!drawn(square, side: 299, ThumbnailSpec(size: 100)))
        let others: [(String, String)] = [
            ("centimetres", ##"<svg xmlns="http://www.w3.org/2000/svg" width="10cm" height="10cm"><rect width="100%" height="100%" fill="#123"/></svg>"##),
            ("a viewBox alone", ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="3" y="7" width="50" height="40" fill="#2a7"/></svg>"##),
            ("wide", ##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#c00"/><rect width="200" height="300" fill="#00c"/></svg>"##),
        ]
        for (name, text) in others {
            let svg = Array(text.utf8)
            let (width, height) = try Thumbnailer.dimensions(of: svg)
            #expect(!drawn(svg, side: width, ThumbnailSpec(size: 100)), "\(name): \(width)×\(height)")
            let made = try thumbnailer.thumbnail(of: svg, as: ThumbnailSpec(size: 100))
            let same = made == (try Thumbnailer.encode(svg, as: ThumbnailSpec(size: 100)))
            #expect(same, "\(name)")
            let (madeWidth, madeHeight) = try Thumbnailer.dimensions(of: made)
            #expect(madeWidth == 100 && madeHeight == 100, "\(name)")
        }
        #expect(!drawn(Array("<svg oops".utf8), side: 300, ThumbnailSpec(size: 100)))
        let png = try Thumbnailer.pattern(width: 64, height: 64, kind: .png)
        #expect(!drawn(png, side: 64, ThumbnailSpec(size: 32)))
    }
}
