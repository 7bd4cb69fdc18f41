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

    /// A state whose covers were set without the fetch step: each URL's result is its first album's.
    @Test func slotsMadeFromCoversByAlbumTakeEachURLsFirstAlbum() {
        let entries = Self.entries(["x.png", "y.png", "x.png"])
        let covers: [Result<Cover, CoverFailure>] = [
            .success(Cover(file: URL(fileURLWithPath: "/x.png"), kind: .png, contentHash: "x", size: 1)),
            .failure(CoverFailure(url: "y.png", reason: "gone")),
            .success(Cover(file: URL(fileURLWithPath: "/x.png"), kind: .png, contentHash: "x", size: 1)),
        ]
        let slots = CoverSlots(entries, covers: covers)
        #expect(slots.results.count == 2)
        #expect((try? slots.results[0].get())?.contentHash == "x")
        if case .failure(let failure) = slots.results[1] { #expect(failure.reason == "gone") } else { Issue.record("y.png should have failed") }
        // Fewer covers than albums (a state made by hand): the rest are "not fetched".
        let short = CoverSlots(entries, covers: [])
        #expect(short.results.map { if case .failure(let failure) = $0 { failure.reason } else { "" } } == ["not fetched", "not fetched"])
    }
}
