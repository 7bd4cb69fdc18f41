import Foundation

/// How to run a build: the choices a `gallery build` command line makes.
public struct BuildOptions: Sendable {
    /// The site folder.
    public var site: SiteFolder
    /// The output folder, overriding `[build] output`.
    public var output: URL?
    /// The cache folder, overriding `[build] cache` (for a site checked out read-only).
    public var cache: URL?
    /// Whether any cover failure (any warning, in fact) fails the build.
    public var strict = false
    /// Whether to ignore what the previous build left and write every output again.
    public var clean = false
    /// A base URL overriding `base_url` in `gallery.toml` (for a CI job that learns it late).
    public var baseURL: String?
    /// How remote covers are fetched: from the cache when there (default), revalidated with
    /// the server (`--refresh`), or never from the network (`--offline`).
    public var fetchMode: FetchMode = .useCache
    /// Whether pages carry the `[analytics]` provider's scripts: yes for what is published, no
    /// for a preview (`gallery serve`), whose visits are the author's own.
    public var analytics = true
    /// Whether to remove, after a good build, the cached thumbnails it did not use (`--gc`, as
    /// Hugo names it): those of covers gone from the site, and of sizes, fits, formats or
    /// qualities no longer asked for.
    public var gc = false
    /// Whether to remove, after a good build, the files of the output folder it did not write
    /// (`--clean-destination`, Hugo's `--cleanDestinationDir`): pages of albums deleted while no
    /// manifest recorded them, files put there by hand. Hidden names (`.git/`) are kept.
    public var cleanDestination = false
    /// The most URLs a sitemap file lists before the sitemap is split into parts: the protocol's
    /// 50,000 (``Sitemap/maximumURLs``); lower only in tests, which would otherwise need a site
    /// of that size.
    var sitemapLimit = Sitemap.maximumURLs

    /// Options for building a site folder.
    public init(site: SiteFolder, output: URL? = nil, strict: Bool = false, clean: Bool = false, baseURL: String? = nil) {
        self.site = site
        self.output = output
        self.strict = strict
        self.clean = clean
        self.baseURL = baseURL
    }
}
