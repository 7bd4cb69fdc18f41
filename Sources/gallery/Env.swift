import ArgumentParser
import Foundation
import GalleryKit

/// `gallery env`: the version, the platform and the libraries in use, as `hugo env` prints them.
struct Env: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "env",
        abstract: "Print gallery's version, the platform and the libraries it runs on (libvips, libxml2)."
    )

    func run() throws {
        StandardStreams.output(RuntimeFacts.report)
    }
}
