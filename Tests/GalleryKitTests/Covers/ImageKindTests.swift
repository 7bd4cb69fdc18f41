import Foundation
import Testing

@testable import GalleryKit

/// What a cover's first bytes say it is.
@Suite struct ImageKindTests {
    /// Old Illustrator exports declare their namespaces as entities in the doctype's internal
    /// subset, whose declarations end in `>`: they were refused as "not … SVG".
    @Test func anSVGWithADoctypeSubsetIsAnSVG() throws {
        let illustrator = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- Generator: Adobe Illustrator 12.0.0, SVG Export Plug-In  -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
            \t<!ENTITY ns_svg "http://www.w3.org/2000/svg">
            \t<!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
            ]>
            <svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="400" height="400"><rect width="400" height="400" fill="#36c"/></svg>
            """
        #expect(ImageKind.sniff(Array(illustrator.utf8)) == .svg)
        // And libvips (librsvg) draws it, its namespace entities expanded.
        let tile = try Thumbnailer(maxPixels: 1 << 24).thumbnail(of: Array(illustrator.utf8), as: ThumbnailSpec(size: 50, format: .png))
        let pixel = try Thumbnailer.pixel(of: tile, x: 25, y: 25)
        #expect(pixel.red == 0x33 && pixel.green == 0x66 && pixel.blue == 0xCC, "\(pixel)")
        #expect(ImageKind.sniff(Array("<!DOCTYPE svg [ <!ENTITY a \"b\"> ] >\n<svg/>".utf8)) == .svg)
        #expect(ImageKind.sniff(Array("<!DOCTYPE html [ <!ENTITY a \"b\"> ]>\n<html/>".utf8)) == nil)
        #expect(ImageKind.sniff(Array("<!DOCTYPE svg [ <!ENTITY a \"b\">".utf8)) == nil, "an unclosed subset")
        #expect(ImageKind.sniff(Array("<!DOCTYPE svg [ <!ENTITY a \"b\"> ] x <svg/>".utf8)) == nil, "text after the subset")
    }

    @Test func filesThatAreNoCoverAreNamed() {
        func what(_ bytes: [UInt8]) -> String? { NotACover.identify(bytes)?.what }
        #expect(what([]) == "empty (0 bytes)")
        #expect(what(Array("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize 12345\n".utf8)) == "a Git LFS pointer, not the image")
        #expect(what([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0]) == "a HEIC image (an iPhone's usual format), which gallery does not read as a cover")
        #expect(what([0, 0, 0, 0x20] + Array("ftypavif".utf8) + [0, 0, 0, 0]) == "an AVIF image, which gallery does not read as a cover")
        #expect(what([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]) == "a TIFF image (a scanner's usual format), which gallery does not read as a cover")
        #expect(what(Array("BM".utf8) + Array(repeating: 0, count: 12) + [40, 0, 0, 0]) == "a BMP image, which gallery does not read as a cover")
        #expect(what(Array("%PDF-1.7\n".utf8)) == "a PDF document")
        #expect(what([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03]) == "gzip-compressed data, not an image as it is")
        #expect(what(Array("\n  <!DOCTYPE HTML>\n<html>".utf8)) == "a web page, not an image")
        #expect(what(Array("just some notes\n".utf8)) == nil)
        #expect(what(Array("BMW".utf8)) == nil, "BM alone is no bitmap")
    }
}
