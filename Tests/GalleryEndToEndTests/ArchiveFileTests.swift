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

    /// Runs `gallery ARGUMENTS` in the starter site as user `user` of group `group` (through
    /// util-linux's `setpriv`, which only root may do), with `umask` 022.
    func run(_ arguments: [String], as user: Int, group: Int, _ folder: TemporaryFolder) async throws -> GalleryBinary.Run {
        try await GalleryBinary.run(
            ["--reuid=\(user)", "--regid=\(group)", "--clear-groups", "/bin/sh", "-c", "umask 022 && exec \"$0\" \"$@\"", GalleryBinary.url.path] + arguments,
            in: folder.url.appending(path: "site"),
            binary: URL(fileURLWithPath: "/usr/bin/setpriv")
        )
    }

    func owner(_ path: String, _ folder: TemporaryFolder) throws -> (user: Int, group: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appending(path: path).path)
        return ((attributes[.ownerAccountID] as? NSNumber)?.intValue ?? -1, (attributes[.groupOwnerAccountID] as? NSNumber)?.intValue ?? -1)
    }

    /// Chowns the starter site to `user`:`group`, its folders 775, so other users can reach it.
    func give(_ folder: TemporaryFolder, to user: Int, group: Int) throws {
        let root = folder.url.path
        #expect(chmod(root, 0o755) == 0)
        for path in [root + "/site"] + (FileManager.default.subpaths(atPath: root + "/site") ?? []).map({ root + "/site/" + $0 }) {
            #expect(chown(path, uid_t(user), gid_t(group)) == 0, "\(path)")
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { chmod(path, 0o775) }
        }
    }

    /// A group-editable archive is editable by the whole group: the lock file the first
    /// member's command made was 0644 whatever the archive's mode, so every other member got
    /// "cannot lock content/albums.json: Permission denied" from then on.
    @Test(.enabled(if: geteuid() == 0, "only root can run gallery as other users"))
    func everyMemberOfAGroupEditableArchivesGroupTakesItsLock() async throws {
        let folder = try await starter()
        try give(folder, to: 2901, group: 2900)
        #expect(chmod(folder.url.appending(path: "site/content/albums.json").path, 0o664) == 0)
        let first = try await run(Self.add, as: 2901, group: 2900, folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try permissions("site/content/.albums.json.lock", folder) == 0o664)
        for command in [["edit", "1", "--year", "1993"], ["undo"], ["delete", "2"]] {
            let other = try await run(command, as: 2902, group: 2900, folder)
            #expect(other.status == 0, "\(command): \(other.stderr)")
        }
        // A lock file made before, without group write, is still taken, read-only.
        #expect(chmod(folder.url.appending(path: "site/content/.albums.json.lock").path, 0o644) == 0)
        let late = try await run(["undo"], as: 2902, group: 2900, folder)
        #expect(late.status == 0, "\(late.stderr)")
    }

    /// `sudo gallery add` gave the archive, its backup and its history to root, keeping mode
    /// 600: the user who owns the site could no longer read their own albums.
    @Test(.enabled(if: geteuid() == 0, "the owner is kept only where root runs the command"))
    func aCommandRunByRootLeavesTheArchiveToItsOwner() async throws {
        let folder = try await starter()
        try give(folder, to: 2911, group: 2910)
        #expect(chmod(folder.url.appending(path: "site/content/albums.json").path, 0o600) == 0)
        let add = try await run(Self.add, folder)
        #expect(add.status == 0, "\(add.stderr)")
        for file in ["albums.json", "albums.json.bak", ".albums.json.history", ".albums.json.lock"] {
            let (user, group) = try owner("site/content/\(file)", folder)
            #expect(user == 2911 && group == 2910, "\(file): \(user):\(group)")
            #expect(try permissions("site/content/\(file)", folder) == 0o600, "\(file)")
        }
        let list = try await run(["list"], as: 2911, group: 2910, folder)
        #expect(list.status == 0 && list.stdout.contains("Z"), "\(list.stderr)")
        let undo = try await run(["undo"], as: 2911, group: 2910, folder)
        #expect(undo.status == 0, "\(undo.stderr)")
    }

    /// A command behind another that holds the archive's lock (one stopped with Ctrl-Z) waited
    /// without a word; it says what it waits for, then goes on once the lock is free.
    @Test func aCommandWaitingForTheLockSaysSo() async throws {
        let folder = try await starter()
        let lockFile = folder.url.appending(path: "site/content/.albums.json.lock").path
        let holder = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        // Its standard error goes to a file read while it runs: the lock is let go once the
        // command says it waits (however long a loaded machine takes to start it).
        let errors = folder.url.appending(path: "add-stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = Self.add
        process.currentDirectoryURL = folder.url.appending(path: "site")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let text = { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(60)
        while !text().contains("waiting for it to finish"), process.isRunning, Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(process.isRunning, "the add did not wait for the lock: \(text())")
        #expect(try !folder.read("site/content/albums.json").contains("\"title\": \"Z\""), "the add did not wait for the lock")
        flock(holder, LOCK_UN)
        close(holder)
        let exited = Date().addingTimeInterval(60)
        while process.isRunning, Date() < exited { try await Task.sleep(for: .milliseconds(20)) }
        #expect(process.terminationStatus == 0, "\(text())")
        #expect(text().contains("note: another gallery command is changing content/albums.json; waiting for it to finish"), "\(text())")
        #expect(try folder.read("site/content/albums.json").contains("\"title\": \"Z\""))
        let free = try await run(["undo"], folder)
        #expect(free.status == 0 && !free.stderr.contains("waiting"), "\(free.stderr)")
    }

    /// A read-only content/ folder with a writable archive in it: the message blamed the
    /// archive ("cannot write content/albums.json: Permission denied"), which was writable.
    @Test(.enabled(if: geteuid() == 0, "only root can run gallery as other users"))
    func aReadOnlyContentFolderIsNamedAsTheCause() async throws {
        let folder = try await starter()
        try give(folder, to: 2921, group: 2920)
        // Made while the folder is writable, as a first command would have.
        #expect(try await run(Self.add, as: 2921, group: 2920, folder).status == 0)
        let before = try folder.read("site/content/albums.json")
        #expect(chmod(folder.url.appending(path: "site/content").path, 0o555) == 0)
        defer { chmod(folder.url.appending(path: "site/content").path, 0o775) }
        let refused = try await run(["delete", "1"], as: 2921, group: 2920, folder)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("the folder content cannot be written (Permission denied): a new version is written beside the file and renamed over it; make it writable (chmod u+w content) for the user running gallery"), "\(refused.stderr)")
        #expect(try folder.read("site/content/albums.json") == before)
    }
}
