import Foundation

/// The site's settings, from `gallery.toml` (every key optional).
///
/// Key names follow Hugo's `hugo.toml` where one exists (`title`, `base_url`, `language`).
public struct SiteConfig: Sendable, Hashable {
    /// The site's title, in the page `<title>` and heading.
    public var title = "Albums"
    /// A sentence about the site, for the `description` meta tag; empty for none.
    public var description = ""
    /// Where the site is published, e.g. `https://example.org/albums/`. Pages link relatively, so
    /// the site works from any sub-path; the sitemap and canonical links use this.
    public var baseURL = "/"
    /// The language of the album text, for `<html lang>`.
    public var language = "en"
    /// The carousel's geometry and paging.
    public var carousel = Carousel()
    /// Where output goes.
    public var build = Build()
    /// The library commands' settings.
    public var library = Library()
    /// How remote covers are downloaded.
    public var covers = Covers()
    /// How cover thumbnails are made.
    public var thumbnails = Thumbnails()
    /// The analytics service published pages report to.
    public var analytics = Analytics.none
    /// The words gallery puts on pages (`[text]`), English unless given.
    public var text = SiteText()
    /// The site's own values for its templates (`[params]`, `{{site.params.phone}}`, as Hugo's
    /// `.Site.Params`): a shop's phone number, address, social links.
    public var params: [String: Album.Param] = [:]

    /// Creates the default settings.
    public init() {}

    /// `[carousel]`: the scroller layout's constants and how many tiles each page carries.
    public struct Carousel: Sendable, Hashable {
        /// The layout constants (`padding`, `dimension`, `offset`).
        public var metrics = ScrollerMetrics.seed
        /// The album the index shows first: a 1-based number as `gallery list` shows it, or a
        /// slug. Out-of-range numbers are clamped to the first or last album.
        public var initialAlbum = InitialAlbum.number(1)
        /// How many neighbours on each side an album page carries at their true positions.
        public var window = 15
        /// How many albums the index strip holds before the index is split into pages
        /// (`page/2/`, `page/3/`…).
        public var indexPageSize = 300

        /// Creates carousel settings; every value has the seed's default.
        public init(metrics: ScrollerMetrics = .seed, initialAlbum: InitialAlbum = .number(1), window: Int = 15, indexPageSize: Int = 300) {
            self.metrics = metrics
            self.initialAlbum = initialAlbum
            self.window = window
            self.indexPageSize = indexPageSize
        }
    }

    /// The album the index opens on.
    public enum InitialAlbum: Sendable, Hashable {
        /// A 1-based position.
        case number(Int)
        /// An album's slug.
        case slug(String)
    }

    /// `[covers]`: limits and patience for downloading remote covers.
    public struct Covers: Sendable, Hashable {
        /// The download policy these settings make (concurrency, per-host limit, timeouts,
        /// redirects, size limit, retries).
        public var policy = CoverFetchPolicy()
    }

    /// `[thumbnails]`: the images made of each cover. Tiles are `[carousel] dimension` pixels
    /// square, with a twice-as-large copy for high-density screens; album pages show ``large``.
    public struct Thumbnails: Sendable, Hashable {
        /// The encoding.
        public var format = ThumbnailFormat.webp
        /// The encoder's quality, 1…100.
        public var quality = 80
        /// How a cover fills its square.
        public var fit = ThumbnailFit.crop
        /// The side of the album page's image, in pixels.
        public var large = 300
        /// The most pixels a cover may have (8192 × 8192, 64 MP): above any real cover scan (a
        /// 12-inch sleeve at 600 dpi is 52 MP), while a PNG at the limit decodes into at most
        /// 256 MB per core. Larger covers are refused before they are decoded.
        public var maxPixels = 8192 * 8192

        /// The specs of one cover's images: the tile, the tile for high-density screens (twice
        /// the size) and the album page's image, in that order.
        public func specs(tileSize: Int) -> [ThumbnailSpec] {
            [tileSize, tileSize * 2, large].map { ThumbnailSpec(size: $0, fit: fit, format: format, quality: quality) }
        }
    }

