extension LibraryEditor {
    /// The album to insert at `index` of `albums` so that no album already there moves to
    /// another page address: one without a slug of its own whose derived slug would be taken
    /// first from a later album of the same artist and title (which would move to `…-2`) gets
    /// the slug it would have at the end, as its own.
    static func keepingPageAddresses(inserting album: Album, at index: Int, into albums: [Album]) -> Album {
        guard album.slug == nil, index < albums.count else { return album }
        var placed = albums
        placed.insert(album, at: index)
        var after = Catalogue(albums: placed).entries.map(\.slug)
        after.remove(at: index)
        guard after != Catalogue(albums: albums).entries.map(\.slug) else { return album }
        var pinned = album
        pinned.slug = Catalogue(albums: albums + [album]).entries.last?.slug
        return pinned
    }

    /// The edited album to put at `index` of `albums` so that no other album moves to another
    /// page address: when its new derived slug would take another album's, or give up one that a
    /// later album of the same artist and title would move into, it keeps the slug it had.
    static func keepingPageAddresses(editing album: Album, at index: Int, in albums: [Album]) -> Album {
        guard album.slug == nil, albums[index].slug == nil else { return album }
        var edited = albums
        edited[index] = album
        let before = Catalogue(albums: albums).entries.map(\.slug)
        let after = Catalogue(albums: edited).entries.map(\.slug)
        guard before.indices.contains(where: { $0 != index && before[$0] != after[$0] }) else { return album }
        var pinned = album
        pinned.slug = before[index]
        return pinned
    }
}
