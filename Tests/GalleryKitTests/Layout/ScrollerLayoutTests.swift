import PropertyBased
import Testing

@testable import GalleryKit

@Suite struct ScrollerLayoutTests {
    let layout = ScrollerLayout(count: 5)

    @Test(arguments: [
        (0, 110), (1, 230), (2, 350), (3, 470), (4, 590),
    ])
    func placesTilesAtTheSeedPositions(index: Int, x: Int) {
        #expect(layout.frame(at: index) == TileFrame(x: x, y: 10, width: 100, height: 100))
    }

    @Test func contentWidthAndHeightFollowTheSeed() {
        #expect(layout.contentWidth == 100 + 5 * 120 + 100)
        #expect(layout.stripHeight == 120)
        #expect(ScrollerLayout(count: 0).contentWidth == 200)
    }

    @Test(arguments: [
        // (content offset, centred index): boundaries of (⌊x⌋ + 60) / 120.
        (0.0, 0), (59.0, 0), (59.99, 0), (60.0, 1), (179.0, 1), (180.0, 2), (240.0, 2),
        (299.5, 2), (300.0, 3), (420.0, 4), (5000.0, 4), (-500.0, 0), (-60.5, 0),
    ])
    func centresTheTileTheDragEndsNearest(offset: Double, index: Int) {
        #expect(layout.centredIndex(forContentOffset: offset) == index)
    }

    @Test func browserScrollOffsetsMapToTheSeedsFormula() {
        for x in stride(from: -100.0, through: 700, by: 7.5) {
            #expect(layout.centredIndex(forScrollOffset: x, viewportWidth: 320) == layout.centredIndex(forContentOffset: x))
        }
        // On a 1280-pixel screen at scroll 0 the viewport's middle (640) is tile 4's middle.
        let wide = ScrollerLayout(count: 10)
        #expect(wide.centredIndex(forScrollOffset: 0, viewportWidth: 1280) == 4)
        for index in 0..<10 {
            #expect(wide.centredIndex(forScrollOffset: wide.centringOffset(for: index, viewportWidth: 1280), viewportWidth: 1280) == index)
        }
    }

    @Test func snapsToTheCentredTilesOffset() {
        #expect(layout.snappedContentOffset(forContentOffset: 185) == 240)
        #expect(layout.snappedContentOffset(forContentOffset: 10_000) == 480)
    }

    @Test(arguments: [
        (110.0, 10.0, 0 as Int?), (209.99, 50.0, 0), (210.0, 50.0, nil), (229.0, 50.0, nil),
        (230.0, 10.0, 1), (300.0, 109.99, 1), (300.0, 110.0, nil), (300.0, 9.99, nil),
        (50.0, 50.0, nil), (689.0, 50.0, 4), (710.0, 50.0, nil),
    ])
    func hitTestsTilesButNotTheGaps(x: Double, y: Double, index: Int?) {
        #expect(layout.tileIndex(atX: x, y: y) == index)
    }

    @Test func centringOffsetOnTheSeedScreenIsTheInitialOffset() {
        for index in 0..<5 {
            #expect(layout.centringOffset(for: index, viewportWidth: 320) == Double(layout.initialContentOffset(showing: index)))
        }
        #expect(layout.centringOffset(for: 2, viewportWidth: 1280) == 350 + 50 - 640)
    }

    @Test func clampsInitialIndexFromTheDataSource() {
        struct Source: ScrollerDataSource {
            var numberOfTiles: Int
            var initialTileIndex: Int?
            func tile(at index: Int) -> Int { index }
        }
        #expect(layout.initialIndex(for: Source(numberOfTiles: 5, initialTileIndex: 9)) == 4)
        #expect(layout.initialIndex(for: Source(numberOfTiles: 5, initialTileIndex: -3)) == 0)
        #expect(layout.initialIndex(for: Source(numberOfTiles: 5, initialTileIndex: nil)) == 0)
        #expect(ScrollerLayout(dataSource: Source(numberOfTiles: 7, initialTileIndex: nil)).count == 7)
        #expect(layout.initialContentOffset(showing: 99) == 4 * 120)
    }

    @Test(arguments: [
        (0.0, 320.0, 0..<2), (0.0, 111.0, 0..<1), (0.0, 110.0, 0..<0), (210.0, 20.0, 0..<0),
        (209.0, 22.0, 0..<2), (240.0, 320.0, 1..<4), (240.0, 351.0, 1..<5), (690.0, 100.0, 0..<0), (-1000.0, 5000.0, 0..<5),
    ])
    func visibleRangeCoversExactlyTheTilesInView(x: Double, width: Double, range: Range<Int>) {
        #expect(layout.visibleRange(viewportX: x, width: width) == range)
    }