    /// `[library]`: settings of `gallery add`, `edit`, `delete`, `undo` and `import`.
    public struct Library: Sendable, Hashable {
        /// How many changes `gallery undo` can reverse.
        public var undoLimit = 50
    }

    /// `[build]`: output settings.
    public struct Build: Sendable, Hashable {
        /// The output folder, relative to the site folder, unless `--output` says otherwise.
        public var output = "public"
        /// The cache folder (covers, thumbnails, build manifests), relative to the site folder.
        public var cache = ".gallery-cache"
    }
}

extension SiteConfig {
    /// The path part of ``baseURL``, always starting and ending with `/`: `/` for
    /// `https://example.org/`, `/albums/` for `https://example.org/albums/`.
    public var basePath: String {
        var path = baseURL
        if let schemeEnd = path.range(of: "://") {
            let afterHost = path[schemeEnd.upperBound...].firstIndex(of: "/") ?? path.endIndex
            path = String(path[afterHost...])
        }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }

    /// A base URL as gallery keeps it: ending in exactly one `/` (`""` and `"/"` mean `/`).
    public static func normalizedBaseURL(_ text: String) -> String {
        var url = text.trimmingCharacters(in: .whitespaces)
        // A scheme is case-insensitive, but `HTTPS://` was taken for a path in places (no
        // canonical links) and for a URL in others (the sitemap): written as browsers show it.
        // So is a host: `https://Music.Example.ORG/` was published so in canonical links and the
        // sitemap, and lowercased for the analytics' domain.
        if let scheme = url.range(of: "://") {
            let host = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            url = url[..<scheme.lowerBound].lowercased() + "://" + host.lowercased() + url[host.endIndex...]
        }
        while url.hasSuffix("//"), !url.hasSuffix("://") { url.removeLast() }
        return percentEncoded(url.hasSuffix("/") ? url : url + "/")
    }

