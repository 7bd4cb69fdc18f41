/// Supplies the scroller's tiles: the seed's `HorizontalScrollerDelegate` as a data source.
///
/// The layout engine asks how many tiles there are, what is at an index, and optionally which tile
/// shows first; it never learns what a tile is.
public protocol ScrollerDataSource: Sendable {
    /// What the strip shows at each position.
    associatedtype Tile: Sendable

    /// The number of tiles (`numberOfViewsForHorizontalScroller:`).
    var numberOfTiles: Int { get }

    /// The tile at `index`, from 0 (`horizontalScroller:viewAtIndex:`).
    func tile(at index: Int) -> Tile

    /// The tile shown first, or `nil` for the first (`initialViewIndexForHorizontalScroller:`,
    /// optional in the seed). Out-of-range values are clamped.
    var initialTileIndex: Int? { get }
}

extension ScrollerDataSource {
    /// By default the strip starts at its first tile, as the seed's scroller does when its delegate
    /// does not implement the optional method.
    public var initialTileIndex: Int? { nil }
}
