import Testing
@testable import GalleryKit

/// Input keys decide what a rebuild renders: a key that misses a change leaves a stale file, and
/// one that changes with what its file does not show re-renders it for nothing.
@Suite struct PageKeysTests {
    static func keys(_ albums: [Album]) throws -> PageKeys {
        let plan = SitePlan(catalogue: Catalogue(albums: albums), carousel: .init(window: 2, indexPageSize: 4))
        let images = plan.catalogue.entries.map { TileImage(src: "covers/\($0.index).webp", srcset: nil, large: nil) }
        return PageKeys(
            plan: plan, config: SiteConfig(), templates: try TemplateSet.load(overridesIn: nil),
            assets: AssetPaths(css: "a.css", js: "a.js"), placeholder: "p.svg", images: images
        )
    }

    static func albums(count: Int = 10) -> [Album] {
        (1...count).map { Album(title: "Title \($0)", artist: "Artist", genre: "Pop", year: 2001, coverURL: "c.png") }
    }

    /// An album's key is the hash of its fields joined by NUL, as gallery has always made it:
    /// a new way of writing it must give the same keys, or an upgrade re-renders every page.
    @Test func anAlbumsKeyIsItsFieldsJoinedByNUL() throws {
        var albums = Self.albums(count: 3)
        albums[1].title = "Ünïcode & <markup> 🎸"
        let plan = SitePlan(catalogue: Catalogue(albums: albums), carousel: .init())
        let images = [
            TileImage(src: "covers/a.webp", srcset: "covers/a.webp 1x, covers/a2.webp 2x", large: "covers/a3.webp"),
            TileImage(src: "covers/b.webp"),
            TileImage(src: "placeholder.svg", isPlaceholder: true),
        ]
        let keys = PageKeys(plan: plan, config: SiteConfig(), templates: try TemplateSet.load(overridesIn: nil), assets: AssetPaths(css: "a.css", js: "a.js"), placeholder: "p.svg", images: images)
        let expected = plan.catalogue.entries.map { entry in
            let album = entry.album, image = images[entry.index]
            return FastHash.hash([
                album.title, album.artist, album.genre, String(album.year), entry.slug, image.src, image.srcset ?? "", image.large ?? "",
            ].joined(separator: "\u{0}"))
        }
        #expect(keys.albums == expected)
    }

    @Test func aRetitledAlbumChangesTheStripAndTheDataFileButNotTheSitemap() throws {
        var retitled = Self.albums()
        retitled[4].title = "Another Title"
        // The explicit slug keeps the album's URL, as `gallery edit` does.
        retitled[4].slug = "artist-title-5"
        let before = try Self.keys(Self.albums()), after = try Self.keys(retitled)
        #expect(before.key(forGenerated: 1) != after.key(forGenerated: 1), "the strip shows titles")
        #expect(before.key(forGenerated: 2) != after.key(forGenerated: 2), "the data file lists them")
        #expect(before.sitemap == after.sitemap, "the sitemap shows only URLs")
    }

    enum URLChange: CaseIterable {
        case newSlug, oneAlbumMore, oneAlbumFewer, twoAlbumsSwapped

        func apply(to albums: inout [Album]) {
            switch self {
            case .newSlug: albums[4].slug = "another-slug"
            case .oneAlbumMore: albums.append(Album(title: "New", artist: "New", genre: "Pop", year: 2001, coverURL: "c.png"))
            case .oneAlbumFewer: albums.removeLast()
            case .twoAlbumsSwapped: albums.swapAt(2, 3)
            }
        }
    }

    @Test(arguments: URLChange.allCases)
    func whatMovesAURLChangesTheSitemap(change: URLChange) throws {
        var changed = Self.albums()
        change.apply(to: &changed)
        #expect(try Self.keys(Self.albums()).sitemap != Self.keys(changed).sitemap)
    }

    @Test func theSitemapFollowsTheBaseURL() throws {
        let plan = SitePlan(catalogue: Catalogue(albums: Self.albums()), carousel: .init())
        let templates = try TemplateSet.load(overridesIn: nil)
        func key(_ baseURL: String) -> UInt64 {
            var config = SiteConfig()
            config.baseURL = baseURL
            let images = plan.catalogue.entries.map { _ in TileImage(src: "c.webp", srcset: nil, large: nil) }
            return PageKeys(plan: plan, config: config, templates: templates, assets: AssetPaths(css: "a.css", js: "a.js"), placeholder: "p.svg", images: images).sitemap
        }
        #expect(key("/") != key("https://example.org/sub/"))
    }
}