    /// A URL with its non-ASCII characters, and the ASCII ones no URL may hold as they are
    /// (`"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`), percent-encoded as browsers send them
    /// (UTF-8, upper-case hex); `%` is kept, so a path already encoded stays as it is. A
    /// `/música/` was published raw in the sitemap, which the protocol forbids, and `gallery
    /// serve` compared it with the encoded path browsers ask for, so it served nothing.
    static func percentEncoded(_ url: String) -> String {
        let kept = Set("!$&'()*+,-./:;=?@_~%#[]".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        let bytes = Array(url.utf8)
        var encoded: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            // A % that begins no escape (`/50%off/`) is encoded as %25: as written, every link was
            // refused as a broken escape, blamed on the built-in template.
            let strayPercent = byte == 0x25 && !PercentEscape.begins(at: index, in: bytes)
            if !strayPercent, (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || kept.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// What is wrong with a base URL as given, or `nil` when it is one: an absolute `http(s)` URL
    /// with a host, or a path that starts with `/` (empty means `/`); no spaces or control
    /// characters, which would break every link and the sitemap.
    public static func baseURLProblem(_ text: String) -> String? {
        let url = text.trimmingCharacters(in: .whitespaces)
        let advice = "give the site's address, such as https://example.org/albums/, or a path that starts with /, such as /albums/"
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "\"\(text)\" has spaces or control characters; \(advice)"
        }
        if let scheme = url.range(of: "://") {
            let name = url[..<scheme.lowerBound].lowercased()
            guard name == "http" || name == "https" else { return "\"\(text)\" is not an http or https URL; \(advice)" }
            if let problem = queryOrFragment(url, text: text, advice: advice) { return problem }
            let host = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard !host.isEmpty else { return "\"\(text)\" has no host; \(advice)" }
            // Every canonical link, link preview and the sitemap would publish them.
            if host.contains("@") { return "\"\(text)\" has a user name or password (before @), which every page would publish; give the address without it" }
            if let problem = portProblem(host, text: text) { return problem }
            // A browser turns `bücher.example` into its ASCII form (xn--bcher-kva.example); the
            // sitemap and canonical links must hold that form, which gallery does not compute.
            if !host.allSatisfy(\.isASCII) { return "\"\(text)\" has a host that is not ASCII (\(host)); give its ASCII form, which begins xn-- (`idn2 bücher.example` prints it)" }
            let path = url[scheme.upperBound...].dropFirst(host.count)
            return emptySegmentProblem(path, text: text) ?? pageProblem(path, text: text)
        }
        if url.isEmpty || url.hasPrefix("/") {
            if url.hasPrefix("//") { return "\"\(text)\" starts with //; \(advice)" }
            return queryOrFragment(url, text: text, advice: advice) ?? emptySegmentProblem(Substring(url), text: text) ?? pageProblem(Substring(url), text: text)
        }
        return "\"\(text)\" is neither a URL nor a path that starts with /; \(advice)"
    }

    /// A port after the host (`:8080`) must be one: `:8080x` or `:99999` was published in every
    /// canonical link and the sitemap. (An IPv6 host's own colons are inside its brackets.)
    private static func portProblem(_ host: Substring, text: String) -> String? {
        let afterAddress = host.hasPrefix("[") ? host.drop { $0 != "]" }.dropFirst() : host
        guard let colon = afterAddress.lastIndex(of: ":") else { return nil }
        let port = afterAddress[afterAddress.index(after: colon)...]
        if port.isEmpty || (port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber) && Int(port).map(CoverLocator.ports.contains) == true) { return nil }
        return "\"\(text)\" names port \(port), which does not exist (ports run from 1 to 65535); give a port in that range, or none (\(host[..<colon]))"
    }

    /// A path with an empty segment (`https://host//repo/`, `/repo//x/`) is a link elsewhere:
    /// `//repo/` at the start of a path names the host `repo`, so 404.html's links led off the
    /// site. (Slashes doubled at the end are taken away.)
    private static func emptySegmentProblem(_ path: Substring, text: String) -> String? {
        var trimmed = path
        while trimmed.hasSuffix("//") { trimmed.removeLast() }
        guard trimmed.contains("//") else { return nil }
        return "\"\(text)\" has an empty path segment (//), which browsers keep, so every link would lead elsewhere; write \(text.replacingOccurrences(of: String(path), with: ReferenceResolver.collapsingSlashes(String(path))))"
    }

    /// A base URL is a folder: one that ends in a page's name (`…/catalogue/index.html`) would
    /// have every link written below that page (`…/index.html/assets/…`).
    private static func pageProblem(_ path: Substring, text: String) -> String? {
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        let pages = [".html", ".htm", ".xhtml", ".php", ".asp", ".aspx"]
        guard let page = pages.first(where: { last.lowercased().hasSuffix($0) }) else { return nil }
        let folder = text.range(of: last, options: .backwards).map { String(text[..<$0.lowerBound]) } ?? ""
        return "\"\(text)\" ends in a page (\(page)), not a folder; give the folder the site is published in, such as \(folder.isEmpty ? "/" : folder)"
    }

    /// A base URL is a folder every page's path is appended to: a query (`?q=1`) or fragment
    /// (`#f`) in it would end up in the middle of every link.
    private static func queryOrFragment(_ url: String, text: String, advice: String) -> String? {
        guard let mark = url.first(where: { $0 == "?" || $0 == "#" }) else { return nil }
        return "\"\(text)\" has a \(mark == "?" ? "query (?…)" : "fragment (#…)"), which every link would carry in its middle; \(advice)"
    }

    /// Whether `text` is shaped as a BCP 47 language tag (`en`, `pt-BR`, `zh-Hant-TW`), as
    /// `<html lang>` wants.
    public static func isLanguageTag(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (1...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { part in (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// Whether ``baseURL`` is absolute (`https://…`), so canonical links and the sitemap can use it.
    public var hasAbsoluteBaseURL: Bool {
        baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")
    }
}
