/// A tile of the strip: an album seen from a page, with the flags the page gives it.
///
/// Its text is made when a template asks for it, not before: a page copies most of its tiles
/// from the page in place after an edit (``FragmentSplice``), and reuses most of the others from
/// the page before it (``FragmentCache``), so a tile's links and escaped text are made for few
/// of the tiles a page shows.
final class TileContext: TemplateObject, @unchecked Sendable {
    /// The album's position.
    let index: Int
    /// Where its values are made from.
    let source: TileSource
    /// Whether it is the current album's tile.
    let current: Bool
    /// Whether the page is the current album's own (an album page), so its link is
    /// `aria-current="page"`; on an index page the current tile is only `aria-current="true"`.
    let ownPage: Bool
    /// Whether the browser may wait to load its image until it nears the viewport: every tile
    /// but those the strip shows when the page opens (``SiteRenderer/openingViewportWidth``), so
    /// the images a visitor sees first are fetched at once, as the largest of them should be.
    let lazy: Bool
    /// Which root the links were made for, 0 or 1 (`nil`: not cacheable).
    let variant: Int?

    /// A tile of an album, its values made from `source` when asked for.
    init(index: Int, current: Bool, ownPage: Bool = false, lazy: Bool = true, variant: Int?, source: TileSource) {
        self.index = index
        self.source = source
        self.current = current
        self.ownPage = ownPage
        self.lazy = lazy
        self.variant = variant
    }

    /// The album, the root, whether it is current, on its own page and lazy identify a tile's
    /// values.
    override var fragmentKey: Int? {
        variant.map { index * 16 + $0 * 8 + (lazy ? 4 : 0) + (ownPage ? 2 : 0) + (current ? 1 : 0) }
    }

    override var keys: [String] {
        ["index", "number", "count", "x", "y", "width", "height", "href", "src", "srcset", "alt", "title", "artist", "genre", "year", "params", "current", "ownPage", "lazy"]
    }

    override func value(forKey name: String) -> TemplateValue? {
        // Told apart by length first: a `switch` over strings compares the name with each case in
        // turn, a call each, and a tile asks for some fifteen names.
        switch (name.utf8.count, name) {
        case (4, "lazy"): return .bool(lazy)
        case (5, "index"): return .number(index)
        case (6, "number"): return .number(index + 1)
        case (7, "current"): return .bool(current)
        case (7, "ownPage"): return .bool(ownPage)
        default: return source.value(forKey: name, of: index)
        }
    }
}

/// The albums' tiles as seen from pages at one root (`./`, `../../`): each value made from the
/// album when a template asks for it.
final class TileSource: Sendable {
    let plan: SitePlan
    let images: [TileImage]
    /// `[text]`'s `album_by`, each tile's `alt`.
    let albumBy: TextPattern
    /// The path from the pages' folder to the output root.
    let root: String

    init(plan: SitePlan, images: [TileImage], albumBy: TextPattern, root: String) {
        self.plan = plan
        self.images = images
        self.albumBy = albumBy
        self.root = root
    }

    func value(forKey name: String, of index: Int) -> TemplateValue? {
        // Each case reads the album fields it needs in place: copying the whole entry first
        // retained and released its every string for each value a tile asks for. Names are
        // told apart by length first, as in `TileContext`.
        switch (name.utf8.count, name) {
        case (5, "count"): return .number(plan.catalogue.count)
        case (1, "x"): return .number(plan.layout.frame(at: index).x)
        case (1, "y"): return .number(plan.layout.frame(at: index).y)
        case (5, "width"): return .number(plan.layout.frame(at: index).width)
        case (6, "height"): return .number(plan.layout.frame(at: index).height)
        case (4, "href"):
            // Made in one string: the folder's own string, then the root's and the folder's,
            // were three allocations for each tile rendered.
            let slug = plan.catalogue.entries[index].slug
            var href = ""
            href.reserveCapacity(root.utf8.count + slug.utf8.count + 8)
            href += root
            SitePlan.appendAlbumFolder(slug: slug, to: &href)
            return .text(href)
        case (3, "src"): return .text(root + images[index].src)
        case (6, "srcset"): return .text(images[index].srcset.map { SiteRenderer.prefixingSrcset($0, with: root) })
        case (3, "alt"):
            // Field by field, not the album copied out first (all its strings retained).
            return .text(albumBy.fillAlbum(
                title: Escape.xmlCharacters(plan.catalogue.entries[index].album.title),
                artist: Escape.xmlCharacters(plan.catalogue.entries[index].album.artist),
                genre: Escape.xmlCharacters(plan.catalogue.entries[index].album.genre),
                year: plan.catalogue.entries[index].album.year
            ))
        case (5, "title"): return .text(Escape.xmlCharacters(plan.catalogue.entries[index].album.title))
        case (6, "artist"): return .text(Escape.xmlCharacters(plan.catalogue.entries[index].album.artist))
        case (5, "genre"): return .text(Escape.xmlCharacters(plan.catalogue.entries[index].album.genre))
        case (4, "year"): return .number(plan.catalogue.entries[index].album.year)
        case (6, "params"): return .object(ParamsContext(Album.params(json: plan.catalogue.entries[index].album.paramsJSON)))
        default: return nil
        }
    }
}
