import ArgumentParser
import GalleryKit

/// `gallery delete`: removes an album; `gallery undo` brings it back.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete an album, named by its number in `gallery list` or its slug; `gallery undo` restores it.")

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: ArgumentHelp("The album: its number in `gallery list`, or its slug.", valueName: "N|slug"))
    var album: String

    func run() throws {
        let editor = try siteOptions.editor()
        try performLibraryChange { () throws(LibraryError) in try editor.delete(album).summary }
    }
}
