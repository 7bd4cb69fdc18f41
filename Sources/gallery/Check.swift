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
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try OutputChecker.check(outputFolder: folder, basePath: basePath, displayPrefix: directory)
        } catch {
            Diagnostic.print([.error(error.description, path: directory)])
            throw ExitCode.failure
        }
        Diagnostic.print(diagnostics)
        if !diagnostics.isEmpty {
            FileHandle.standardError.write(Data("\(diagnostics.count) finding\(diagnostics.count == 1 ? "" : "s") in \(directory)\n".utf8))
            throw ExitCode.failure
        }
    }
}
