import ArgumentParser
import GalleryKit

/// `gallery undo`: reverses the most recent library change, even from an earlier invocation.
struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Reverse the most recent add, edit, delete or import.")

    @OptionGroup var siteOptions: SiteOptions

    func run() throws {
        let editor = try siteOptions.editor()
        try performLibraryChange { () throws(LibraryError) in "undid: " + (try editor.undo().summary) }
    }
}
