import ArgumentParser
import Foundation
import GalleryKit

/// `gallery check [DIR]`: the build's validation, on a folder that already exists.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate an output folder (default public/) as the build does; exit non-zero on any finding."
    )

    @Argument(help: ArgumentHelp("The folder to check.", valueName: "DIR"))
    var directory: String = "public"

    @Option(name: .long, help: ArgumentHelp("The path part of the site's base URL, for root-relative links.", valueName: "PATH"))
    var basePath: String = "/"

    func run() throws {
        throw ExitCode.failure
    }
}
