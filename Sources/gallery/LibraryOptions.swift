import ArgumentParser
import Foundation
import GalleryKit

extension SiteOptions {
    /// An editor for the site's archive, with the undo limit from `gallery.toml`.
    func editor() throws -> LibraryEditor {
        do {
            let (config, warnings) = try SiteConfig.load(from: folder)
            Diagnostic.print(warnings)
            var editor = LibraryEditor(site: folder, undoLimit: config.library.undoLimit)
            editor.warn = { StandardStreams.error("warning: \($0)\n") }
            editor.note = { StandardStreams.error("note: \($0)\n") }
            return editor
        } catch {
            Diagnostic.print(error.diagnostics)
            throw ExitCode.failure
        }
    }
}

/// Runs a library change and reports it: the change on standard output, problems on standard
/// error with a non-zero exit (a file's findings with their own severity, then the reasons as
/// errors).
func performLibraryChange(_ body: () throws(LibraryError) -> String) throws {
    do {
        // Line by line: an import reports one line per album.
        StandardStreams.output(try body().split(separator: "\n", omittingEmptySubsequences: false).map { String($0).terminalLine() }.joined(separator: "\n") + "\n")
        // Out before the warnings that follow on standard error, when both go to one pipe.
        fflush(nil)
    } catch {
        Diagnostic.print(error.diagnostics)
        for reason in error.reasons {
            StandardStreams.error("error: \(reason.terminalLine())\n")
        }
        throw ExitCode.failure
    }
}

/// Runs an add or an edit as ``performLibraryChange(_:)`` does, then prints `editor`'s advice on
/// the album it placed as warnings, on standard error.
func performAdvisedChange(_ editor: LibraryEditor, _ body: () throws(LibraryError) -> LibraryChange) throws {
    var change: LibraryChange?
    try performLibraryChange { () throws(LibraryError) in
        let made = try body()
        change = made
        return made.summary
    }
    for note in change.map(editor.advice(after:)) ?? [] {
        StandardStreams.error("warning: \(note.terminalLine())\n")
    }
}

/// The album fields the `add` and `edit` commands take.
struct AlbumFieldOptions: ParsableArguments {
    @Option(help: "The album's title.") var title: String?
    @Option(help: "The performing artist.") var artist: String?
    @Option(help: "The genre.") var genre: String?
    @Option(help: "The year of release, 1000 to 9999 (or a date such as 1999-05-01, whose year is taken).", transform: { text in
        guard let year = AlbumRules.year(typed: text) else {
            throw ValidationError("write a year such as 1999, or a date such as 1999-05-01")
        }
        return year
    }) var year: Int?
    @Option(help: ArgumentHelp("The cover: a path relative to content/, a file:// URL inside the site, or an http(s) URL.", valueName: "URL")) var cover: String?
    @Option(help: "The album page's slug (lowercase letters, digits and dashes).") var slug: String?
    @Option(name: .customLong("param"), help: ArgumentHelp("One of the album's own fields for the templates, {{album.params.NAME}} (repeatable); NAME= removes it. true, false and whole numbers are typed as such; anything else (12.50, 007) is text.", valueName: "NAME=VALUE"), transform: ParamArgument.init) var params: [ParamArgument] = []

    /// One `--param NAME=VALUE` as typed; checked in ``checkParams()``, whose messages quote
    /// it in part (ArgumentParser's own, for a transform that throws, quoted all 20,000
    /// characters of a value too long).
    struct ParamArgument {
        /// What was typed.
        var text: String
        /// The name, before the first `=`; `nil` without one.
        var name: String? { text.firstIndex(of: "=").map { String(text[..<$0]) } }
        /// The value, after the first `=`.
        var value: String { text.firstIndex(of: "=").map { String(text[text.index(after: $0)...]) } ?? "" }

        init(_ text: String) {
            self.text = text
        }

        /// Why it cannot be taken, or `nil`.
        var problem: String? {
            guard let name else { return "--param \(text.clippedForMessage) has no =; write NAME=VALUE, e.g. --param price=12.50 (NAME= removes the param)" }
            if let problem = Album.paramNameProblem(name) { return "--param: \(problem)" }
            if let problem = AlbumRules.characterProblem(value) ?? AlbumRules.lengthProblem(value, field: "param") { return "--param \(name): the value \(problem)" }
            return nil
        }

        /// The change it makes: the param, typed, or its removal.
        var change: (key: String, value: Album.Param?) {
            (name ?? text, value.isEmpty ? nil : Album.Param(typed: value))
        }
    }

    /// Whether any field was given.
    var isEmpty: Bool { [title, artist, genre, cover, slug].allSatisfy { $0 == nil } && year == nil && params.isEmpty }

    /// Refuses a param given twice (`--param price=1 --param price=2`): which one was meant is
    /// a guess; and a field whose bytes are not UTF-8 (see ``notUTF8(in:)``).
    func checkParams() throws {
        if let flag = Self.notUTF8().first {
            throw ValidationError("\(flag) is not UTF-8 text (is the terminal set to another encoding, such as Latin-1?), and its bytes would be saved as \u{FFFD}; set the terminal to UTF-8, or write the album into content/albums.json with an editor that saves UTF-8")
        }
        if let problem = params.lazy.compactMap(\.problem).first { throw ValidationError(problem) }
        var seen: Set<String> = []
        for param in params.map(\.change) where !seen.insert(param.key).inserted {
            throw ValidationError("--param \(param.key) is given twice; keep one")
        }
    }

    /// The options among `arguments` (by default the process's own, as the system gave them)
    /// whose value is not UTF-8: Swift reads such bytes as U+FFFD, which the archive would keep
    /// for good (`é` typed in a Latin-1 terminal). Each is named as typed: `--title`, or
    /// `--param price` for `--param price=…`.
    static func notUTF8(in arguments: [[UInt8]] = processArguments()) -> [String] {
        var flags: [String] = []
        for (index, bytes) in arguments.enumerated().dropFirst() where String(validating: bytes, as: UTF8.self) == nil {
            let text = String(decoding: bytes, as: UTF8.self)
            let option = text.hasPrefix("--") && text.contains("=") ? String(text[..<text.firstIndex(of: "=")!]) : index > 1 ? String(decoding: arguments[index - 1], as: UTF8.self) : text
            let param = option == "--param" ? String(decoding: bytes.prefix { $0 != UInt8(ascii: "=") }, as: UTF8.self) : nil
            flags.append(option.hasPrefix("-") ? option + (param.map { " \($0)" } ?? "") : "argument \(index)")
        }
        return flags
    }

    /// The process's arguments as the bytes the system gave.
    static func processArguments() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    /// Sets the given fields on an album.
    func apply(to album: inout Album) {
        if let title { album.title = title }
        if let artist { album.artist = artist }
        if let genre { album.genre = genre }
        if let year { album.year = year }
        if let cover { album.coverURL = cover }
        if let slug { album.slug = slug.isEmpty ? nil : slug }
        if !params.isEmpty { album.setParams(params.map(\.change)) }
    }
}
