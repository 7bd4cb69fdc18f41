import Foundation
import Testing

/// What the library commands keep of the archive file itself when they rewrite it: a symbolic
/// link stays a link to the file it names, and the file keeps its permissions.
@Suite struct ArchiveFileTests: StarterSiteTests {
    static let add = ["add", "--title", "Z", "--artist", "Z", "--genre", "G", "--year", "2000", "--cover", "c.png"]

    func isLink(_ path: String, _ folder: TemporaryFolder) throws -> Bool {
        try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: path).path)[.type] as? FileAttributeType == .typeSymbolicLink
    }

    func permissions(_ path: String, _ folder: TemporaryFolder) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: path).path)[.posixPermissions] as? Int ?? -1
    }

    /// An archive that is a link (here through a second link) to a catalogue in another folder
    /// is written through: the link stays as it was, the catalogue gets the album, and the
    /// backup, the lock and the undo history are kept beside the catalogue, so every site that
    /// links it takes one lock.
    @Test func aLinkedArchiveIsWrittenThroughAndStaysALink() async throws {
        let folder = try await starter()
        let original = try folder.read("site/content/albums.json")
        try folder.write(original, to: "shared/catalogue/albums.json")
        try FileManager.default.removeItem(at: folder.url.appending(path: "site/content/albums.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "shared/current.json").path, withDestinationPath: "catalogue/albums.json")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appending(path: "site/content/albums.json").path, withDestinationPath: "../../shared/current.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.url.appending(path: "shared/catalogue/albums.json").path)

        let add = try await run(Self.add, folder)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try isLink("site/content/albums.json", folder))
        #expect(try isLink("shared/current.json", folder))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.url.appending(path: "site/content/albums.json").path) == "../../shared/current.json")
        #expect(try folder.read("shared/catalogue/albums.json").contains("\"title\": \"Z\""))
        #expect(try permissions("shared/catalogue/albums.json", folder) == 0o600)
        #expect(try !isLink("shared/catalogue/albums.json.bak", folder))
        #expect(try folder.read("shared/catalogue/albums.json.bak") == original)
        #expect(folder.exists("shared/catalogue/.albums.json.lock"))
        #expect(folder.exists("shared/catalogue/.albums.json.history"))
        for beside in ["albums.json.bak", ".albums.json.lock", ".albums.json.history"] {
            #expect(!folder.exists("site/content/\(beside)"), "\(beside)")
        }

        let undo = try await run(["undo"], folder)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try isLink("site/content/albums.json", folder))
        #expect(try folder.read("shared/catalogue/albums.json") == original)
    }

    /// A rewrite keeps the archive's permission bits: a private archive stays private (and so
    /// do its backup and undo history, which hold its albums), a group-editable one stays
    /// group-editable.
    @Test(arguments: [0o600, 0o664])
    func aRewriteKeepsTheArchivesPermissions(mode: Int) async throws {
        let folder = try await starter()
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: folder.url.appending(path: "site/content/albums.json").path)
        for command in [Self.add, ["delete", "1"], ["undo"]] {
            let run = try await run(command, folder)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(try permissions("site/content/albums.json", folder) == mode, "\(command)")
            #expect(try permissions("site/content/albums.json.bak", folder) == mode, "\(command)")
            #expect(try permissions("site/content/.albums.json.history", folder) == mode, "\(command)")
        }
    }
}
