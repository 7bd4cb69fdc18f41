/// A tile's rectangle in strip coordinates (origin at the strip's top left), in CSS pixels.
public struct TileFrame: Sendable, Hashable, Codable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a frame.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether a point lies inside: the left and top edges belong to the frame, the right and
    /// bottom ones to what follows (`CGRectContainsPoint`'s rule).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= Double(x) && px < Double(x + width) && py >= Double(y) && py < Double(y + height)
    }
}
