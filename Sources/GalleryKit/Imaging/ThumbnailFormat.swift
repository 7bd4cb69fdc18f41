/// The encoding of generated thumbnails (`[thumbnails] format` in `gallery.toml`).
public enum ThumbnailFormat: String, Sendable, Hashable, CaseIterable {
    /// WebP: about a third smaller than JPEG at the same quality, shown by every current browser.
    case webp
    /// JPEG, for sites that must serve very old browsers.
    case jpeg

    /// The file extension of the thumbnails.
    public var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .jpeg: "jpg"
        }
    }
}
