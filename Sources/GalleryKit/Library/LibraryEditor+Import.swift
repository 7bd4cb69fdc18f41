extension LibraryEditor {
    /// What an import did (or, with a dry run, would do).
    public struct ImportReport: Sendable {
        /// The albums appended, with where they came from in the file.
        public var added: [AlbumImporter.Candidate]
        /// The albums left out, each with the reason.
        public var skipped: [(candidate: AlbumImporter.Candidate, reason: String)]
        /// The change recorded in the undo history (`nil` when nothing was added).
        public var change: LibraryChange?
    }

    /// Appends imported albums, as one change that `gallery undo` reverses at once.
    ///
    /// An album already present (same artist and title, ignoring case), in the archive or
    /// earlier in the file, is reported and skipped unless `allowDuplicates`. A slug that is
    /// already an album's page address in the archive imports nothing.
    public func importAlbums(_ candidates: [AlbumImporter.Candidate], allowDuplicates: Bool, dryRun: Bool) throws(LibraryError) -> ImportReport {
        var report = ImportReport(added: [], skipped: [], change: nil)
        let change = try change(dryRun: dryRun) { archive, catalogue throws(LibraryError) in
            var seen: [String: String] = [:]
            for (index, album) in archive.albums.enumerated() { seen[Self.identity(album)] = "album \(index + 1) of the archive" }
            for candidate in candidates {
                let key = Self.identity(candidate.album)
                if !allowDuplicates, let existing = seen[key] {
                    report.skipped.append((candidate, "\(LibraryChange.name(candidate.album)) is already \(existing)"))
                    continue
                }
                seen[key] = "\(candidate.origin) of the file"
                report.added.append(candidate)
            }
            try Self.checkSlugsAreFree(report.added, in: catalogue)
            let start = archive.albums.count
            let placed = report.added.enumerated().map { LibraryChange.Placed(index: start + $0.offset, album: $0.element.album) }
            return (archive.with(albums: archive.albums + report.added.map(\.album)), .imported(placed))
        }
        report.change = report.added.isEmpty ? nil : change
        return report
    }

    /// Refuses imported slugs that are already page addresses in the archive, naming each row.
    private static func checkSlugsAreFree(_ candidates: [AlbumImporter.Candidate], in catalogue: Catalogue) throws(LibraryError) {
        guard candidates.contains(where: { $0.album.slug != nil }) else { return }
        let holders = Dictionary(catalogue.entries.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        let problems = candidates.compactMap { candidate in
            candidate.album.slug.flatMap { slug in
                holders[slug].map { "\(candidate.location): slug \(AlbumRules.slugTakenReason(slug, heldBy: $0))" }
            }
        }
        guard problems.isEmpty else { throw LibraryError(reasons: problems + ["nothing was imported"]) }
    }

    /// Artist and title, compared case-insensitively.
    static func identity(_ album: Album) -> String {
        album.artist.lowercased() + "\u{0}" + album.title.lowercased()
    }
}
