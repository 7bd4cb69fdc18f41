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
        case .deleted, .imported, .batch: return []
        }
        let number = index + 1
        var notes: [String] = []
        let titleChanged = before.map { $0.title != album.title || $0.artist != album.artist } ?? false
        let addressMayMove = titleChanged || (before.map { $0.slug != album.slug } ?? false)
        // Read once, and only when a note needs the other albums.
        let archive = before.map(Self.identity) != Self.identity(album) || addressMayMove ? try? load() : nil
        if before.map(Self.identity) != Self.identity(album), let archive {
            let twins = archive.albums.indices.filter { $0 != index && Self.identity(archive.albums[$0]) == Self.identity(album) }
            // One line for many: 10,000 twins of a shop's "Greatest Hits" were 10,000 lines.
            if twins.count > 3 {
                notes.append("\(twins.count) albums (\(AlbumNumbers.ranges(twins))) are also \(LibraryChange.name(archive.albums[twins[0]])); if album \(number) is one too many, `gallery undo` takes the change back")
            } else {
                for other in twins {
                    notes.append("album \(other + 1) is also \(LibraryChange.name(archive.albums[other])); if album \(number) is one too many, `gallery undo` takes the change back")
                }
            }
        }
        // A new title or artist gives a derived slug a new page address, and so does a new slug
        // or one given up (`--slug ""`): published links to the old one would break, so say so,
        // and how to keep it.
        if addressMayMove, let before, let archive, archive.albums.indices.contains(index) {
            let (new, old) = Self.addresses(replacing: index, with: before, in: archive.albums)
            if old[index] != new[index] {
                notes.append("album \(number)'s page moves from \(SitePlan.albumFolder(slug: old[index])) to \(SitePlan.albumFolder(slug: new[index])), so links to the old address will break; `gallery edit \(number) --slug \(old[index])` keeps the old one")
            }
        }
        if before?.coverURL != album.coverURL, let problem = coverProblem(album.coverURL, maxPixels: maxPixels) {
            notes.append("album \(number)'s cover \(problem.what); the album shows a placeholder until \(problem.until)")
        }
        return notes
    }

    /// What is wrong with a cover the build will not find or will refuse, and until when the
    /// album shows a placeholder; `nil` for a cover that is there, or remote (the build fetches
    /// it).
    /// `maxPixels` is the site's `[thumbnails] max_pixels` (``maxPixels``), read once by the caller.
    func coverProblem(_ coverURL: String, maxPixels: Int) -> (what: String, until: String)? {
        switch CoverLocator(site: site).locate(coverURL) {
        case .success(.file(let file)) where !FileManager.default.fileExists(atPath: file.path):
            return ("\(site.display(file)) does not exist yet\(Library.missingCoverHint(coverURL, file: file) ?? "")", "it does")
        case .success(.file(let file)) where (try? file.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true:
            return ("\(site.display(file)) is a folder, not an image", "cover_url names an image")
        case .failure(let refusal):
            return ("cannot be used: \(refusal.reason)", "it is changed")
        case .success(.file(let file)):
            // The build reads the first bytes the same way, and refuses such a file.
            guard let head = Self.headIfNotAnImage(file) else { return pixelProblem(file, limit: maxPixels) }
            if let known = NotACover.identify(head) {
                return ("\(site.display(file)) is \(known.what)", "cover_url names a JPEG, PNG, WebP, GIF or SVG image; \(known.advice)")
            }
            return ("\(site.display(file)) is not a JPEG, PNG, WebP, GIF or SVG image", "cover_url names an image")
        case .success:
            return nil
        }
    }

    /// Why the build would refuse an image file for its size, read from its header (as the build
    /// reads it, before decoding a pixel) against `[thumbnails] max_pixels`; `nil` when it fits,
    /// or cannot be told here (no libvips, an unreadable file or settings: the build says why).
    private func pixelProblem(_ file: URL, limit: Int) -> (what: String, until: String)? {
        guard Thumbnailer.libraryProblem == nil, let data = try? Data(contentsOf: file),
              let (width, height) = try? Thumbnailer.dimensions(of: Array(data)) else { return nil }
        do throws(ThumbnailError) {
            try Thumbnailer(maxPixels: limit).check(width: width, height: height)
            return nil
        } catch {
            return ("\(site.display(file)): \(error.description)", "it is smaller")
        }
    }

    /// The site's `[thumbnails] max_pixels`, as the build will read it (the default when
    /// `gallery.toml` cannot be read: the build says why).
    var maxPixels: Int {
        (try? SiteConfig.load(from: site).config.thumbnails.maxPixels) ?? SiteConfig.Thumbnails().maxPixels
    }

    /// A file's first 4 KB when they are none of the image formats a cover may be; `nil` for an
    /// image, and for a file that cannot be read (left to the build, which says why).
    private static func headIfNotAnImage(_ file: URL) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4096) ?? Data() else { return nil }
        return ImageKind.sniff(head) == nil ? head : nil
    }

    /// The cover problems of albums an import appended or gave a new cover (see
    /// ``coverProblem(_:maxPixels:)``), one line per cover, however many albums share it:
    /// `albums 7, 9–12 (5): cover … does not exist yet`.
    public func importAdvice(for report: ImportReport) -> [String] {
        guard case .imported(let placed, let updated)? = report.change else { return [] }
        let newCovers = (updated ?? []).filter { $0.before.coverURL != $0.after.coverURL }.map { LibraryChange.Placed(index: $0.index, album: $0.after) }
        var byCover: [String: [Int]] = [:]
        var order: [String] = []
        for item in (newCovers + placed).sorted(by: { $0.index < $1.index }) {
            if byCover[item.album.coverURL] == nil { order.append(item.album.coverURL) }
            byCover[item.album.coverURL, default: []].append(item.index)
        }
        // gallery.toml read once for the import, not once a cover.
        let limit = maxPixels
        return order.compactMap { url in
            guard let problem = coverProblem(url, maxPixels: limit), let indices = byCover[url] else { return nil }
            let who = indices.count == 1 ? "album \(indices[0] + 1)'s cover" : "the cover of albums \(AlbumNumbers.ranges(indices)) (\(indices.count))"
            return "\(who) \(problem.what); \(indices.count == 1 ? "the album shows" : "they show") a placeholder until \(problem.until)"
        }
    }
}
