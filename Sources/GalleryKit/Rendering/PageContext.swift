import Mustache

/// The values a page template sees, as Mustache contexts that answer by name without reflection
/// (`MustacheParent`), which renders about three times faster than `Mirror`.
///
/// Every string here is album or site text and is escaped by Mustache's `{{…}}`; values are first
/// cleaned of characters XML forbids, so no album text can break a page.
struct PageContext: MustacheParent {
    var site: SiteContext
    var root: String
    var canonical: String?
    var assets: AssetsContext
    var carousel: CarouselContext
    var album: AlbumContext?
    var previous: LinkContext?
    var next: LinkContext?
    var pager: PagerContext

    func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "root": root
        case "canonical": canonical
        case "assets": assets
        case "carousel": carousel
        case "album": album
        case "previous": previous
        case "next": next
        case "pager": pager
        default: nil
        }
    }
}

/// `site`: the site's settings.
struct SiteContext: MustacheParent {
    var title: String
    var description: String
    var language: String
    var count: Int

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "description": description.isEmpty ? nil : description
        case "language": language
        case "count": count
        default: nil
        }
    }
}

/// `assets`: fingerprinted stylesheet and script paths, relative to the site root.
struct AssetsContext: MustacheParent {
    var css: String
    var js: String

    func child(named name: String) -> Any? {
        switch name {
        case "css": css
        case "js": js
        default: nil
        }
    }
}

/// `carousel`: the strip with the tiles this page carries, placed by ``ScrollerLayout``.
struct CarouselContext: MustacheParent {
    var layout: ScrollerLayout
    var current: Int
    var tiles: [TileContext]

    func child(named name: String) -> Any? {
        switch name {
        case "tiles": tiles
        case "count": layout.count
        case "current": current
        case "padding": layout.metrics.padding
        case "dimension": layout.metrics.dimension
        case "offset": layout.metrics.offset
        case "width": layout.contentWidth
        case "height": layout.stripHeight
        case "first": tiles.first?.index ?? 0
        default: nil
        }
    }
}

/// A tile of the strip.
struct TileContext: MustacheParent {
    var index: Int
    var count: Int
    var frame: TileFrame
    var href: String
    var src: String
    var srcset: String?
    var alt: String
    var title: String
    var current: Bool

    func child(named name: String) -> Any? {
        switch name {
        case "index": index
        case "number": index + 1
        case "count": count
        case "x": frame.x
        case "y": frame.y
        case "width": frame.width
        case "height": frame.height
        case "href": href
        case "src": src
        case "srcset": srcset
        case "alt": alt
        case "title": title
        case "current": current
        default: nil
        }
    }
}

/// `album`: the details table's rows.
struct AlbumContext: MustacheParent {
    var title: String
    var artist: String
    var genre: String
    var year: Int
    var slug: String
    var number: Int
    var image: String?

    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "artist": artist
        case "genre": genre
        case "year": year
        case "slug": slug
        case "number": number
        case "image": image
        default: nil
        }
    }
}

/// `previous` / `next`: a neighbouring album.
struct LinkContext: MustacheParent {
    var href: String
    var title: String

    func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "title": title
        default: nil
        }
    }
}

/// `pager`: where an index page stands among the index pages.
struct PagerContext: MustacheParent {
    var number: Int
    var count: Int
    var previous: String?
    var next: String?

    func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "count": count
        case "isPaged": count > 1
        case "isFirst": number == 1
        case "previous": previous
        case "next": next
        default: nil
        }
    }
}
