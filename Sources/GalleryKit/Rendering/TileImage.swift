/// The images that show an album: what the thumbnail step hands to the renderer. Paths are
/// relative to the output folder.
public struct TileImage: Sendable, Hashable {
    /// The tile image (`dimension` pixels square).
    public var src: String
    /// A `srcset` for high-density screens (`covers/x-200.webp 2x`), if there is one.
    public var srcset: String?
    /// The larger image for the album page, if there is one.
    public var large: String?
    /// Whether this is the placeholder standing in for a missing or broken cover.
    public var isPlaceholder: Bool

    /// Creates tile images.
    public init(src: String, srcset: String? = nil, large: String? = nil, isPlaceholder: Bool = false) {
        self.src = src
        self.srcset = srcset
        self.large = large
        self.isPlaceholder = isPlaceholder
    }
}
