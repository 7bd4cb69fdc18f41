// A line-by-line transcription of the seed's HorizontalScroller (Objective-C, 2013), used as the
// reference model the layout engine is checked against. Only the arithmetic is kept.

struct SeedScroller {
    var padding = 10      // VIEW_PADDING
    var dimensions = 100  // VIEW_DIMENSIONS
    var offset = 100      // VIEWS_OFFSET
    var count: Int

    struct Rect: Equatable { var x: Double; var y: Double; var width: Double; var height: Double }

    /// reload: xValue starts at VIEWS_OFFSET; each view adds padding, takes its frame, adds
    /// dimension + padding; the content size is xValue + VIEWS_OFFSET.
    func reload() -> (frames: [Rect], contentWidth: Double) {
        var frames: [Rect] = []
        var xValue = Double(offset)
        for _ in 0..<count {
            xValue += Double(padding)
            frames.append(Rect(x: xValue, y: Double(padding), width: Double(dimensions), height: Double(dimensions)))
            xValue += Double(dimensions + padding)
        }
        return (frames, xValue + Double(offset))
    }

    /// The initial view: setContentOffset(initialView * (VIEW_DIMENSIONS + 2 * VIEW_PADDING)).
    func initialOffset(_ initialView: Int) -> Double {
        Double(initialView * (dimensions + 2 * padding))
    }

    /// centerCurrentView: int xFinal = contentOffset.x + VIEWS_OFFSET/2 + VIEW_PADDING;
    /// int viewIndex = xFinal / (VIEW_DIMENSIONS + 2 * VIEW_PADDING); then xFinal = viewIndex * stride.
    func centerCurrentView(contentOffsetX: Double) -> (index: Int, offset: Int) {
        let xFinal = Int(contentOffsetX.rounded(.down)) + offset / 2 + padding
        let viewIndex = xFinal / (dimensions + 2 * padding)
        return (viewIndex, viewIndex * (dimensions + 2 * padding))
    }

    /// scrollerTapped: the first view whose frame contains the point, centred with
    /// view.frame.origin.x - self.frame.size.width/2 + view.frame.size.width/2.
    func tapped(x: Double, y: Double, width: Double) -> (index: Int, offset: Double)? {
        for (index, frame) in reload().frames.enumerated()
        where x >= frame.x && x < frame.x + frame.width && y >= frame.y && y < frame.y + frame.height {
            return (index, frame.x - width / 2 + frame.width / 2)
        }
        return nil
    }
}
