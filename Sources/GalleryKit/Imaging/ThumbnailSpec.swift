/// One thumbnail to make of a cover: a square of `size` pixels, fitted, encoded and compressed
/// as the site asks. Together with the cover's content hash, and the size of the thumbnail it is
/// resized from when it is made with larger ones (``Thumbnailer/resizedFrom(in:from:)``), it is the
/// thumbnail cache's key.
public struct ThumbnailSpec: Sendable, Hashable {
    /// The width and height in pixels.
    public var size: Int
    /// How the cover fills the square.
    public var fit: ThumbnailFit
    /// The encoding.
    public var format: ThumbnailFormat
    /// The encoder's quality, 1…100.
    public var quality: Int

    /// Creates a spec.
    public init(size: Int, fit: ThumbnailFit = .crop, format: ThumbnailFormat = .webp, quality: Int = 80) {
        self.size = size
        self.fit = fit
        self.format = format
        self.quality = quality
    }
}
