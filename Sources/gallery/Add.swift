import ArgumentParser
import GalleryKit

/// `gallery add`: a new album, at the end or at a position.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an album to the archive (at the end, or --at a position).")

    @OptionGroup var siteOptions: SiteOptions
    @OptionGroup var fields: AlbumFieldOptions

    @Option(help: ArgumentHelp("Insert as album N (1 is the first); later albums move down.", valueName: "N"))
    var at: Int?

    func validate() throws {
        try fields.checkParams()
        let missing = [("--title", fields.title), ("--artist", fields.artist), ("--genre", fields.genre), ("--cover", fields.cover)]
            .filter { $0.1 == nil }.map(\.0) + (fields.year == nil ? ["--year"] : [])
        if !missing.isEmpty { throw ValidationError("Missing \(missing.joined(separator: ", ")); an album needs a title, artist, genre, year and cover.") }
        if let at, at < 1 { throw ValidationError("--at counts from 1, as `gallery list` does.") }
    }

    func run() throws {
        var album = Album(title: "", artist: "", genre: "", year: 0, coverURL: "")
        fields.apply(to: &album)
        let editor = try siteOptions.editor()
        try performAdvisedChange(editor) { () throws(LibraryError) in try editor.add(album, at: at) }
    }
}
