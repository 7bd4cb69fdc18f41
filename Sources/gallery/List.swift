import ArgumentParser
import Foundation
import GalleryKit

/// `gallery list`: the albums as a numbered table, or as JSON.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the albums: number, slug, artist, album, genre and year.")

    @OptionGroup var siteOptions: SiteOptions

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
        print(json ? AlbumListing.json(catalogue) : AlbumListing.table(catalogue), terminator: "")
    }
}
