import ArgumentParser
import Foundation
import GalleryKit

/// `gallery list`: the albums as a numbered table, or as JSON.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the albums: number, slug, artist, album, genre and year.",
        discussion: "With words, only the albums where each word is found in the slug, artist, title, genre or year, ignoring case and accents (`gallery list bowie 1992`); the numbers are still those `edit` and `delete` take."
    )

    @OptionGroup var siteOptions: SiteOptions

    @Argument(help: ArgumentHelp("Show only the albums where every word is found.", valueName: "word"))
    var words: [String] = []

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    func run() throws {
        let catalogue: Catalogue
        do {
            catalogue = try Library(site: siteOptions.folder).catalogue().catalogue
        } catch {
            Diagnostic.print(error.diagnostics)
            throw ExitCode.failure
        }
        let search = AlbumListing.Search(words)
        let found = catalogue.entries.filter(search.matches).count
        if !search.isEmpty, found == 0, !json {
            // A table of headers alone would read as an empty archive.
            StandardStreams.error("list: no album matches \(words.map { "'\($0)'" }.joined(separator: " ")) (of \(catalogue.count)); `gallery list` shows them all\n")
            throw ExitCode.failure
        }
        StandardStreams.output(json ? AlbumListing.json(catalogue, search: search) : AlbumListing.table(catalogue, search: search))
        // As grep: a search that finds nothing exits 1, so a script can tell.
        if !search.isEmpty, found == 0 { throw ExitCode.failure }
    }
}
