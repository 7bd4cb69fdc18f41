import ArgumentParser
import Foundation
import GalleryKit

@main
struct Gallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "A static site generator for album galleries.",
        version: GalleryVersion.current,
        subcommands: [Build.self, Serve.self, Check.self, Init.self, Templates.self, List.self, Add.self, Edit.self, Delete.self, Undo.self, Redo.self, Import.self, Env.self]
    )

    /// ArgumentParser's own `main`, with three things around it:
    ///
    /// - A standard stream the command was started without gets `/dev/null`, so no file the
    ///   command opens takes its place and receives its output.
    /// - A reader that goes away (`gallery build --log-format json | head -1`) no longer kills
    ///   the command with SIGPIPE at its next line, a build half-way through, with a stale site
    ///   behind a green CI step: the writes fail and are dropped, and the work finishes.
    /// - A command that did its work but lost output otherwise (a full disk under
    ///   `> build-log.jsonl`) says so and exits with status 1, where it exited 0 with the log
    ///   empty.
    static func main() async {
        AllocatorTuning.apply()
        Thumbnailer.loadOnlyUsedModules()
        StandardStreams.reopenClosed()
        signal(SIGPIPE, SIG_IGN)
        if let problem = unknownCommand(Array(CommandLine.arguments.dropFirst())) ?? undecodablePath(Array(CommandLine.arguments.dropFirst())) {
            StandardStreams.error("error: \(problem)\n")
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // Help and the version (a clean exit with text) are written as any output is, so a
            // full disk under `gallery --help > help.txt` is an error, not an empty file and 0.
            if exitCode(for: error) == .success {
                let text = fullMessage(for: error)
                if !text.isEmpty { StandardStreams.output(text + "\n") }
                if let lost = StandardStreams.lostOutput {
                    StandardStreams.error("error: \(lost)\n")
                    exit(withError: ExitCode.failure)
                }
                exit(withError: ExitCode.success)
            }
            exit(withError: error)
        }
        if let lost = StandardStreams.lostOutput {
            StandardStreams.error("error: \(lost)\n")
            exit(withError: ExitCode.failure)
        }
    }

    /// What to say when a path is not UTF-8 (a folder from a Latin-1 disk or archive): Swift
    /// reads its bytes as U+FFFD, so `gallery build --site caf\xe9` looked for another folder,
    /// said the site did not exist, and `gallery init` made a folder of another name. The same
    /// for the current folder's path. `add` and `edit` say it of their fields themselves.
    static func undecodablePath(_ arguments: [String]) -> String? {
        let advice = "gallery reads it as UTF-8, and would take another name for it; rename it to UTF-8 (convmv -f latin1 -t utf8 --notest NAME)"
        // Swift reads bytes that are not UTF-8 as U+FFFD: only then are the raw ones read.
        if !["add", "edit"].contains(arguments.first ?? ""), arguments.contains(where: { $0.unicodeScalars.contains("\u{FFFD}") }),
           let bytes = AlbumFieldOptions.processArguments().dropFirst().first(where: { String(validating: $0, as: UTF8.self) == nil }) {
            return "'\(String(decoding: bytes, as: UTF8.self))' is not UTF-8 text; \(advice)"
        }
        let asksForHelp = arguments.isEmpty || arguments.contains { ["-h", "--help", "--version", "help"].contains($0) }
        guard !asksForHelp, let folder = getcwd(nil, 0) else { return nil }
        defer { free(folder) }
        let bytes = Array(UnsafeBufferPointer(start: folder, count: strlen(folder))).map { UInt8(bitPattern: $0) }
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        return "the current folder's path (\(String(decoding: bytes, as: UTF8.self))) is not UTF-8 text; \(advice), or run gallery from another folder with --site"
    }

    /// What to say of a first word that names no command (`gallery biuld`, Hugo's `server`),
    /// or `nil` when it names one, or is an option: ArgumentParser said "Unexpected argument",
    /// or blamed the next option (`gallery bulid --clean`: "Unknown option '--clean'").
    static func unknownCommand(_ arguments: [String]) -> String? {
        let names = Set(configuration.subcommands.map { $0._commandName })
        var words = arguments[...]
        // `gallery help biuld`.
        if words.first == "help" { words = words.dropFirst() }
        guard let word = words.first, !word.hasPrefix("-"), !names.contains(word) else { return nil }
        // Hugo's commands, as its flags are told.
        let hugo = [
            "server": "gallery server is Hugo's name: write gallery serve",
            "new": "gallery new is Hugo's: gallery init DIR makes a new site; gallery add adds an album",
            "version": "gallery version is Hugo's: write gallery --version",
            "deploy": "gallery has no deploy: publish public/ as any static site (see the README's Publishing from CI)",
        ]
        if let advice = hugo[word] { return advice }
        let hint = Spelling.nearest(word.lowercased(), among: names).map { "; did you mean '\($0)'?" } ?? "; gallery --help lists the commands"
        return "'\(word)' is no gallery command\(hint)"
    }
}
