import Foundation
import Testing

/// What the library commands keep of the archive file itself when they rewrite it: its
/// permissions.
@Suite struct ArchiveFileTests: StarterSiteTests {
    static let add = ["add", "--title", "Z", "--artist", "Z", "--genre", "G", "--year", "2000", "--cover", "c.png"]

    func permissions(_ path: String, _ folder: TemporaryFolder) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: path).path)[.posixPermissions] as? Int ?? -1
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
