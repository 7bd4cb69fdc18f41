import ArgumentParser
import GalleryKit

/// `gallery edit`: changes fields of an album.
struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change fields of an album, named by its number in `gallery list` or its slug.")

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: ArgumentHelp("The album: its number in `gallery list`, or its slug.", valueName: "N|slug"))
    var album: String

    @OptionGroup var fields: AlbumFieldOptions

    func validate() throws {
        try fields.checkParams()
        if fields.isEmpty { throw ValidationError("Nothing to change: give at least one of --title, --artist, --genre, --year, --cover, --slug, --param.") }
    }

    func run() throws {
        let editor = try siteOptions.editor()
        let fields = self.fields
        try performAdvisedChange(editor) { () throws(LibraryError) in try editor.edit(album) { fields.apply(to: &$0) } }
    }
}
