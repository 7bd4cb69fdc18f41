import ArgumentParser
import Foundation
import GalleryKit

/// The `--site` option every command that works on a site folder shares.
struct SiteOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The site folder (the one holding content/albums.json).", valueName: "DIR"))
    var site: String = "."

    /// The site folder.
    var folder: SiteFolder {
        SiteFolder(root: URL(fileURLWithPath: site, isDirectory: true))
    }
}

extension Diagnostic {
    /// Prints diagnostics to standard error.
    static func print(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            StandardStreams.error(diagnostic.description + "\n")
        }
    }
}
