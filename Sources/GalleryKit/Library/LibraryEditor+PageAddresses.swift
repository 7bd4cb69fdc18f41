extension LibraryEditor {
    /// The album to insert at `index` of `albums` so that no album already there moves to
    /// another page address: one without a slug of its own whose derived slug would be taken
    /// first from a later album of the same artist and title (which would move to `…-2`) gets
    /// the slug it would have at the end, as its own.
    static func keepingPageAddresses(inserting album: Album, at index: Int, into albums: [Album]) -> Album {
        guard album.slug == nil, index < albums.count else { return album }
        var placed = albums
        placed.insert(album, at: index)
        var after = slugs(placed)
        after.remove(at: index)
        guard after != slugs(albums) else { return album }
        var pinned = album
        pinned.slug = Catalogue(albums: albums + [album]).entries.last?.slug
        return pinned
    }

    /// The edited album to put at `index` of `albums` so that no other album moves to another
    /// page address: when its new derived slug would take another album's, or give up one that a
    /// later album of the same artist and title would move into, it keeps the slug it had.
    static func keepingPageAddresses(editing album: Album, at index: Int, in albums: [Album]) -> Album {
        guard album.slug == nil, albums[index].slug == nil else { return album }
        let (before, after) = addresses(replacing: index, with: album, in: albums)
        guard before.indices.contains(where: { $0 != index && before[$0] != after[$0] }) else { return album }
        var pinned = album
        pinned.slug = before[index]
        return pinned
    }

    /// The albums that would move to another page address if the album at `index` of `albums`
    /// were deleted (later ones whose derived slug would take the one it frees, or move down one
    /// in a run of twins), with their index after the delete and the slug they have now, to
    /// keep as their own.
    static func keepingPageAddresses(deletingAt index: Int, from albums: [Album]) -> [(index: Int, slug: String)] {
        var remaining = albums
        remaining.remove(at: index)
        let before = slugs(albums)
        let after = slugs(remaining)
        return remaining.indices.compactMap { position in
            let old = before[position < index ? position : position + 1]
            return remaining[position].slug == nil && after[position] != old ? (position, old) : nil
        }
    }

    /// Refuses to take away the own slug of the album at `index` (`--slug ""`) when the slug it
    /// would derive instead moves another album to another page address.
    static func checkUnpinningMovesNobody(_ album: Album, at index: Int, in albums: [Album]) throws(LibraryError) {
        let (before, after) = addresses(replacing: index, with: album, in: albums)
        guard let moved = before.indices.first(where: { $0 != index && before[$0] != after[$0] }) else { return }
        throw LibraryError(
            "without its own slug album \(index + 1) would be at \(SitePlan.albumFolder(slug: after[index])) and album \(moved + 1)'s page would move from \(SitePlan.albumFolder(slug: before[moved])) to \(SitePlan.albumFolder(slug: after[moved])); keep album \(index + 1)'s slug, or give it another with --slug"
        )
    }

    /// Every album's page address (its slug, given or derived), in archive order.
    static func slugs(_ albums: [Album]) -> [String] {
        Catalogue(albums: albums).entries.map(\.slug)
    }

    /// Every album's page address before and after the album at `index` is replaced by `album`.
    static func addresses(replacing index: Int, with album: Album, in albums: [Album]) -> (before: [String], after: [String]) {
        var edited = albums
        edited[index] = album
        return (slugs(albums), slugs(edited))
    }
}

extension LibraryEditor {
    /// Gives each album of the archive whose page address moved in `albums` (the archive's
    /// albums, `original`, some of them changed by an import's update, then the albums it
    /// appended) the address it had, as its own slug, and returns those albums' indices and
    /// slugs. `except` are the albums to which the file gave a new slug: they move as asked.
    static func keepingPageAddresses(of original: [Album], in albums: inout [Album], except: Set<Int>) -> [(index: Int, slug: String)] {
        let before = slugs(original)
        var pinned: [(index: Int, slug: String)] = []
        // Keeping one address can free or take one that another album derives: again until
        // none moves (each round pins at least one album, so it ends).
        while true {
            let after = slugs(albums)
            let moved = original.indices.filter { !except.contains($0) && albums[$0].slug == nil && after[$0] != before[$0] }
            guard !moved.isEmpty else { return pinned }
            for index in moved {
                albums[index].slug = before[index]
                pinned.append((index, before[index]))
            }
        }
    }
}
