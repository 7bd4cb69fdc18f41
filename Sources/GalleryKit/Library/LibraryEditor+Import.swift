extension LibraryEditor {
    /// What an import did (or, with a dry run, would do).
    public struct ImportReport: Sendable {
        /// The albums appended, with where they came from in the file.
        public var added: [AlbumImporter.Candidate]
        /// The index in the archive of the first album appended (the others follow it).
        public var firstAdded = 0
        /// The albums left out, each with the reason; for one already in the archive, its index
        /// there and the fields in which the file's version differs (`year 2012 → 2009`).
        public var skipped: [(candidate: AlbumImporter.Candidate, reason: String, existing: Int?, differences: [Difference])]
        /// With `update`, the albums of the archive that took the file's values: the row, the
        /// album's index and what changed.
        public var updated: [(candidate: AlbumImporter.Candidate, index: Int, differences: [Difference])] = []
        /// Albums of the archive that were given the slug they had as their own, so that the
        /// update of another did not move their page (their index and slug).
        public var pinned: [(index: Int, slug: String)] = []
        /// The change recorded in the undo history (`nil` when nothing was added or updated).
        public var change: LibraryChange?
        /// The albums of the archive that no row of the file is (by artist and title, or by
        /// slug), by index, and the archive's size: for a weekly sync of the whole catalogue,
        /// those that left it, or were renamed in it (a renamed title is added as a new album).
        public var unmatched: [(index: Int, album: Album)] = []
        /// How many albums the archive held before the import.
        public var archiveCount = 0
        /// Rows left out because their slug is taken (with `skippingInvalid`), and why.
        public var leftOut: [(candidate: AlbumImporter.Candidate, problems: [String])] = []
    }

    /// A field in which an imported album differs from the album of the archive it matches.
    public struct Difference: Sendable, Hashable {
        /// The archive key (`year`, `cover_url`…).
        public var field: String
        /// The flag of `gallery edit` that sets it (`--year`, `--cover`…).
        public var flag: String
        /// The value in the archive, and in the file (a param's as JSON writes it, `"VG+"`, `12`).
        public var archive: String, file: String
        /// What the flag takes to set the file's value: the value, or `NAME=VALUE` for a param.
        public var argument: String
    }

    /// How `file` differs from `archive`, field by field (title and artist only in case, as
    /// they matched ignoring it; the slug only when the file gives one other than the album's
    /// page address, `address`, so that a list exported with its slugs and read back differs in
    /// nothing).
    static func differences(_ file: Album, from archive: Album, address: String) -> [Difference] {
        var found: [Difference] = []
        let fields: [(String, String, String, String)] = [
            ("title", "--title", archive.title, file.title), ("artist", "--artist", archive.artist, file.artist),
            ("genre", "--genre", archive.genre, file.genre), ("year", "--year", "\(archive.year)", "\(file.year)"),
            ("cover_url", "--cover", archive.coverURL, file.coverURL),
        ]
        for (field, flag, old, new) in fields where old != new {
            found.append(Difference(field: field, flag: flag, archive: old, file: new, argument: new))
        }
        if let slug = file.slug, slug != address {
            found.append(Difference(field: "slug", flag: "--slug", archive: archive.slug ?? address, file: slug, argument: slug))
        }
        // The album's own fields the file gives; one it leaves out is left as it is.
        let current = Dictionary(archive.params.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        for param in file.params where current[param.key] != param.value {
            found.append(Difference(field: "params.\(param.key)", flag: "--param", archive: current[param.key]?.json ?? "(none)", file: param.value.json, argument: "\(param.key)=\(param.value.typed)"))
        }
        return found
    }

    /// `album` with the file's values of the fields in `differences`; its other keys are kept.
    static func updating(_ album: Album, from file: Album, _ differences: [Difference]) -> Album {
        var updated = album
        let params = Dictionary(file.params.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        for difference in differences {
            if difference.field.hasPrefix("params.") {
                let key = String(difference.field.dropFirst(7))
                updated.setParams([(key, params[key])])
                continue
            }
            switch difference.field {
            case "title": updated.title = file.title
            case "artist": updated.artist = file.artist
            case "genre": updated.genre = file.genre
            case "year": updated.year = file.year
            case "cover_url": updated.coverURL = file.coverURL
            case "slug": updated.slug = file.slug
            default: break
            }
        }
        return updated
    }

    /// The page address a row names: its slug, or the one its artist and title give.
    static func address(_ album: Album) -> String {
        album.slug ?? Catalogue.derivedSlug(for: album)
    }

    /// Whether two rows of one artist and title are two editions: they name two page addresses.
    /// A label's sheet gives some rows a slug and leaves others empty: the CD's row with `x-2-cd`
    /// beside the LP's without one, in either order, are two albums; two rows without a slug
    /// name one address, and are one album.
    static func areEditions(_ later: Album, _ earlier: Album) -> Bool {
        address(later) != address(earlier)
    }

    /// What a row without a slug needs to be imported as another edition: a slug of its own, in
    /// the Slug column of a CSV file (`line` given) or as `"slug"` in JSON.
    static func editionAdvice(line: Int?) -> String {
        line == nil ? "another edition needs a \"slug\" of its own" : "another edition needs a slug of its own in a Slug column"
    }

    /// Appends imported albums, as one change that `gallery undo` reverses at once.
    ///
    /// An album already present (same artist and title, ignoring case), in the archive or
    /// earlier in the file, is reported and skipped unless `allowDuplicates`; but a row whose
    /// slug is no album's page address is another edition (the CD beside the LP), and is added,
    /// when the earlier row has a slug of its own, or every such album of the archive has a row
    /// at its own address. With `update`, an
    /// album of the archive whose fields differ in the file takes the file's values instead, in
    /// the same change; no other album's page moves (one whose derived slug would change keeps
    /// the one it had, as its own), and the album's own moves only to a slug the file gives.
    ///
    /// - Throws: ``LibraryError`` listing, in file order, every album's own
    ///   ``AlbumImporter/Candidate/problems``, every slug that is already an album's page
    ///   address in the archive, and every slug an earlier album in the file has, then
    ///   `nothing was imported`: a file with any fault imports nothing.
    ///
    /// `leftOut` are rows of the file left out of the import (`--skip-invalid`): still rows of
    /// the file, so their albums are not among those it no longer has. With `skippingInvalid`,
    /// rows whose slug is taken are left out too (``ImportReport/leftOut`` says which and why)
    /// and the rest imported; without it, the error's ``LibraryError/rowsAtFault`` counts them.
    public func importAlbums(_ candidates: [AlbumImporter.Candidate], leftOut: [AlbumImporter.Candidate] = [], allowDuplicates: Bool, update: Bool = false, dryRun: Bool, skippingInvalid: Bool = false) throws(LibraryError) -> ImportReport {
        var faults: [(candidate: AlbumImporter.Candidate, problems: [String])] = []
        do throws(LibraryError) {
            return try importPass(candidates, leftOut: leftOut, allowDuplicates: allowDuplicates, update: update, dryRun: dryRun, slugFaults: &faults)
        } catch {
            // Rows with faults of their own were left out before; a taken slug shows only now.
            guard skippingInvalid, !faults.isEmpty, candidates.allSatisfy({ $0.problems.isEmpty }) else {
                var error = error
                error.rowsAtFault = Set(faults.map(\.candidate.location)).count
                throw error
            }
            let faulty = Set(faults.map(\.candidate.location))
            var none: [(candidate: AlbumImporter.Candidate, problems: [String])] = []
            var report = try importPass(
                candidates.filter { !faulty.contains($0.location) }, leftOut: leftOut + faults.map(\.candidate),
                allowDuplicates: allowDuplicates, update: update, dryRun: dryRun, slugFaults: &none
            )
            report.leftOut = faults
            return report
        }
    }

    /// One try at the import; `slugFaults` gets each row without faults of its own whose slug
    /// is taken.
    private func importPass(_ candidates: [AlbumImporter.Candidate], leftOut: [AlbumImporter.Candidate], allowDuplicates: Bool, update: Bool, dryRun: Bool, slugFaults: inout [(candidate: AlbumImporter.Candidate, problems: [String])]) throws(LibraryError) -> ImportReport {
        var report = ImportReport(added: [], skipped: [], change: nil)
        let change: LibraryChange
        do throws(LibraryError) {
            change = try self.change(dryRun: dryRun) { archive, catalogue throws(LibraryError) in
                // Each identity's albums in the archive (twins have several), each album by its
                // page address, the file's new albums, and the row that is each album of the archive.
                let twins = Dictionary(grouping: archive.albums.indices, by: { Self.identity(archive.albums[$0]) })
                let addresses = catalogue.entries.map(\.slug)
                let byAddress = Dictionary(addresses.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                var inFile: [String: [AlbumImporter.Candidate]] = [:]
                // The albums of the archive that a row of the file names by its slug.
                let bySlugRow = Set(candidates.compactMap { candidate -> Int? in
                    guard candidate.problems.isEmpty, let index = candidate.album.slug.flatMap({ byAddress[$0] }),
                          Self.identity(archive.albums[index]) == Self.identity(candidate.album) else { return nil }
                    return index
                })
                // The album a row names by its address: the one at its slug, or, for a row
                // without one, the one at the address its artist and title give when every
                // other album of them is named by a row's slug (the LP's row beside the CD's
                // x-2-cd). Twins without slugs in the file stay unknown: a row could be either,
                // and updating the wrong one would be worse than none.
                func named(_ candidate: AlbumImporter.Candidate) -> Int? {
                    guard let index = byAddress[Self.address(candidate.album)],
                          Self.identity(archive.albums[index]) == Self.identity(candidate.album) else { return nil }
                    if candidate.album.slug != nil { return index }
                    let others = twins[Self.identity(candidate.album)] ?? []
                    return others.allSatisfy { $0 == index || bySlugRow.contains($0) } ? index : nil
                }
                let addressed = Set(candidates.filter { $0.problems.isEmpty }.compactMap(named))
                let fileIdentities = Set((candidates + leftOut).map { Self.identity($0.album) })
                let fileSlugs = Set((candidates + leftOut).compactMap(\.album.slug))
                report.archiveCount = archive.albums.count
                report.unmatched = archive.albums.indices.filter {
                    !fileIdentities.contains(Self.identity(archive.albums[$0])) && !fileSlugs.contains(addresses[$0])
                }.map { ($0, archive.albums[$0]) }
                var claimedBy: [Int: AlbumImporter.Candidate] = [:]
                var slugs = SlugCheck(catalogue: catalogue)
                var problems: [String] = []
                func checkSlug(of candidate: AlbumImporter.Candidate) {
                    let found = slugs.problems(of: candidate)
                    problems += found
                    if !found.isEmpty, candidate.problems.isEmpty { slugFaults.append((candidate, found)) }
                }
                for candidate in candidates {
                    problems += candidate.problems
                    if candidate.problems.isEmpty {
                        let key = Self.identity(candidate.album)
                        let name = LibraryChange.name(candidate.album)
                        if !allowDuplicates, let earlier = inFile[key]?.first(where: { !Self.areEditions(candidate.album, $0.album) }) {
                            let advice = candidate.album.slug == nil ? "; \(Self.editionAdvice(line: candidate.line))" : ""
                            report.skipped.append((candidate, "\(name) is already \(earlier.origin)\(earlier.line == nil ? "" : " of the file")\(advice)", nil, []))
                            continue
                        }
                        // An address that is no album's, named while every album of the archive
                        // with this artist and title has a row of the file at its own address, is
                        // another edition (the CD beside the LP): added, not skipped. With no such
                        // row, a new slug moves the album's page (with --update).
                        let newEdition = byAddress[Self.address(candidate.album)] == nil
                            && (twins[key] ?? []).allSatisfy { addressed.contains($0) }
                        if !allowDuplicates, !newEdition, let matches = twins[key] {
                            // The album the row is: the one at the address it names (the LP's row
                            // without a slug names the LP's), else the only one.
                            let bySlug = named(candidate).flatMap { matches.contains($0) ? $0 : nil }
                            guard let index = bySlug ?? (matches.count == 1 ? matches[0] : nil) else {
                                let at = matches.map { "\"\(addresses[$0])\"" }
                                let which = candidate.album.slug.map { "; its slug \"\($0)\" is the page address of none of them (they are at \(AlbumImporter.list(at)))" }
                                    ?? (update ? (candidate.line == nil ? "; give it the \"slug\" of the one it is to update it" : "; give its row the slug of the one it is, in a Slug column, to update it") : "")
                                report.skipped.append((candidate, "\(name) is already albums \(AlbumNumbers.ranges(matches)) of the archive\(which)", nil, []))
                                continue
                            }
                            // One album, one row: the first that is it.
                            if let earlier = claimedBy[index] {
                                report.skipped.append((candidate, "\(name) is album \(index + 1) of the archive, as \(earlier.origin) is; a later row of one album is skipped", nil, []))
                                continue
                            }
                            claimedBy[index] = candidate
                            let differences = Self.differences(candidate.album, from: archive.albums[index], address: addresses[index])
                            guard update, !differences.isEmpty else {
                                report.skipped.append((candidate, "\(name) is already album \(index + 1) of the archive", index, differences))
                                continue
                            }
                            report.updated.append((candidate, index, differences))
                            if differences.contains(where: { $0.field == "slug" }) { checkSlug(of: candidate) }
                            continue
                        }
                        inFile[key, default: []].append(candidate)
                        report.added.append(candidate)
                    }
                    // An album at fault is checked too: it is meant to be imported once fixed.
                    checkSlug(of: candidate)
                }
                guard problems.isEmpty else { throw LibraryError(reasons: problems + ["nothing was imported"]) }
                var albums = archive.albums
                for item in report.updated {
                    albums[item.index] = Self.updating(albums[item.index], from: item.candidate.album, item.differences)
                }
                let start = albums.count
                report.firstAdded = start
                albums += report.added.map(\.album)
                report.pinned = Self.keepingPageAddresses(of: archive.albums, in: &albums, except: Set(report.updated.filter { $0.differences.contains { $0.field == "slug" } }.map(\.index)))
                let placed = report.added.enumerated().map { LibraryChange.Placed(index: start + $0.offset, album: $0.element.album) }
                let replaced = archive.albums.indices.filter { albums[$0] != archive.albums[$0] }.map {
                    LibraryChange.Replaced(index: $0, before: archive.albums[$0], after: albums[$0])
                }
                return (archive.with(albums: albums), .imported(placed, updated: replaced.isEmpty ? nil : replaced))
            }
        } catch {
            // The whole-archive check ends its refusals as the other commands do; what did not
            // happen here is an import.
            throw LibraryError(diagnostics: error.diagnostics, reasons: error.reasons.map { $0 == "nothing was changed" ? "nothing was imported" : $0 })
        }
        report.change = report.added.isEmpty && report.updated.isEmpty ? nil : change
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
        folded(album.artist) + "\u{0}" + folded(album.title)
    }

    /// Text as case-insensitive matching sees it: lowercase, with Greek's final sigma as the
    /// sigma that `Σ` lowercases to, so `ΜΈΤΟΙΚΟΣ` and `Μέτοικος` are one name.
    static func folded(_ text: String) -> String {
        let lower = text.lowercased()
        return lower.unicodeScalars.contains("\u{03C2}") ? lower.replacingOccurrences(of: "\u{03C2}", with: "\u{03C3}") : lower
    }
}
