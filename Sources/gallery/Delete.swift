import ArgumentParser
import GalleryKit

/// `gallery delete`: removes an album; `gallery undo` brings it back.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete albums, each named by its number in `gallery list` or its slug; `gallery undo` restores them all.")

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: ArgumentHelp("The albums: each by its number in `gallery list` (before this command), or its slug.", valueName: "N|slug"))
    var albums: [String]

    func validate() throws {
        if albums.isEmpty { throw ValidationError("name the album to delete: its number in `gallery list`, or its slug") }
    }

    func run() throws {
        let editor = try siteOptions.editor()
        try performLibraryChange { () throws(LibraryError) in try editor.delete(albums).summary }
    }
}
