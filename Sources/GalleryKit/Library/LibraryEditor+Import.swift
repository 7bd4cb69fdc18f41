extension LibraryEditor {
    /// What an import did (or, with a dry run, would do).
    public struct ImportReport: Sendable {
        /// The albums appended, with where they came from in the file.
        public var added: [AlbumImporter.Candidate]
        /// The albums left out, each with the reason; for one already in the archive, its index
        /// there and the fields in which the file's version differs (`year 2012 → 2009`).
        public var skipped: [(candidate: AlbumImporter.Candidate, reason: String, existing: Int?, differences: [Difference])]
        /// The change recorded in the undo history (`nil` when nothing was added).
        public var change: LibraryChange?
    }

    /// A field in which an imported album differs from the album of the archive it matches.
    public struct Difference: Sendable, Hashable {
        /// The archive key (`year`, `cover_url`…).
        public var field: String
        /// The flag of `gallery edit` that sets it (`--year`, `--cover`…).
        public var flag: String
        /// The value in the archive, and in the file.
        public var archive: String, file: String
    }

    /// How `file` differs from `archive`, field by field (title and artist only in case, as
    /// they matched ignoring it; the slug only when the file gives one).
    static func differences(_ file: Album, from archive: Album) -> [Difference] {
        var found: [Difference] = []
        let fields: [(String, String, String, String)] = [
            ("title", "--title", archive.title, file.title), ("artist", "--artist", archive.artist, file.artist),
            ("genre", "--genre", archive.genre, file.genre), ("year", "--year", "\(archive.year)", "\(file.year)"),
            ("cover_url", "--cover", archive.coverURL, file.coverURL),
        ]
        for (field, flag, old, new) in fields where old != new {
            found.append(Difference(field: field, flag: flag, archive: old, file: new))
        }
        if let slug = file.slug, slug != archive.slug {
            found.append(Difference(field: "slug", flag: "--slug", archive: archive.slug ?? "(derived)", file: slug))
        }
        return found
    }

    /// Appends imported albums, as one change that `gallery undo` reverses at once.
    ///
    /// An album already present (same artist and title, ignoring case), in the archive or
    /// earlier in the file, is reported and skipped unless `allowDuplicates`.
    ///
    /// - Throws: ``LibraryError`` listing, in file order, every album's own
    ///   ``AlbumImporter/Candidate/problems``, every slug that is already an album's page
    ///   address in the archive, and every slug an earlier album in the file has, then
    ///   `nothing was imported`: a file with any fault imports nothing.
    public func importAlbums(_ candidates: [AlbumImporter.Candidate], allowDuplicates: Bool, dryRun: Bool) throws(LibraryError) -> ImportReport {
        var report = ImportReport(added: [], skipped: [], change: nil)
        let change: LibraryChange
        do throws(LibraryError) {
            change = try self.change(dryRun: dryRun) { archive, catalogue throws(LibraryError) in
                var seen: [String: String] = [:]
                var inArchive: [String: Int] = [:]
                for (index, album) in archive.albums.enumerated() {
                    seen[Self.identity(album)] = "album \(index + 1) of the archive"
                    inArchive[Self.identity(album)] = index
                }
                var slugs = SlugCheck(catalogue: catalogue)
                var problems: [String] = []
                for candidate in candidates {
                    problems += candidate.problems
                    if candidate.problems.isEmpty {
                        let key = Self.identity(candidate.album)
                        if !allowDuplicates, let existing = seen[key] {
                            let index = inArchive[key]
                            let differences = index.map { Self.differences(candidate.album, from: archive.albums[$0]) } ?? []
                            report.skipped.append((candidate, "\(LibraryChange.name(candidate.album)) is already \(existing)", index, differences))
                            continue
                        }
                        seen[key] = "\(candidate.origin) of the file"
                        report.added.append(candidate)
                    }
                    // An album at fault is checked too: it is meant to be imported once fixed.
                    problems += slugs.problems(of: candidate)
                }
                guard problems.isEmpty else { throw LibraryError(reasons: problems + ["nothing was imported"]) }
                let start = archive.albums.count
                let placed = report.added.enumerated().map { LibraryChange.Placed(index: start + $0.offset, album: $0.element.album) }
                return (archive.with(albums: archive.albums + report.added.map(\.album)), .imported(placed))
            }
        } catch {
            // The whole-archive check ends its refusals as the other commands do; what did not
            // happen here is an import.
            throw LibraryError(diagnostics: error.diagnostics, reasons: error.reasons.map { $0 == "nothing was changed" ? "nothing was imported" : $0 })
        }
        report.change = report.added.isEmpty ? nil : change
        return report
    }

    /// The slugs an import's albums ask for, checked against the archive's page addresses and
    /// the albums before them in the file.
    private struct SlugCheck {
        /// The archive's page addresses and the album at each.
        let holders: [String: Catalogue.Entry]
        /// Each slug an album earlier in the file asked for, and that album.
        var taken: [String: AlbumImporter.Candidate] = [:]

        init(catalogue: Catalogue) {
            holders = Dictionary(catalogue.entries.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// Why a candidate may not have its slug: another album's page in the archive lives
        /// there (it would move to `…-2`), or an earlier album in the file asked for it first.
        /// A slug that breaks the rules is left to the candidate's own problems.
        mutating func problems(of candidate: AlbumImporter.Candidate) -> [String] {
            guard let slug = candidate.album.slug, AlbumRules.slugProblem(slug) == nil else { return [] }
            if let holder = holders[slug] {
                return ["\(candidate.location): slug \(AlbumRules.slugTakenReason(slug, heldBy: holder))"]
            }
            if let earlier = taken[slug] {
                let line = earlier.line.map { " (line \($0))" } ?? ""
                return ["\(candidate.location): slug \"\(slug)\" is also \(earlier.name)'s\(line); slugs must be unique"]
            }
            taken[slug] = candidate
            return []
        }
    }

    /// Artist and title, compared case-insensitively.
    static func identity(_ album: Album) -> String {
        album.artist.lowercased() + "\u{0}" + album.title.lowercased()
    }
}
