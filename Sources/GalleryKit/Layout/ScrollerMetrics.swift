/// The scroller's constants: the seed's `VIEW_PADDING`, `VIEW_DIMENSIONS` and `VIEWS_OFFSET`.
public struct ScrollerMetrics: Sendable, Hashable, Codable {
    /// Space on each side of a tile (`VIEW_PADDING`).
    public var padding: Int
    /// A tile's width and height (`VIEW_DIMENSIONS`).
    public var dimension: Int
    /// Space before the first tile and after the last (`VIEWS_OFFSET`).
    public var offset: Int

    /// Creates metrics; `dimension` must be positive, the others non-negative.
    public init(padding: Int, dimension: Int, offset: Int) {
        precondition(padding >= 0 && dimension > 0 && offset >= 0, "invalid scroller metrics")
        self.padding = padding
        self.dimension = dimension
        self.offset = offset
    }

    /// The seed app's values: padding 10, dimension 100, offset 100.
    public static let seed = ScrollerMetrics(padding: 10, dimension: 100, offset: 100)

    /// The distance from one tile's left edge to the next: `dimension + 2·padding`.
    public var stride: Int { dimension + 2 * padding }
}
