import ArgumentParser
import Foundation
import GalleryKit

/// `gallery import FILE`: albums from JSON, CSV or the iOS app's albums.bin.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Append albums from a JSON archive, a CSV file with a header row, or the iOS app's albums.bin; with --update, also update the albums already there."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: ArgumentHelp("The file to import; - reads standard input.", valueName: "FILE"))
    var file: String

    @Option(name: .customLong("map"), help: ArgumentHelp("Read a CSV column into a field (title, artist, genre, year, cover_url, slug), or into one of the album's own fields (params.NAME); repeatable.", valueName: "column=field"))
    var mappings: [String] = []

    @Flag(help: "Import albums whose artist and title are already in the archive.")
    var allowDuplicates = false

    @Flag(help: "Give albums already in the archive (same artist and title) the file's values where they differ: genre, year, cover, slug, case, and params.")
    var update = false

    @Flag(help: "Show what would change, and write nothing.")
    var dryRun = false

    @Flag(help: "Leave out the rows of a CSV file with faults of their own (an empty or wrong year, an empty field), naming each, and import the rest.")
    var skipInvalid = false

    func validate() throws {
        // An empty argument (a variable never set) would be the current folder, answered as ".".
        if file.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("FILE is empty; name the CSV or JSON file to import, or - for standard input.")
        }
        if update && allowDuplicates {
            throw ValidationError("--update and --allow-duplicates cannot be used together: --update changes the albums already in the archive, --allow-duplicates adds them again.")
        }
        for mapping in mappings where !mapping.contains("=") {
            throw ValidationError("--map takes COLUMN=FIELD, e.g. --map \"Album Artist=artist\"; got '\(mapping)'.")
        }
        // Columns match ignoring case, so `A=title` and `a=artist` name one column twice.
        var seen: [String: String] = [:]
        for mapping in mappings {
            let column = String(mapping.prefix { $0 != "=" }).trimmingCharacters(in: .whitespaces)
            if let earlier = seen[column.lowercased()] {
                throw ValidationError("--map names the column '\(column)' twice (columns match ignoring case): '\(earlier)' and '\(mapping)'; keep one.")
            }
            seen[column.lowercased()] = mapping
        }
    }

    /// A value in a difference: text in quotes; numbers, and a param's value (already as JSON
    /// writes it, so `"VG+"`, `12`, `true`), as they are.
    static func quoted(_ value: String, _ field: String) -> String {
        value.allSatisfy(\.isNumber) || field.hasPrefix("params.") ? value : "\"\(value)\""
    }

    /// The rows' faults with each fault that many rows share told for its first three rows and
    /// then counted: 1,551 rows without artwork were 1,551 lines, in which the other faults
    /// were lost.
    static func condensed(_ reasons: [String]) -> [String] {
        /// The fault of `in.csv:13: row 12: cover is empty…`, and the file, or `nil`.
        func fault(_ reason: String) -> (file: String, message: String)? {
            guard let row = reason.range(of: ": row "), let end = reason[row.upperBound...].range(of: ": ") else { return nil }
            let file = reason[..<row.lowerBound].split(separator: ":").dropLast().joined(separator: ":")
            return (file, String(reason[end.upperBound...]))
        }
        var counts: [String: Int] = [:]
        for reason in reasons { if let fault = fault(reason) { counts[fault.message, default: 0] += 1 } }
        var seen: [String: Int] = [:]
        var lines: [String] = []
        for reason in reasons {
            guard let fault = fault(reason), let count = counts[fault.message], count > 5 else {
                lines.append(reason)
                continue
            }
            seen[fault.message, default: 0] += 1
            switch seen[fault.message] ?? 0 {
            case 1...3: lines.append(reason)
            case 4: lines.append("\(fault.file): and \(count - 3) more rows: \(fault.message)")
            default: break
            }
        }
        return lines
    }

    /// Why `--map` did nothing: only a CSV file has columns.
    static func unusedMap(_ shown: String, _ format: AlbumImporter.Format) -> String {
        "--map reads the columns of a CSV file; \(shown) is \(format.rawValue), so it is ignored"
    }

    func run() throws {
        var columns: [String: String] = [:]
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            columns[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let editor = try siteOptions.editor()
        let url = URL(fileURLWithPath: file)
        let shown = file == "-" ? "standard input" : file
        try performLibraryChange { () throws(LibraryError) in
            let contents: AlbumImporter.Contents
            do throws(LibraryError) {
                let importer = AlbumImporter(mappings: columns)
                if file == "-" {
                    let data: Data
                    do {
                        data = try AlbumImporter.readToEnd(FileHandle.standardInput, display: "<stdin>")
                    } catch let error as LibraryError {
                        throw error
                    } catch {
                        throw LibraryError("<stdin>: cannot read standard input: \(error.localizedDescription)")
                    }
                    contents = try importer.read(data, name: "-", display: "<stdin>")
                } else {
                    contents = try importer.read(url)
                }
            } catch {
                // A file that cannot be read as albums (no Artist column…) ends as a bad row does;
                // --map, which only CSV takes, is said not to have been used, as after a good read.
                let format = AlbumImporter.format(of: [], name: url.lastPathComponent)
                let unmapped = !columns.isEmpty && format != .csv ? [Self.unusedMap(shown, format) + ": its albums need the archive's own keys (title, artist, genre, year, cover_url)"] : []
                let reasons = error.reasons.last == "nothing was imported" ? error.reasons : error.reasons + ["nothing was imported"]
                // A JSON file's faults are the whole file's: --skip-invalid, which leaves out
                // rows, was silently of no use.
                let skipping = skipInvalid && format == .json && !error.diagnostics.isEmpty
                    ? ["--skip-invalid leaves out CSV rows with faults; a JSON file is read whole, so fix the albums named above"] : []
                throw LibraryError(diagnostics: error.diagnostics, reasons: unmapped + reasons + skipping)
            }
            var (format, candidates, blankRows) = (contents.format, contents.candidates, contents.blankRows)
            let invalid = candidates.filter { !$0.problems.isEmpty }
            if skipInvalid {
                candidates.removeAll { !$0.problems.isEmpty }
                for problem in Self.condensed(invalid.flatMap(\.problems)) {
                    StandardStreams.error("warning: \(problem); left out (--skip-invalid)".terminalLine() + "\n")
                }
            }
            // Said before the import's outcome, so a dry run and a refusal say it too.
            for warning in contents.warnings { StandardStreams.error("warning: \(warning)\n") }
            for note in contents.notes { StandardStreams.error("note: \(note)\n") }
            if !columns.isEmpty, format != .csv {
                StandardStreams.error("warning: \(Self.unusedMap(shown, format))\n")
            }
            let report: LibraryEditor.ImportReport
            do throws(LibraryError) {
                report = try editor.importAlbums(candidates, leftOut: skipInvalid ? invalid : [], allowDuplicates: allowDuplicates, update: update, dryRun: dryRun, skippingInvalid: skipInvalid)
            } catch {
                let faulty = invalid.count + error.rowsAtFault
                let hint = !skipInvalid && faulty > 0 ? ["import with --skip-invalid to leave out the \(faulty) row\(faulty == 1 ? "" : "s") with faults and import the rest"] : []
                throw LibraryError(diagnostics: error.diagnostics, reasons: Self.condensed(error.reasons) + hint)
            }
            for problem in Self.condensed(report.leftOut.flatMap(\.problems)) {
                StandardStreams.error("warning: \(problem); left out (--skip-invalid)".terminalLine() + "\n")
            }
            // What add and edit say of a cover, once per cover however many albums share it.
            for note in editor.importAdvice(for: report) { StandardStreams.error("warning: \(note)\n") }
            var lines = blankRows.map { "skipped \($0): every field is empty" }
            // Albums already in the archive as they are: one line past a few, so a weekly import
            // of the whole catalogue shows what differs rather than 3,000 skips.
            let same = report.skipped.filter { $0.existing != nil && $0.differences.isEmpty }
            if same.count > 3 {
                lines.append("skipped \(same.count) albums already in the archive as they are")
            }
            for skipped in report.skipped where same.count <= 3 || !(skipped.existing != nil && skipped.differences.isEmpty) {
                guard let index = skipped.existing, !skipped.differences.isEmpty else {
                    // With --update, one already in the archive as it is has nothing to take.
                    let hint = !update ? " (--allow-duplicates imports it anyway)" : skipped.existing != nil ? ", as it is" : ""
                    lines.append("skipped \(skipped.candidate.origin): \(skipped.reason)\(hint)")
                    continue
                }
                // An album already in the archive whose fields differ in the file: what differs,
                // and the edit that takes the file's values (an import only ever appends).
                let what = skipped.differences.map { "\($0.field) \(Self.quoted($0.archive, $0.field)) there, \(Self.quoted($0.file, $0.field)) here" }.joined(separator: "; ")
                let flags = skipped.differences.map { "\($0.flag) \(shellWord($0.argument))" }.joined(separator: " ")
                lines.append("skipped \(skipped.candidate.origin): \(skipped.reason), which differs: \(what); `gallery edit \(index + 1) \(flags)` takes the file's")
            }
            for item in report.updated {
                let what = item.differences.map { "\($0.field) \(Self.quoted($0.archive, $0.field)) → \(Self.quoted($0.file, $0.field))" }.joined(separator: "; ")
                lines.append("\(dryRun ? "would update" : "updated") album \(item.index + 1) from \(item.candidate.origin): \(LibraryChange.name(item.candidate.album)): \(what)")
            }
            for pinned in report.pinned {
                lines.append("album \(pinned.index + 1) keeps its page, \(SitePlan.albumFolder(slug: pinned.slug)), as its own slug")
            }
            let verb = switch (dryRun, update) {
            case (false, false): "imported \(report.added.count)"
            case (true, false): "would import \(report.added.count)"
            case (false, true): "imported \(report.added.count) and updated \(report.updated.count)"
            case (true, true): "would import \(report.added.count) and update \(report.updated.count)"
            }
            // As the number `gallery list` shows, which `edit` and `delete` take.
            lines += report.added.enumerated().map { offset, candidate in
                "\(dryRun ? "would add" : "added") \(candidate.origin) as album \(report.firstAdded + offset + 1): \(LibraryChange.name(candidate.album))"
            }
            if candidates.isEmpty {
                // A header and nothing under it is most often the wrong export; say so plainly
                // rather than "imported 0 of 0". Not an error: a scheduled import of an empty
                // export has nothing to do.
                lines.append("\(shown) holds no albums\(format == .csv ? " under its header row" : ""); nothing was imported")
                return lines.joined(separator: "\n")
            }
            let differing = report.skipped.filter { $0.existing != nil && !$0.differences.isEmpty }.count
            if differing > 0 {
                lines.append("\(differing) album\(differing == 1 ? "" : "s") already in the archive differ\(differing == 1 ? "s" : "") in the file; import again with --update to take the file's values")
            }
            let leftOutCount = invalid.count + report.leftOut.count
            if skipInvalid, leftOutCount > 0 {
                lines.append("left out \(leftOutCount) row\(leftOutCount == 1 ? "" : "s") with faults (--skip-invalid; each is named above)")
            }
            // A file that is most of the catalogue (a weekly sync) says which albums of the archive
            // it no longer has: a title renamed in the sheet is added as a new album, and the old
            // one stayed published without a word. A file of a few new albums says nothing.
            let unmatched = report.unmatched
            if !unmatched.isEmpty, report.archiveCount - unmatched.count >= (report.archiveCount + 1) / 2 {
                let named = unmatched.prefix(5).map { "album \($0.index + 1), \(LibraryChange.name($0.album))" }.joined(separator: "; ")
                    + (unmatched.count > 5 ? "; and \(unmatched.count - 5) more" : "")
                let (they, them) = unmatched.count == 1 ? ("it", "it") : ("they", "them")
                let delete = unmatched.count <= 50 ? "; if \(they) left the catalogue, `gallery delete \(unmatched.map { String($0.index + 1) }.joined(separator: " "))` removes \(them)" : ""
                lines.append("\(unmatched.count) album\(unmatched.count == 1 ? " of the archive is" : "s of the archive are") in no row of the file (a title or artist changed in it is another album): \(named)\(delete)")
            }
            let considered = candidates.count - report.leftOut.count
            lines.append("\(verb) of \(considered) album\(considered == 1 ? "" : "s") from \(format.rawValue) \(shown)\(dryRun ? "; nothing was written (--dry-run)" : "")")
            return lines.joined(separator: "\n")
        }
    }
}
