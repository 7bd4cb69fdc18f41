import Testing

@testable import GalleryKit

/// Library changes never move another album to a new page address (a published URL).
@Suite struct PageAddressTests {
    static func album(_ title: String, _ artist: String = "Sting", slug: String? = nil) -> Album {
        Album(title: title, artist: artist, genre: "Pop", year: 1999, coverURL: "c.png", slug: slug)
    }

    static func slugs(_ albums: [Album]) -> [String] { Catalogue(albums: albums).entries.map(\.slug) }

    let albums = [album("Best of"), album("Sun"), album("Moon")]

    @Test func aTwinInsertedBeforeItsOriginalTakesTheNextFreeSlug() {
        let twin = Self.album("Sun")
        let placed = LibraryEditor.keepingPageAddresses(inserting: twin, at: 0, into: albums)
        #expect(placed.slug == "sting-sun-2")
        var after = albums
        after.insert(placed, at: 0)
        #expect(Self.slugs(after) == ["sting-sun-2", "sting-best-of", "sting-sun", "sting-moon"])
        // Unpinned it would have taken the original's address.
        #expect(Self.slugs([twin] + albums)[2] == "sting-sun-2")
        // Anything that moves nobody stays as it is: a new title, or a twin at the end.
        #expect(LibraryEditor.keepingPageAddresses(inserting: Self.album("Stars"), at: 0, into: albums).slug == nil)
        #expect(LibraryEditor.keepingPageAddresses(inserting: twin, at: 3, into: albums).slug == nil)
        #expect(LibraryEditor.keepingPageAddresses(inserting: Self.album("Sun", slug: "own"), at: 0, into: albums).slug == "own")
    }

    @Test func anEditThatWouldMoveAnotherAlbumKeepsItsOwnSlug() {
        // Retitled to the title of a later album, album 1 would take its address.
        var retitled = albums[0]
        retitled.title = "Moon"
        let kept = LibraryEditor.keepingPageAddresses(editing: retitled, at: 0, in: albums)
        #expect(kept.slug == "sting-best-of")
        var after = albums
        after[0] = kept
        #expect(Self.slugs(after) == ["sting-best-of", "sting-sun", "sting-moon"])
        // Retitled away from a title a later twin shares, album 2 would hand its address over.
        let twins = [Self.album("Sun"), Self.album("Sun"), Self.album("Moon")]
        #expect(Self.slugs(twins) == ["sting-sun", "sting-sun-2", "sting-moon"])
        var away = twins[0]
        away.title = "Stars"
        let keeping = LibraryEditor.keepingPageAddresses(editing: away, at: 0, in: twins)
        #expect(keeping.slug == "sting-sun")
        #expect(Self.slugs([keeping, twins[1], twins[2]]) == ["sting-sun", "sting-sun-2", "sting-moon"])
        // A retitle that moves nobody else changes the album's own derived address, as before.
        var plain = albums[1]
        plain.title = "Stars"
        #expect(LibraryEditor.keepingPageAddresses(editing: plain, at: 1, in: albums).slug == nil)
    }
}
