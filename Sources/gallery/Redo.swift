import ArgumentParser
import GalleryKit

/// `gallery redo`: makes again the change `gallery undo` most recently reversed.
struct Redo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Make again the change that `gallery undo` most recently reversed (until the next change)."
    )

    @OptionGroup var siteOptions: SiteOptions

    func run() throws {
        let editor = try siteOptions.editor()
        try performLibraryChange { () throws(LibraryError) in "redid: " + (try editor.redo().summary) }
    }
}
