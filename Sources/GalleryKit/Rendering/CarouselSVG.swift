/// The whole strip as a standalone SVG (`carousel.svg`): an `<image>` per album at exactly the
/// coordinates the HTML strip uses, each a link to its album page.
public enum CarouselSVG {
    /// Part of the file's key: raised when the writer changes what it writes, so an incremental
    /// build writes the file again (11: the language, and the count as a description).
    static let keyTag: UInt64 = 11

    /// Renders the strip; image and link paths are relative to the output folder, where the SVG lives.
    ///
    /// Its language is the site's (`lang` and `xml:lang`, as its pages have); its name is the
    /// `<title>` (the site's title), its description the `<desc>` (how many albums).
    public static func render(plan: SitePlan, images: [TileImage], title: String, text: SiteText = SiteText(), language: String = "en") -> [UInt8] {
        segmented(plan: plan, images: images, title: title, text: text, language: language).render().bytes
    }

    /// The strip as a head (through the tiles' `<g>`), a line per album and a tail, so a build
    /// after an edit remakes only the lines of the albums that changed (``SegmentedFile``).
    static func segmented(plan: SitePlan, images: [TileImage], title: String, text: SiteText, language: String) -> SegmentedFile {
        let layout = plan.layout
        let albumBy = TextPattern(text["album_by"])
        let initialIndex = plan.initialIndex
        let entries = plan.catalogue.entries
        return SegmentedFile(count: entries.count, capacity: 512 + layout.count * 260, head: {
            let width = layout.contentWidth
            let height = layout.stripHeight
            var svg = ByteWriter(capacity: 512)
            svg.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"")
            svg.write(width)
            svg.write("\" height=\"")
            svg.write(height)
            svg.write("\" viewBox=\"0 0 ")
            svg.write(width)
            svg.write(" ")
            svg.write(height)
            svg.write("\" lang=\"")
            svg.writeXML(language)
            svg.write("\" xml:lang=\"")
            svg.writeXML(language)
            svg.write("\">\n<title>")
            svg.writeXML(title)
            svg.write("</title>\n<desc>")
            svg.writeXML(text.albumCount(layout.count))
            svg.write("</desc>\n<defs><style>.current{fill:none;stroke:#0b57d0;stroke-width:3}</style></defs>\n<g class=\"strip\">\n")
            return svg.bytes
        }, segment: { index, svg in
            let entry = entries[index]
            let frame = layout.frame(at: entry.index)
            svg.write("<a href=\"")
            svg.writeXML(SitePlan.albumFolder(slug: entry.slug))
            svg.write("\"><title>")
            svg.writeXML(albumBy.fillAlbum(title: entry.album.title, artist: entry.album.artist, genre: entry.album.genre, year: entry.album.year))
            svg.write("</title><image href=\"")
            svg.writeXML(images[entry.index].src)
            svg.write("\" x=\"")
            writeFrame(frame, to: &svg)
            svg.write(" preserveAspectRatio=\"xMidYMid slice\"/>")
            if entry.index == initialIndex {
                svg.write("<rect class=\"current\" x=\"")
                writeFrame(frame, to: &svg)
                svg.write("/>")
            }
            svg.write("</a>\n")
        }, tail: Array("</g>\n</svg>\n".utf8))
    }

    /// Writes `X" y="Y" width="W" height="H"`, after an opening `x="`.
    private static func writeFrame(_ frame: TileFrame, to svg: inout ByteWriter) {
        svg.write(frame.x)
        svg.write("\" y=\"")
        svg.write(frame.y)
        svg.write("\" width=\"")
        svg.write(frame.width)
        svg.write("\" height=\"")
        svg.write(frame.height)
        svg.write("\"")
    }
}
