import Foundation
import Testing
@testable import GalleryKit

/// The fetch and thumbnails steps find each album's cover by its URL's slot: a slot wrong by one
/// shows another album's cover, and a URL counted twice is fetched and reported twice.
@Suite struct CoverSlotsTests {
    static func entries(_ urls: [String]) -> [Catalogue.Entry] {
        Catalogue(albums: urls.enumerated().map { Album(title: "T\($0.offset)", artist: "A", genre: "G", year: 2000, coverURL: $0.element) }).entries
    }

    @Test func eachDistinctURLHasOneSlotInTheOrderFirstNamed() {
        let slots = CoverSlots(Self.entries(["b.png", "a.png", "b.png", "c.png", "a.png", "b.png"]))
        #expect(slots.urls == ["b.png", "a.png", "c.png"])
        #expect(slots.firstAlbum == [0, 1, 3])
        #expect(slots.ofAlbum == [0, 1, 0, 2, 1, 0])
        #expect(CoverSlots(Self.entries([])).urls.isEmpty)
    }

    @Test func eachAlbumGetsItsOwnURLsResult() {
        var slots = CoverSlots(Self.entries(["b.png", "a.png", "b.png", "missing.png", "a.png"]))
        slots.results = slots.urls.map { url in
            url == "missing.png"
                ? .failure(CoverFailure(url: url, reason: "no such file"))
                : .success(Cover(file: URL(fileURLWithPath: "/site/content/" + url), kind: .png, contentHash: url, size: 1))
        }
        let perAlbum = slots.perAlbum.map { result in
            switch result {
            case .success(let cover): cover.file.lastPathComponent
            case .failure(let failure): "failed: " + failure.url
            }
        }
        #expect(perAlbum == ["b.png", "a.png", "b.png", "failed: missing.png", "a.png"])
    }

    /// A build state has each album's cover from its URL's slot, and each cover once for the
    /// preview's watcher, however many albums share it.
    @Test func aStateHasEachAlbumsCoverAndEachCoverOnce() {
        var state = BuildState(options: BuildOptions(site: SiteFolder(root: URL(fileURLWithPath: "/site"))))
        #expect(state.covers.isEmpty && state.distinctCovers.isEmpty)
        var slots = CoverSlots(Self.entries(["x.png", "y.png", "x.png"]))
        slots.results = [
            .success(Cover(file: URL(fileURLWithPath: "/x.png"), kind: .png, contentHash: "x", size: 1)),
            .failure(CoverFailure(url: "y.png", reason: "gone")),
        ]
        state.coverSlots = slots
        #expect(state.covers.map { (try? $0.get())?.contentHash } == ["x", nil, "x"])
        #expect(state.distinctCovers.map(\.contentHash) == ["x"])
    }

    /// A pipeline without the fetch step: every album's cover is "not fetched" (a placeholder).
    @Test func unfetchedSlotsGiveEveryAlbumNotFetched() {
        let slots = CoverSlots(unfetched: Self.entries(["x.png", "y.png", "x.png"]))
        #expect(slots.perAlbum.map { if case .failure(let failure) = $0 { failure.url + ": " + failure.reason } else { "" } } == [
            "x.png: not fetched", "y.png: not fetched", "x.png: not fetched",
        ])
    }
}
