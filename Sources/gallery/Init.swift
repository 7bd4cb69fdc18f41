import ArgumentParser
import Foundation
import GalleryKit

/// `gallery init DIR`: a new site folder holding the starter albums.
struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new site folder with the five starter albums, their covers, a gallery.toml and a .gitignore for the build's output and cache."
    )

    @Argument(help: ArgumentHelp("The folder to create (it must not exist, or be empty but for a repository's .git, README and licence).", valueName: "DIR"))
    var directory: String

    func validate() throws {
        // An empty argument (a variable never set) would be the current folder, answered as ".".
        if directory.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("DIR is empty; name the folder to create (gallery init mysite), or . for the current one.")
        }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: directory, isDirectory: true)
        do throws(StarterSite.Error) {
            let written = try StarterSite.write(into: folder)
            // The current folder needs no `cd`; a path with spaces or quotes is quoted for the shell.
            let here = folder.standardizedFileURL.path == URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
            let cd = here ? "" : "cd \(shellWord(directory)) && "
            StandardStreams.output("Created \(SiteFolder.display(folder)) with \(written.count) files. Next: \(cd)gallery build\n")
        } catch {
            Diagnostic.print([.error(error.reason, path: SiteFolder.display(folder))])
            throw ExitCode.failure
        }
    }
}
