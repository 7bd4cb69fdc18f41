/// The seed's `HorizontalScroller` arithmetic, as pure functions of the metrics and the tile count.
///
/// One engine serves the HTML strip, the SVG strip and the browser script (which receives the same
/// constants), so all three place tiles identically. Offsets are content offsets: how far the strip
/// is scrolled, `scrollLeft` in the browser and `contentOffset.x` in the app.
public struct ScrollerLayout: Sendable, Hashable {
    /// The constants.
    public let metrics: ScrollerMetrics
    /// The number of tiles.
    public let count: Int

    /// Creates a layout for `count` tiles.
    public init(count: Int, metrics: ScrollerMetrics = .seed) {
        precondition(count >= 0, "a negative tile count")
        self.count = count
        self.metrics = metrics
    }

    /// Creates a layout for a data source's tiles.
    public init<Source: ScrollerDataSource>(dataSource: Source, metrics: ScrollerMetrics = .seed) {
        self.init(count: dataSource.numberOfTiles, metrics: metrics)
    }

    /// The distance between neighbouring tiles' left edges.
    public var stride: Int { metrics.stride }

    /// The frame of tile `index`: x = offset + padding + index·stride, y = padding.
    public func frame(at index: Int) -> TileFrame {
        TileFrame(
            x: metrics.offset + metrics.padding + index * stride,
            y: metrics.padding,
            width: metrics.dimension,
            height: metrics.dimension
        )
    }

    /// The strip's scrollable width: offset + count·stride + offset.
    public var contentWidth: Int { metrics.offset + count * stride + metrics.offset }

    /// The strip's height: dimension + 2·padding.
    public var stripHeight: Int { metrics.dimension + 2 * metrics.padding }

    /// `index` clamped to the tiles that exist (0 when there are none).
    public func clamped(_ index: Int) -> Int {
        count == 0 ? 0 : min(max(index, 0), count - 1)
    }

    /// The index a data source asks to show first, clamped; 0 when it does not say.
    public func initialIndex<Source: ScrollerDataSource>(for dataSource: Source) -> Int {
        clamped(dataSource.initialTileIndex ?? 0)
    }

    /// The content offset that shows tile `index` first, as the app does on load: index·stride.
    ///
    /// On the seed's 320-point screen this centres the tile exactly; for other widths use
    /// ``centringOffset(for:viewportWidth:)``.
    public func initialContentOffset(showing index: Int) -> Int {
        clamped(index) * stride
    }

    /// The tile centred after a drag or scroll ends at content offset `x` (`centerCurrentView`):
    /// (⌊x⌋ + offset/2 + padding) / stride in integer division, clamped to the tiles.
    public func centredIndex(forContentOffset x: Double) -> Int {
        guard x.isFinite else { return 0 }
        let floored = Int(max(min(x, 1e15), -1e15).rounded(.down))
        return clamped((floored + metrics.offset / 2 + metrics.padding) / stride)
    }

    /// The tile centred after a scroll ends at `scrollLeft` in a viewport `viewportWidth` wide, as
    /// the browser script computes it: ``centredIndex(forContentOffset:)`` of the seed's content
    /// offset, which is the scroll position less what centring tile 0 takes in this viewport
    /// (nothing on the seed's 320-point screen).
    public func centredIndex(forScrollOffset scrollLeft: Double, viewportWidth: Double) -> Int {
        centredIndex(forContentOffset: scrollLeft - centringOffset(for: 0, viewportWidth: viewportWidth))
    }

    /// The offset the strip snaps to when a drag ends at `x`: the centred index times the stride,
    /// as `centerCurrentView` sets it.
    public func snappedContentOffset(forContentOffset x: Double) -> Int {
        centredIndex(forContentOffset: x) * stride
    }

    /// The tile whose frame contains a point in strip coordinates, or `nil` in the gaps and
    /// outside the strip (`scrollerTapped:`).
    public func tileIndex(atX x: Double, y: Double) -> Int? {
        guard x.isFinite, y.isFinite else { return nil }
        let relative = x - Double(metrics.offset + metrics.padding)
        guard relative >= 0 else { return nil }
        let candidate = Int((relative / Double(stride)).rounded(.down))
        guard candidate < count, frame(at: candidate).contains(x: x, y: y) else { return nil }
        return candidate
    }

    /// The content offset that centres tile `index` in a viewport `viewportWidth` wide:
    /// frame.x − W/2 + frame.width/2, as `scrollerTapped:` scrolls.
    public func centringOffset(for index: Int, viewportWidth: Double) -> Double {
        let frame = frame(at: clamped(index))
        return Double(frame.x) - viewportWidth / 2 + Double(frame.width) / 2
    }

    /// The tiles at least partly inside the viewport `[x, x + width)`: what a virtualised strip
    /// must draw. Empty when the viewport shows only the offsets or padding.
    public func visibleRange(viewportX x: Double, width: Double) -> Range<Int> {
        guard count > 0, width > 0, x.isFinite, width.isFinite else { return 0..<0 }
        let start = Double(metrics.offset + metrics.padding)
        let stride = Double(self.stride)
        let dimension = Double(metrics.dimension)
        // First tile whose right edge is past x: start + i·stride + dimension > x.
        let first = max(0, Int(((x - start - dimension) / stride).rounded(.down)) + 1)
        // Last tile whose left edge is before x + width: start + i·stride < x + width.
        let lastExclusive = min(count, Int(((x + width - start) / stride).rounded(.up)))
        return first < lastExclusive ? first..<lastExclusive : 0..<0
    }

    /// The tiles a viewport `width` wide shows when it opens centred on tile `index`, as the
    /// browser script opens the strip: the centring offset, kept inside the strip's scrollable
    /// width as a browser keeps `scrollLeft`.
    public func initiallyVisibleRange(centredOn index: Int, viewportWidth width: Double) -> Range<Int> {
        guard count > 0, width > 0, width.isFinite else { return 0..<0 }
        let furthest = max(0, Double(contentWidth) - width)
        let x = min(max(0, centringOffset(for: index, viewportWidth: width)), furthest)
        return visibleRange(viewportX: x, width: width)
    }

    /// The tiles within `radius` places of `index` (the window an album page carries).
    public func window(around index: Int, radius: Int) -> Range<Int> {
        guard count > 0 else { return 0..<0 }
        let centre = clamped(index)
        return max(0, centre - radius)..<min(count, centre + radius + 1)
    }
}
