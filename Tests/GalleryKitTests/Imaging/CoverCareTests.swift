import Foundation
import Testing
import CVipsShim

@testable import GalleryKit

/// Covers as they come from the world, found wanting by QA rounds 21 and 22: transparent logos,
/// thin strips, damaged and merely odd JPEGs, CMYK print files, resolutions, refusals.
@Suite struct CoverCareTests {
    let thumbnailer = Thumbnailer(maxPixels: 8192 * 8192)

    /// A transparent, non-square cover made into a JPEG with `contain` (QA round 21): the
    /// padding's white was given to an image that still had its alpha, and libvips refused it
    /// ("linear: vector must have 1 or 4 elements"), so every such logo got the placeholder.
    @Test func aTransparentCoverIsContainedInAJPEGOnWhite() throws {
        for (width, height) in [(400, 200), (200, 400)] {
            let cover = TestImages.transparentPNG(width: width, height: height)
            let tile = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, fit: .contain, format: .jpeg, quality: 95))
            #expect(try Thumbnailer.dimensions(of: tile) == (100, 100))
            let corner = try Thumbnailer.pixel(of: tile, x: 1, y: 1)
            #expect(corner.red >= 245 && corner.green >= 245 && corner.blue >= 245, "padding or the transparent half, on white: \(corner)")
            let opaque = width > height ? try Thumbnailer.pixel(of: tile, x: 90, y: 50) : try Thumbnailer.pixel(of: tile, x: 50, y: 90)
            #expect(opaque.red >= 230 && opaque.green <= 30, "the opaque half stays red: \(opaque)")
            #expect(try thumbnailer.thumbnails(of: cover, as: [ThumbnailSpec(size: 50, fit: .contain, format: .jpeg), ThumbnailSpec(size: 100, fit: .contain, format: .jpeg)]).count == 2)
        }
    }

    /// A long, thin cover of a few bytes that a fit filling the square would scale to gigabytes
    /// first (QA round 21: 1×16,000 pixels took 4 GB) is refused before it is decoded, with a
    /// message that says why and what to do; `contain`, which scales it down, takes it.
    @Test func aCoverTooThinToCropIsRefused() throws {
        let strip = try Thumbnailer.pattern(width: 1, height: 4000, kind: .png)
        for fit in [ThumbnailFit.crop, .attention] {
            #expect(throws: ThumbnailError(.tooThin(width: 1, height: 4000, size: 300, scaledWidth: 300, scaledHeight: 1_200_000, limit: 8192 * 8192))) {
                _ = try thumbnailer.thumbnails(of: strip, as: [ThumbnailSpec(size: 100, fit: fit), ThumbnailSpec(size: 300, fit: fit)])
            }
        }
        // Refused when the scaled image passes the limit, whatever the side.
        let wide = try Thumbnailer.pattern(width: 8000, height: 1, kind: .png)
        #expect(throws: ThumbnailError(.tooThin(width: 8000, height: 1, size: 100, scaledWidth: 800_000, scaledHeight: 100, limit: 8192 * 8192))) {
            _ = try thumbnailer.thumbnail(of: wide, as: ThumbnailSpec(size: 100))
        }
        #expect(try Thumbnailer.dimensions(of: thumbnailer.thumbnail(of: strip, as: ThumbnailSpec(size: 100, fit: .contain))) == (100, 100))
        // A panorama is no strip.
        let panorama = try Thumbnailer.pattern(width: 1200, height: 300, kind: .jpeg)
        #expect(try Thumbnailer.dimensions(of: thumbnailer.thumbnail(of: panorama, as: ThumbnailSpec(size: 300))) == (300, 300))
        let message = ThumbnailError(.tooThin(width: 1, height: 4000, size: 300, scaledWidth: 300, scaledHeight: 1_200_000, limit: 67_108_864)).description
        #expect(message.contains("1×4000") && message.contains("300×1200000") && message.contains("fit = \"contain\""), "\(message)")
    }

    /// Bytes between a JPEG's segments (some encoders pad them) only make libjpeg warn of
    /// "extraneous bytes before marker": the image is whole and every browser shows it, so it is
    /// not refused with the damaged ones.
    @Test func aJPEGWithExtraBytesBetweenSegmentsIsFine() throws {
        let whole = try Thumbnailer.pattern(width: 600, height: 400, kind: .jpeg)
        let scan = try #require(whole.firstRange(of: [0xFF, 0xDA]))
        let padded = Array(whole[..<scan.lowerBound]) + [0x00, 0x00, 0x07] + Array(whole[scan.lowerBound...])
        let alone = try thumbnailer.thumbnail(of: whole, as: ThumbnailSpec(size: 100))
        #expect(try thumbnailer.thumbnail(of: padded, as: ThumbnailSpec(size: 100)) == alone)
        // A JFIF header of an unknown revision (2.01): libjpeg warns, the image is whole.
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\u{0}".utf8) + [2, 1, 0, 0, 1, 0, 1, 0, 0]
        let revision = Array(whole.prefix(2)) + app0 + Array(whole.dropFirst(2))
        #expect(try thumbnailer.thumbnail(of: revision, as: ThumbnailSpec(size: 100)) == alone)
        let chain = try thumbnailer.thumbnails(of: padded, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 300)])
        #expect(try chain == thumbnailer.thumbnails(of: whole, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 300)]))
        #expect(Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Corrupt JPEG data: 3 extraneous bytes before marker 0xda"))
        #expect(Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Warning: unknown JFIF revision number 2.01"))
        #expect(!Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Corrupt JPEG data: bad Huffman code"))
        #expect(!Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Corrupt JPEG data: found marker 0xd9 instead of RST3"))
        #expect(!Thumbnailer.onlyHarmlessJPEGWarnings("pngload_buffer: libpng read error"))
        #expect(!Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Corrupt JPEG data: 3 extraneous bytes before marker 0xd9; VipsJpeg: Corrupt JPEG data: premature end of data segment"))
        #expect(!Thumbnailer.onlyHarmlessJPEGWarnings("VipsJpeg: Premature end of input file"))
    }

    /// Damage whose first warning comes in the last 8 rows libjpeg decodes (a QA pass: flipped
    /// bytes in the middle of 1200 px covers, which libjpeg-turbo reads past silently until near
    /// the end): libvips 8.14's loader looks for warnings before each strip of 8 rows, so it
    /// never saw this one, and thumbnails came out with their lower half garbled, no warning
    /// given. Here a marker is written into the scan's last kilobyte of a 1200 px cover, which
    /// the thumbnails read shrunk by 2 while loading (600 rows). Bytes put before the end marker,
    /// a harmless warning as late, still leave the cover whole.
    @Test func damageInTheLastRowsFailsTheCover() throws {
        let whole = try JPEGReducingTests.jpeg(side: 1200)
        let specs = [ThumbnailSpec(size: 300), ThumbnailSpec(size: 200), ThumbnailSpec(size: 100)]
        for back in stride(from: 3, through: 1003, by: 125) {
            var damaged = whole
            damaged.replaceSubrange(whole.count - back..<whole.count - back + 2, with: [0xFF, 0xC8])
            var found = [CChar](repeating: 0, count: 256)
            let scan = damaged.withUnsafeBytes { gallery_jpeg_scan($0.baseAddress, $0.count, &found, found.count) }
            #expect(scan == 0, "a marker \(back) bytes from the end: libjpeg reading the whole file finds no loss")
            #expect(throws: ThumbnailError.self, "a marker \(back) bytes from the end: thumbnails made") {
                _ = try thumbnailer.thumbnails(of: damaged, as: specs)
            }
            #expect(throws: ThumbnailError.self, "a marker \(back) bytes from the end: a thumbnail made") {
                _ = try thumbnailer.thumbnail(of: damaged, as: specs[0])
            }
        }
        let padded = Array(whole.dropLast(2)) + [0, 0, 7, 0xFF, 0xD9]
        #expect(try thumbnailer.thumbnails(of: padded, as: specs) == thumbnailer.thumbnails(of: whole, as: specs))
    }

    /// A JPEG whose scan data is damaged but that libjpeg only warns about decodes to a partly
    /// flat grey image (QA round 21): it fails instead, as a cut-off JPEG does, so the album gets
    /// the placeholder and a warning rather than a grey thumbnail that the cache would keep.
    /// A harmless quirk before real damage (QA round 23): libvips passes on only the first of a
    /// JPEG's warnings, so bytes between segments or an unknown JFIF revision hid a cut-off or a
    /// flipped scan after them, and the cover came out half grey with no warning.
    @Test func aHarmlessQuirkDoesNotHideDamageAfterIt() throws {
        let whole = try Thumbnailer.pattern(width: 600, height: 600, kind: .jpeg)
        let scan = try #require(whole.firstRange(of: [0xFF, 0xDA]))
        let padded = Array(whole[..<scan.lowerBound]) + [0x00, 0x00, 0x07] + Array(whole[scan.lowerBound...])
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\u{0}".utf8) + [2, 1, 0, 0, 1, 0, 1, 0, 0]
        let revised = Array(whole.prefix(2)) + app0 + Array(whole.dropFirst(2))
        for (quirk, base) in [("bytes between segments", padded), ("JFIF 2.01", revised)] {
            var flipped = base
            for offset in stride(from: base.count / 2, to: base.count / 2 + 50, by: 10) { flipped[offset] ^= 0xFF }
            let cut = Array(base.prefix(base.count / 2)) + [0xFF, 0xD9]
            for (damage, bytes) in [("bytes flipped", flipped), ("cut short", cut)] {
                do {
                    _ = try thumbnailer.thumbnails(of: bytes, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 300)])
                    Issue.record("\(quirk), then \(damage): thumbnails made")
                } catch {
                    #expect(error.description.contains("libjpeg:"), "\(quirk), then \(damage): \(error)")
                }
                #expect(throws: (any Error).self, "\(quirk), then \(damage)") {
                    _ = try thumbnailer.thumbnail(of: bytes, as: ThumbnailSpec(size: 100))
                }
            }
        }
    }

    @Test func aJPEGWithDamagedScanDataFails() throws {
        let whole = try Thumbnailer.pattern(width: 600, height: 600, kind: .jpeg)
        #expect(try thumbnailer.thumbnail(of: whole, as: ThumbnailSpec(size: 100)).isEmpty == false)
        let cutAndClosed = Array(whole.prefix(whole.count / 2)) + [0xFF, 0xD9]
        var flipped = whole
        for offset in stride(from: whole.count / 2, to: whole.count / 2 + 50, by: 10) { flipped[offset] ^= 0xFF }
        for (name, bytes) in [("cut short, then an end marker", cutAndClosed), ("bytes flipped", flipped)] {
            #expect(throws: (any Error).self, "\(name)") {
                _ = try thumbnailer.thumbnail(of: bytes, as: ThumbnailSpec(size: 100))
            }
            do {
                _ = try thumbnailer.thumbnails(of: bytes, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 300)])
                Issue.record("\(name): thumbnails made")
            } catch {
                guard case .corrupt(let why) = error.reason else { Issue.record("\(name): \(error)"); continue }
                #expect(why.contains("Corrupt JPEG data") || why.lowercased().contains("jpeg"), "\(name): \(why)")
            }
        }
    }

    /// A CMYK print file is converted to sRGB with its own profile (QA round 21): libvips's
    /// thumbnail used its built-in CMYK profile whatever the cover carried, and colours came out
    /// 10 to 15 levels off. Colours well inside the gamut, put into CMYK with a profile that
    /// is not libvips's own (Ghostscript's SWOP, from Debian's libgs-common) or with libvips's
    /// own, come back near themselves at every size, through the JPEG path that shrinks while
    /// it loads.
    @Test(arguments: ["/usr/share/color/icc/ghostscript/default_cmyk.icc", "cmyk"])
    func aCMYKCoverIsConvertedWithItsOwnProfile(profile: String) throws {
        #expect(profile == "cmyk" || FileManager.default.fileExists(atPath: profile), "install libgs-common (script/setup --test does)")
        for (red, green, blue) in [(150, 120, 100), (110, 130, 150), (120, 140, 110)] {
            let cover = try Thumbnailer.cmykPattern(profile: profile, width: 1200, height: 900, red: red, green: green, blue: blue)
            let thumbnails = try thumbnailer.thumbnails(of: cover, as: [ThumbnailSpec(size: 100), ThumbnailSpec(size: 300, format: .png)])
            for thumbnail in thumbnails {
                let pixel = try Thumbnailer.pixel(of: thumbnail, x: 50, y: 50)
                let off = max(abs(pixel.red - red), abs(pixel.green - green), abs(pixel.blue - blue))
                #expect(off <= 5, "\(profile): (\(red), \(green), \(blue)) came back as \(pixel)")
            }
        }
    }

    /// A thumbnail says 72 dpi whatever its cover's resolution (QA round 21: PNG thumbnails
    /// carried the cover's in their pHYs chunk, so equal pixels made unequal bytes).
    @Test func everyThumbnailSays72DPI() throws {
        for kind in [ImageKind.jpeg, .png] {
            let cover = try Thumbnailer.pattern(width: 400, height: 400, kind: kind)
            let png = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, format: .png))
            let chunk = try #require(png.firstRange(of: Array("pHYs".utf8)), "a pHYs chunk")
            let perMetre = png[chunk.upperBound..<chunk.upperBound + 4].reduce(0) { $0 << 8 | Int($1) }
            #expect(perMetre == 2835, "\(kind) cover: \(perMetre) pixels a metre")
            // A JPEG thumbnail has no JFIF header, so no resolution at all.
            let jpeg = try thumbnailer.thumbnail(of: cover, as: ThumbnailSpec(size: 100, format: .jpeg))
            #expect(jpeg.firstRange(of: Array("JFIF".utf8)) == nil, "\(kind) cover")
        }
    }

    /// A PNG whose header is cut short says so, not "libvips gave no details"; an SVG refused
    /// for reaching outside itself or expanding without end says that, not "damaged" (QA round 21).
    @Test func refusedCoversSayWhy() throws {
        let png = try Thumbnailer.pattern(width: 64, height: 64, kind: .png)
        do {
            _ = try thumbnailer.thumbnail(of: Array(png.prefix(20)), as: ThumbnailSpec(size: 50))
            Issue.record("a PNG cut inside its header made a thumbnail")
        } catch {
            #expect(!error.description.contains("no details"), "\(error)")
        }
        let external = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/hostname">]><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><text y="20">&xxe;</text></svg>"#
        var laughs = #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a0 "lol">"#
        for level in 1...9 { laughs += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        laughs += #"]><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><text y="20">&a9;</text></svg>"#
        for (name, svg) in [("an external entity", external), ("a billion laughs", laughs)] {
            do {
                _ = try thumbnailer.thumbnail(of: Array(svg.utf8), as: ThumbnailSpec(size: 50))
                Issue.record("\(name): a thumbnail was made")
            } catch {
                #expect(error.description.hasPrefix("the SVG ") && error.description.contains("refused"), "\(name): \(error)")
            }
        }
        #expect(ThumbnailError.refusedSVG("svgload_buffer: SVG rendering failed; glib: exceeded more than 500000 referenced elements")?.contains("expands") == true)
        #expect(ThumbnailError.refusedSVG("VipsJpeg: Premature end of input file") == nil)
        #expect(ThumbnailError.refusedSVG("glib: XML parse error: Error domain 1 code 26 on line 1 column 80 of data: PEReference: %p; not found")?.contains("entity defined outside it") == true)
    }

    /// The profile a CMYK cover carries decides its colours, whichever tables it has: the same
    /// CMYK numbers under SWOP, under Ghostscript's PS CMYK (whose only table is the perceptual
    /// one, so asking for another made libvips use its own, QA round 22) and under no profile
    /// (libvips's own) come out as three different colours.
    @Test func aCMYKCoversProfileDecidesItsColours() throws {
        let folder = "/usr/share/color/icc/ghostscript/"
        let psCMYK = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "ps_cmyk.icc")))
        let swop = try Thumbnailer.cmykPattern(profile: folder + "default_cmyk.icc", width: 600, height: 600, red: 0, green: 150, blue: 210)
        let covers = [swop, Self.replacingICCProfile(of: swop, with: psCMYK), Self.replacingICCProfile(of: swop, with: nil)]
        let colours = try covers.map { try Thumbnailer.pixel(of: thumbnailer.thumbnail(of: $0, as: ThumbnailSpec(size: 100)), x: 50, y: 50) }
        func apart(_ a: Int, _ b: Int) -> Int {
            max(abs(colours[a].red - colours[b].red), abs(colours[a].green - colours[b].green), abs(colours[a].blue - colours[b].blue))
        }
        #expect(apart(0, 1) >= 15 && apart(1, 2) >= 15 && apart(0, 2) >= 5, "SWOP, PS CMYK, none: \(colours)")
    }

    /// A profile for other pixels than the cover's is ignored, as browsers ignore it (a QA pass):
    /// libvips 8.14 converted an RGB cover through a grey profile as grey and alpha, and the
    /// thumbnails came out grey and partly transparent. The cover's thumbnails are those it has
    /// without a profile, square (read by gallery's direct path) or not, RGB or grey; a profile
    /// that fits still changes them.
    @Test func aProfileForOtherPixelsIsIgnored() throws {
        let folder = "/usr/share/color/icc/ghostscript/"
        let grey = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "sgray.icc")))
        let adobe = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "a98.icc")))
        let specs = [ThumbnailSpec(size: 300), ThumbnailSpec(size: 200), ThumbnailSpec(size: 100)]
        let covers = [
            ("RGB, square", try JPEGReducingTests.jpeg(side: 1200), grey, adobe),
            ("RGB, 600×400", try Thumbnailer.pattern(width: 600, height: 400, kind: .jpeg), grey, adobe),
            ("grey", try JPEGReducingTests.jpeg(side: 600, grey: true), adobe, grey),
        ]
        for (name, plain, other, fitting) in covers {
            let bare = try thumbnailer.thumbnails(of: plain, as: specs)
            let mismatched = try thumbnailer.thumbnails(of: Self.replacingICCProfile(of: plain, with: other), as: specs)
            let ignored = mismatched == bare
            #expect(ignored, "\(name): a profile for other pixels changed the thumbnails")
            let tile = try #require(mismatched.first)
            #expect(try Thumbnailer.pixel(of: tile, x: 150, y: 150).alpha == 255, "\(name): not opaque")
            let fitted = try thumbnailer.thumbnails(of: Self.replacingICCProfile(of: plain, with: fitting), as: specs)
            let converted = fitted != bare
            #expect(converted, "\(name): a profile that fits made no difference")
        }
    }

    /// A JPEG with its ICC profile segments replaced by one holding `profile` (none: removed).
    static func replacingICCProfile(of jpeg: [UInt8], with profile: [UInt8]?) -> [UInt8] {
        let signature = Array("ICC_PROFILE\u{0}".utf8)
        var kept: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            let segment = jpeg[offset..<offset + 2 + length]
            let isICC = jpeg[offset + 1] == 0xE2 && segment.dropFirst(4).starts(with: signature)
            if !isICC { kept += segment }
            offset += 2 + length
        }
        var inserted: [UInt8] = []
        if let profile {
            let length = 2 + signature.count + 2 + profile.count
            inserted = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + signature + [1, 1] + profile
        }
        return [0xFF, 0xD8] + inserted + kept.dropFirst(2) + jpeg[offset...]
    }
}
