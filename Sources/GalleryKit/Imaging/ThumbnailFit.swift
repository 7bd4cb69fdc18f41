/// How a cover fills a square thumbnail (`[thumbnails] fit` in `gallery.toml`).
public enum ThumbnailFit: String, Sendable, Hashable, CaseIterable {
    /// Scale the cover to cover the square and cut out its centre.
    case crop
    /// Scale the whole cover into the square and pad the rest (transparent except in JPEG, which is white).
    case contain
    /// Scale the cover to cover the square and cut out its most interesting region
    /// (libvips's attention strategy: skin tones, saturation, edges).
    case attention
}
