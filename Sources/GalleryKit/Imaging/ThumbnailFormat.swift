/// The encoding of generated thumbnails (`[thumbnails] format` in `gallery.toml`).
public enum ThumbnailFormat: String, Sendable, Hashable, CaseIterable {
    /// WebP: about a third smaller than JPEG at the same quality, shown by every current browser.
    case webp
    /// JPEG, for sites that must serve very old browsers.
    case jpeg
    /// PNG: lossless (the quality is ignored), so much larger; for covers that must stay exact.
    case png
    /// AVIF: smaller still than WebP, but slow to encode, and only available when libvips has its
    /// HEIF module and libheif an AV1 encoder (see ``isSupported``).
    case avif

    /// The file extension of the thumbnails.
    public var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .jpeg: "jpg"
        case .png: "png"
        case .avif: "avif"
        }
    }

    /// Whether this libvips can write the format: always for WebP, JPEG and PNG; for AVIF, only if
    /// encoding a small test image succeeds.
    public var isSupported: Bool {
        self != .avif || Self.canWriteAVIF
    }

    /// Whether a small AVIF can be encoded, tried once per process.
    private static let canWriteAVIF: Bool = {
        guard let pattern = try? Thumbnailer.pattern(width: 16, height: 16, kind: .png) else { return false }
        return (try? Thumbnailer.encode(pattern, as: ThumbnailSpec(size: 8, format: .avif))) != nil
    }()
}
