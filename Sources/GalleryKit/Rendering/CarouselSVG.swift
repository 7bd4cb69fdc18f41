/// The whole strip as a standalone SVG (`carousel.svg`): an `<image>` per album at exactly the
/// coordinates the HTML strip uses, each a link to its album page.
public enum CarouselSVG {
    /// Renders the strip; image and link paths are relative to the output folder, where the SVG lives.
    public static func render(plan: SitePlan, images: [TileImage], title: String) -> String {
        let layout = plan.layout
        let width = layout.contentWidth
        let height = layout.stripHeight
        var svg = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(Escape.xml(title)): \(layout.count) albums">
        <title>\(Escape.xml(title))</title>
        <defs><style>.current{fill:none;stroke:#0b57d0;stroke-width:3}</style></defs>
        <g class="strip">

        """
        svg.reserveCapacity(svg.utf8.count + layout.count * 260)
        for entry in plan.catalogue.entries {
            let frame = layout.frame(at: entry.index)
            let label = Escape.xml(entry.album.title + " by " + entry.album.artist)
            svg += "<a href=\"\(Escape.xml(SitePlan.albumFolder(slug: entry.slug)))\"><title>\(label)</title>"
            svg += "<image href=\"\(Escape.xml(images[entry.index].src))\" x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\" preserveAspectRatio=\"xMidYMid slice\"/>"
            if entry.index == plan.initialIndex {
                svg += "<rect class=\"current\" x=\"\(frame.x)\" y=\"\(frame.y)\" width=\"\(frame.width)\" height=\"\(frame.height)\"/>"
            }
            svg += "</a>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }
}