    @Test(arguments: [
        // (tiles, centred on, tiles a 1280 px viewport shows when it opens there)
        (100, 50, 45..<56), (100, 0, 0..<10), (100, 4, 0..<10), (100, 99, 90..<100),
        (100, 95, 90..<100), (5, 3, 0..<5), (0, 0, 0..<0),
    ])
    func opensShowingTheTilesAroundTheCentredOne(count: Int, index: Int, range: Range<Int>) {
        #expect(ScrollerLayout(count: count).initiallyVisibleRange(centredOn: index, viewportWidth: 1280) == range)
    }

    @Test func opensShowingTheCentredTileAndNoMoreThanFits() async {
        await propertyCheck(input: Self.padding, Self.dimension, Self.offset, Gen.int(in: 1...80), Gen.int(in: 0...79), Gen.double(in: 300...3000)) { padding, dimension, offset, count, index, width in
            let layout = ScrollerLayout(count: count, metrics: ScrollerMetrics(padding: padding, dimension: dimension, offset: offset))
            let range = layout.initiallyVisibleRange(centredOn: index, viewportWidth: width)
            if Double(dimension) <= width { #expect(range.contains(layout.clamped(index))) }
            #expect(range.count <= Int((width / Double(layout.stride)).rounded(.up)) + 1)
            // A strip narrower than the viewport shows every tile.
            if Double(layout.contentWidth) <= width { #expect(range == 0..<count) }
        }
    }

    @Test func windowIsClampedToTheStrip() {
        let big = ScrollerLayout(count: 100)
        #expect(big.window(around: 50, radius: 15) == 35..<66)
        #expect(big.window(around: 3, radius: 15) == 0..<19)
        #expect(big.window(around: 99, radius: 15) == 84..<100)
        #expect(ScrollerLayout(count: 0).window(around: 0, radius: 15) == 0..<0)
    }

    // MARK: - Properties against the seed's own code

    static let padding = Gen.int(in: 0...40)
    static let dimension = Gen.int(in: 1...300)
    static let offset = Gen.int(in: 0...300)

    @Test func framesAndWidthMatchTheSeedForAnyMetrics() async {
        await propertyCheck(input: Self.padding, Self.dimension, Self.offset, Gen.int(in: 0...60)) { padding, dimension, offset, count in
            let seed = SeedScroller(padding: padding, dimensions: dimension, offset: offset, count: count)
            let (frames, width) = seed.reload()
            let layout = ScrollerLayout(count: count, metrics: ScrollerMetrics(padding: padding, dimension: dimension, offset: offset))
            #expect(Double(layout.contentWidth) == width)
            for (index, frame) in frames.enumerated() {
                let ours = layout.frame(at: index)
                #expect(Double(ours.x) == frame.x && Double(ours.y) == frame.y && Double(ours.width) == frame.width)
            }
        }
    }

    @Test func centredIndexIsTheSeedsClamped() async {
        await propertyCheck(input: Self.padding, Self.dimension, Self.offset, Gen.int(in: 1...60), Gen.double(in: -2000...20_000)) { padding, dimension, offset, count, x in
            let seed = SeedScroller(padding: padding, dimensions: dimension, offset: offset, count: count)
            let layout = ScrollerLayout(count: count, metrics: ScrollerMetrics(padding: padding, dimension: dimension, offset: offset))
            let expected = min(max(seed.centerCurrentView(contentOffsetX: x).index, 0), count - 1)
            #expect(layout.centredIndex(forContentOffset: x) == expected)
        }
    }

    @Test func tappingFindsTheSeedsTileAndOffset() async {
        await propertyCheck(input: Self.padding, Self.dimension, Self.offset, Gen.int(in: 1...30), Gen.double(in: -50...4000), Gen.double(in: -10...400)) { padding, dimension, offset, count, x, y in
            let seed = SeedScroller(padding: padding, dimensions: dimension, offset: offset, count: count)
            let layout = ScrollerLayout(count: count, metrics: ScrollerMetrics(padding: padding, dimension: dimension, offset: offset))
            let expected = seed.tapped(x: x, y: y, width: 375)
            let index = layout.tileIndex(atX: x, y: y)
            #expect(index == expected?.index)
            if let index, let expected {
                #expect(layout.centringOffset(for: index, viewportWidth: 375) == expected.offset)
            }
        }
    }

    @Test func visibleRangeIsExactlyTheIntersectingFrames() async {
        await propertyCheck(input: Self.padding, Self.dimension, Self.offset, Gen.int(in: 0...40), Gen.double(in: -500...6000), Gen.double(in: 0...1500)) { padding, dimension, offset, count, x, width in
            let layout = ScrollerLayout(count: count, metrics: ScrollerMetrics(padding: padding, dimension: dimension, offset: offset))
            let expected = (0..<count).filter { index in
                let frame = layout.frame(at: index)
                return Double(frame.x + frame.width) > x && Double(frame.x) < x + width
            }
            #expect(Array(layout.visibleRange(viewportX: x, width: width)) == expected)
        }
    }
}
