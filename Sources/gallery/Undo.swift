import ArgumentParser
import GalleryKit

/// `gallery undo`: reverses the most recent library change, even from an earlier invocation;
/// `--skip` forgets it instead.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Reverse the most recent add, edit, delete or import (or, with --skip, forget it)."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Forget the most recent change without reversing it, leaving the archive as it is: for a change that can no longer be undone because its album was edited by hand.")
    var skip = false

    func run() throws {
        let editor = try siteOptions.editor()
        if skip {
            try performLibraryChange { () throws(LibraryError) in "skipped: \(try editor.skipUndo().summary); the archive was not changed" }
        } else {
            try performLibraryChange { () throws(LibraryError) in "undid: " + (try editor.undo().summary) }
        }
    }
}
