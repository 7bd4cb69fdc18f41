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

    @Test func deletingTheFirstOfTwinsKeepsTheOthersWhereTheyAre() throws {
        let twins = [Self.album("Sun"), Self.album("Moon"), Self.album("Sun"), Self.album("Sun")]
        #expect(Self.slugs(twins) == ["sting-sun", "sting-moon", "sting-sun-2", "sting-sun-3"])
        let (archive, change) = AlbumArchive(albums: twins).deleting(at: 0)
        #expect(Self.slugs(archive.albums) == ["sting-moon", "sting-sun-2", "sting-sun-3"])
        #expect(archive.albums.map(\.slug) == [nil, "sting-sun-2", "sting-sun-3"])
        #expect(change.summary == "deleted album 1, \"Sun\" by Sting; its namesake at albums/sting-sun-2/ keeps that page as its own slug; its namesake at albums/sting-sun-3/ keeps that page as its own slug")
        // Undo gives the twins back their derived slugs: the archive is as it was.
        #expect(try archive.undoing(change).albums == twins)
        // Past three namesakes, one clause: how many, the first page and the last (a delete
        // among 10,000 twins printed a line of 700 KB).
        let many = Array(repeating: Self.album("Sun"), count: 6)
        #expect(AlbumArchive(albums: many).deleting(at: 1).1.summary == "deleted album 2, \"Sun\" by Sting; its 4 namesakes after it keep their pages (albums/sting-sun-3/ … albums/sting-sun-6/) as their own slugs")
        // A delete that moves nobody pins nothing: the last twin, or an album with no twin.
        #expect(AlbumArchive(albums: twins).deleting(at: 3).1 == .deleted(index: 3, album: twins[3]))
        #expect(AlbumArchive(albums: twins).deleting(at: 1).1 == .deleted(index: 1, album: twins[1]))
        // An album with a slug of its own frees it for a twin whose derived slug is the next.
        let own = [Self.album("Sun", slug: "sting-sun"), Self.album("Sun")]
        #expect(Self.slugs(AlbumArchive(albums: own).deleting(at: 0).0.albums) == ["sting-sun-2"])
    }

    @Test func takingAwayASlugThatWouldMoveAnotherAlbumIsRefused() throws {
        // Album 1 was pinned at sting-stars when retitled to a later album's title.
        let albums = [Self.album("Moon", slug: "sting-stars"), Self.album("Moon")]
        var unpinned = albums[0]
        unpinned.slug = nil
        #expect(throws: LibraryError.self) { try LibraryEditor.checkUnpinningMovesNobody(unpinned, at: 0, in: albums) }
        do {
            try LibraryEditor.checkUnpinningMovesNobody(unpinned, at: 0, in: albums)
        } catch {
            #expect(error.reasons == ["without its own slug album 1 would be at albums/sting-moon/ and album 2's page would move from albums/sting-moon/ to albums/sting-moon-2/; keep album 1's slug, or give it another with --slug"])
        }
        // The last of the twins can let its slug go: nobody moves.
        var last = albums[1]
        last.slug = "own"
        try LibraryEditor.checkUnpinningMovesNobody(Self.album("Moon"), at: 1, in: [albums[0], last])
    }
}
