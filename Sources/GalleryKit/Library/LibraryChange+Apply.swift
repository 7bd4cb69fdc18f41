extension AlbumArchive {
    /// The archive with an album inserted at `index` (clamped; `nil` appends).
    func adding(_ album: Album, at index: Int?) -> (AlbumArchive, LibraryChange) {
        var albums = self.albums
        let position = min(max(index ?? albums.count, 0), albums.count)
        albums.insert(album, at: position)
        return (with(albums: albums), .added(index: position, album: album))
    }

    /// The archive without the album at `index`; later albums of the same artist and title
    /// whose derived slug would move into the one it leaves keep theirs, as their own.
    func deleting(at index: Int) -> (AlbumArchive, LibraryChange) {
        var albums = self.albums
        let album = albums.remove(at: index)
        let pinned = LibraryEditor.keepingPageAddresses(deletingAt: index, from: self.albums)
        for item in pinned { albums[item.index].slug = item.slug }
        return (
            with(albums: albums),
            .deleted(index: index, album: album, pinned: pinned.isEmpty ? nil : pinned.map { LibraryChange.Placed(index: $0.index, album: albums[$0.index]) })
        )
    }

    /// The archive with the album at `index` replaced.
    func replacing(at index: Int, with album: Album) -> (AlbumArchive, LibraryChange) {
        var albums = self.albums
        let before = albums[index]
        albums[index] = album
        return (with(albums: albums), .edited(index: index, before: before, after: album))
    }

    /// The archive with a change reversed.
    ///
    /// A deleted album comes back at its old index, clamped when the list is now shorter; an
    /// added album is removed and an edit reverted, each found at its recorded index or, if the
    /// archive was edited by hand since, wherever it is now.
    func undoing(_ change: LibraryChange) throws(LibraryError) -> AlbumArchive {
        var albums = self.albums
        switch change {
        case .deleted(let index, let album, let pinned):
            // The pinned albums lose the slugs the delete gave them, then the album comes back.
            for item in pinned ?? [] {
                let position = try Self.locate(item.album, near: item.index, in: albums)
                albums[position].slug = nil
            }
            albums.insert(album, at: min(max(index, 0), albums.count))
        case .added(let index, let album):
            let position = try Self.locate(album, near: index, in: albums)
            albums.remove(at: position)
        case .edited(let index, let before, let after):
            let position = try Self.locate(after, near: index, in: albums)
            albums[position] = before
        case .imported(let placed, let updated):
            for item in placed.sorted(by: { $0.index > $1.index }) {
                let position = try Self.locate(item.album, near: item.index, in: albums)
                albums.remove(at: position)
            }
            for item in updated ?? [] {
                let position = try Self.locate(item.after, near: item.index, in: albums)
                albums[position] = item.before
            }
        case .batch(let changes):
            var archive = self
            for change in changes.reversed() { archive = try archive.undoing(change) }
            return archive
        }
        return with(albums: albums)
    }

    /// The archive with a change made again, after `gallery undo` reversed it: each album
    /// found as the undo left it, at its recorded index or, if the archive was edited by hand
    /// since, wherever it is now.
    func redoing(_ change: LibraryChange) throws(LibraryError) -> AlbumArchive {
        var albums = self.albums
        switch change {
        case .added(let index, let album):
            albums.insert(album, at: min(max(index, 0), albums.count))
        case .deleted(let index, let album, let pinned):
            albums.remove(at: try Self.locate(album, near: index, in: albums))
            for item in pinned ?? [] {
                var unpinned = item.album
                unpinned.slug = nil
                albums[try Self.locate(unpinned, near: item.index, in: albums)] = item.album
            }
        case .edited(let index, let before, let after):
            albums[try Self.locate(before, near: index, in: albums)] = after
        case .imported(let placed, let updated):
            for item in updated ?? [] {
                albums[try Self.locate(item.before, near: item.index, in: albums)] = item.after
            }
            for item in placed.sorted(by: { $0.index < $1.index }) {
                albums.insert(item.album, at: min(max(item.index, 0), albums.count))
            }
        case .batch(let changes):
            var archive = self
            for change in changes { archive = try archive.redoing(change) }
            return archive
        }
        return with(albums: albums)
    }

    private static func locate(_ album: Album, near index: Int, in albums: [Album]) throws(LibraryError) -> Int {
        if albums.indices.contains(index), albums[index] == album { return index }
        if let found = albums.firstIndex(of: album) { return found }
        throw LibraryError("\(LibraryChange.name(album)) is no longer in the archive as it was (was it edited by hand, or was the command that changed it stopped before it saved?)")
    }
}
