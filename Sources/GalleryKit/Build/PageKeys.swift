/// The input key of every page: a hash of exactly what the page shows, so an incremental build
/// re-renders a page only when something on it changed.
///
/// An album page shows its window of tiles, its neighbours' titles and links, and the site's
/// settings, templates and assets; an index page shows its tiles and its current album. Every
/// page also shows the album count (in "3 of 10" and the strip's width).
struct PageKeys: Sendable {
    /// What every page depends on.
    let global: UInt64
    /// Each album's shown values: fields, slug and images.
    let albums: [UInt64]
    /// Each album's own fields (`params`, 0 for none), which only its details and the data
    /// files show: a new price re-renders the album's page, not its neighbours'.
    let params: [UInt64]
    /// Every album's slug, in order: all the sitemap shows of the albums.
    let slugs: UInt64
    /// Whether tiles may show their album's params (``TemplateSet/tilesMayShowParams``), so a
    /// page's key holds those of its strip.
    let tilesShowParams: Bool

    init(plan: SitePlan, config: SiteConfig, templates: TemplateSet, assets: AssetPaths, placeholder: String, images: [TileImage]) {
        let settings = [
            GalleryVersion.current, "checks \(PageValidator.checksVersion)", templates.fingerprint, assets.css, assets.js, assets.icon ?? "", placeholder,
            config.title, config.description, config.baseURL, config.language,
            Self.analytics(config), config.text.fingerprint,
            config.params.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value.json }.joined(separator: "\u{0}"),
        ].map(FastHash.hash)
        let numbers = [
            plan.layout.metrics.padding, plan.layout.metrics.dimension, plan.layout.metrics.offset,
            plan.window, plan.indexPageSize, plan.catalogue.count, plan.initialIndex,
        ].map { UInt64(bitPattern: Int64($0)) }
        global = FastHash.combine(settings + numbers)
        // The fields joined by NUL, written into one reused buffer rather than a new string each,
        // in one pass that reads each entry in place (a copy of each retained its every field).
        var buffer = ByteWriter(capacity: 512)
        let count = plan.catalogue.entries.count
        var albums = [UInt64](repeating: 0, count: count)
        var params = [UInt64](repeating: 0, count: count)
        var slugs = [UInt64](repeating: 0, count: count)
        plan.catalogue.entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let image = images[entries[index].index]
                buffer.removeAll()
                buffer.write(entries[index].album.title)
                buffer.write("\u{0}")
                buffer.write(entries[index].album.artist)
                buffer.write("\u{0}")
                buffer.write(entries[index].album.genre)
                buffer.write("\u{0}")
                buffer.write(entries[index].album.year)
                buffer.write("\u{0}")
                buffer.write(entries[index].slug)
                buffer.write("\u{0}")
                buffer.write(image.src)
                buffer.write("\u{0}")
                buffer.write(image.srcset ?? "")
                buffer.write("\u{0}")
                buffer.write(image.large ?? "")
                albums[index] = FastHash.hash(buffer.bytes)
                if !entries[index].album.extras.isEmpty { params[index] = entries[index].album.paramsJSON.map(FastHash.hash) ?? 0 }
                slugs[index] = FastHash.hash(entries[index].slug)
            }
        }
        self.albums = albums
        self.params = params
        self.slugs = FastHash.combine(slugs)
        tilesShowParams = templates.tilesMayShowParams
    }

    /// The analytics scripts as every page shows them.
    private static func analytics(_ config: SiteConfig) -> String {
        (config.analytics.provider?.scripts(baseURL: config.baseURL) ?? []).map { script in
            script.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: "\u{1}") + "\u{2}" + (script.code ?? "")
        }.joined(separator: "\u{3}")
    }

    /// The key of a file made from every album (the SVG strip, the data file, the sitemap) or,
    /// with `range`, from a chunk of them; `tag` tells the files apart.
    func key(forGenerated tag: UInt64, albums range: Range<Int>? = nil, withParams: Bool = false) -> UInt64 {
        let range = range ?? albums.indices
        return FastHash.combine([global, 100, tag] + albums[range] + (withParams ? Array(params[range]) : []))
    }

    /// The key of everything a file made from every album shows but the albums' own values
    /// (see ``SegmentedFile``).
    func context(forGenerated tag: UInt64, withParams: Bool = false) -> UInt64 {
        FastHash.combine([global, 200, tag, withParams ? 1 : 0])
    }

    /// Each album's key with its params: what its entry in the data file shows.
    var albumsWithParams: [UInt64] {
        zip(albums, params).map { FastHash.combine([$0, $1]) }
    }

    /// The key of the sitemap, which lists the pages' URLs: a retitled album leaves it alone.
    var sitemap: UInt64 {
        FastHash.combine([global, 100, 3, slugs])
    }

    /// The key of a page.
    func key(for page: SitePlan.Page, in plan: SitePlan) -> UInt64 {
        var parts: [UInt64] = [global]
        parts.reserveCapacity(8 + 2 * (2 * plan.window + 1))
        switch page {
        case .index(let number):
            parts += [1, UInt64(number), UInt64(plan.currentAlbum(onIndexPage: number))]
            parts += albums[plan.albums(onIndexPage: number)]
            if tilesShowParams { parts += params[plan.albums(onIndexPage: number)] }
            // The album it opens on shows its params (a site of no albums has none).
            let current = plan.currentAlbum(onIndexPage: number)
            if params.indices.contains(current), params[current] != 0 { parts.append(params[current]) }
        case .album(let index):
            let window = plan.albums(aroundAlbum: index)
            parts += [2, UInt64(index), UInt64(window.lowerBound)]
            parts += albums[window]
            if tilesShowParams { parts += params[window] }
            if index > 0 { parts.append(albums[index - 1]) }
            if index + 1 < albums.count { parts.append(albums[index + 1]) }
            if params[index] != 0 { parts.append(params[index]) }
        case .notFound:
            parts.append(3)
        }
        return FastHash.combine(parts)
    }
}
