/// `social`: what a link to a page shows when it is shared, as Open Graph and Twitter card
/// `<meta>` tags: the album's title, its artist, genre and year, and its cover.
///
/// Link previews need absolute URLs, so pages get a card only when `base_url` is absolute (as
/// they get a canonical link); the 404 page never does. A cover goes into the card only as a
/// raster image (WebP, JPEG, PNG or GIF): the services that read these tags do not show SVG, and
/// the placeholder of a missing cover is no picture of the album.
final class SocialCard: TemplateObject, @unchecked Sendable {
    /// `website` for the index pages, `music.album` for an album's page.
    let type: String
    let siteName: String
    let title: String
    let description: String
    /// The page's canonical URL.
    let url: String
    let image: SocialImage?

    init(type: String, siteName: String, title: String, description: String, url: String, image: SocialImage? = nil) {
        self.type = type
        self.siteName = siteName
        self.title = title
        self.description = description
        self.url = url
        self.image = image
    }

    override var keys: [String] { ["type", "siteName", "title", "description", "url", "image"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (4, "type"): .text(type)
        case (8, "siteName"): .text(siteName)
        case (5, "title"): .text(title)
        case (11, "description"): .text(description)
        case (3, "url"): .text(url)
        case (5, "image"): image.map { .object($0) } ?? .null
        default: nil
        }
    }
}

/// `social.image`: the album cover a shared link shows, at its absolute URL.
final class SocialImage: TemplateObject, @unchecked Sendable {
    let url: String
    /// Its media type, e.g. `image/webp`.
    let type: String
    /// Its width and height in pixels (the album page's large thumbnail).
    let size: Int
    let alt: String

    /// The card image for an album's large cover, if it is a raster image a preview can show.
    init?(_ image: TileImage, size: Int, baseURL: String, alt: String) {
        guard !image.isPlaceholder, let path = image.large, let type = Self.mediaType(ofPath: path) else { return nil }
        self.url = baseURL + path
        self.type = type
        self.size = size
        self.alt = alt
    }

    override var keys: [String] { ["url", "type", "size", "alt"] }

    override func value(forKey name: String) -> TemplateValue? {
        switch (name.utf8.count, name) {
        case (3, "url"): .text(url)
        case (4, "type"): .text(type)
        case (4, "size"): .number(size)
        case (3, "alt"): .text(alt)
        default: nil
        }
    }

    /// The media type of a path's image, by its extension; `nil` for what previews cannot show.
    static func mediaType(ofPath path: String) -> String? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "webp": return "image/webp"
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        default: return nil
        }
    }
}
