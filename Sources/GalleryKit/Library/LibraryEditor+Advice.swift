import Foundation

extension LibraryEditor {
    /// What is worth telling the user about the album an `add` or `edit` just placed, though it
    /// is no reason to refuse it: another album with the same artist and title (which `import`
    /// would have skipped as a duplicate), and a cover the build will not find or will refuse.
    ///
    /// An edit is only told about what it changed: a new artist or title, a new cover.
    public func advice(after change: LibraryChange) -> [String] {
        let index: Int, album: Album, before: Album?
        switch change {
        case .added(let at, let added): (index, album, before) = (at, added, nil)
        case .edited(let at, let old, let new): (index, album, before) = (at, new, old)
        case .deleted, .imported: return []
        }
        let number = index + 1
        var notes: [String] = []
        if before.map(Self.identity) != Self.identity(album), let archive = try? load() {
            for (other, twin) in archive.albums.enumerated() where other != index && Self.identity(twin) == Self.identity(album) {
                notes.append("album \(other + 1) is also \(LibraryChange.name(twin)); if album \(number) is one too many, `gallery undo` takes the change back")
            }
        }
        // A new title or artist gives a derived slug a new page address: published links to the
        // old one would break, so say so, and how to keep it.
        if let before, before.slug == nil, album.slug == nil, before.title != album.title || before.artist != album.artist,
           let archive = try? load(), archive.albums.indices.contains(index) {
            var earlier = archive.albums
            earlier[index] = before
            let old = Catalogue(albums: earlier).entries[index].slug
            let new = Catalogue(albums: archive.albums).entries[index].slug
            if old != new {
                notes.append("album \(number)'s page moves from \(SitePlan.albumFolder(slug: old)) to \(SitePlan.albumFolder(slug: new)), so links to the old address will break; `gallery edit \(number) --slug \(old)` keeps the old one")
            }
        }
        if before?.coverURL != album.coverURL {
            switch CoverLocator(site: site).locate(album.coverURL) {
            case .success(.file(let file)) where !FileManager.default.fileExists(atPath: file.path):
                notes.append("album \(number)'s cover \(site.display(file)) does not exist yet; the album shows a placeholder until it does")
            case .success(.file(let file)) where (try? file.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true:
                notes.append("album \(number)'s cover \(site.display(file)) is a folder, not an image; the album shows a placeholder until cover_url names an image")
            case .failure(let refusal):
                notes.append("album \(number)'s cover cannot be used: \(refusal.reason); the album shows a placeholder until it is changed")
            case .success:
                break
            }
        }
        return notes
    }
}
