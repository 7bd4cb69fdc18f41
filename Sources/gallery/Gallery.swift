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
        StandardStreams.reopenClosed()
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
        if let lost = StandardStreams.lostOutput {
            StandardStreams.error("error: \(lost)\n")
            exit(withError: ExitCode.failure)
        }
    }
}
