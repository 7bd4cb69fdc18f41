import Foundation
import GalleryKit
@testable import GalleryPreview
import Synchronization
import Testing

/// What the watcher notices in a real site folder, through file events and through polling.
@Suite final class SiteWatcherTests {
    let root: URL
    let site: SiteFolder

    init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "gallery-watcher-\(UUID().uuidString)", directoryHint: .isDirectory)
        site = SiteFolder(root: root)
        try write("{}", to: "content/albums.json")
        try write("<p/>", to: "templates/album.html")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func write(_ text: String, to path: String) throws {
        let url = root.appending(path: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The two ways of finding changes: the kernel's events, and polling the fingerprint.
    enum Watching: CaseIterable, Sendable {
        case events, polling

        func changes(of site: SiteFolder) -> SiteChanges {
            switch self {
            case .events: SiteChanges(site: site)
            case .polling: SiteChanges(site: site, poll: .milliseconds(20))
            }
        }
    }

    @Test func fileEventsAreUsedWhereTheKernelHasThem() {
        #if os(Linux)
        #expect(SiteChanges(site: site).mode == .events)
        #endif
        #expect(SiteChanges(site: site, poll: .milliseconds(700)).mode == .polling(interval: .milliseconds(700)))
        #expect(SiteChanges(site: site, poll: .milliseconds(700)).interval == .milliseconds(700), "an interval asked for is kept")
    }

    @Test(arguments: Watching.allCases, ["content/albums.json", "content/covers/new.svg", "templates/album.html", "assets/site.css", "static/robots.txt", "static/img/logo.png", "static/.nojekyll", "static/.well-known/security.txt", "gallery.toml"])
    func anEditOfAnInputChangesTheToken(watching: Watching, path: String) throws {
        let changes = watching.changes(of: site)
        let before = changes.token()
        #expect(changes.token() == before, "nothing changed yet")
        try write("changed, and longer than before", to: path)
        let after = changes.token()
        #expect(after != before)
        #expect(changes.token() == after, "and then nothing more")
    }

    /// A template, asset or static file that is a symbolic link (to a theme's file elsewhere in
    /// the site) is watched through the link: the watch sees only the link, and an edit of the
    /// file it leads to was missed until another change or a restart.
    @Test(arguments: Watching.allCases, ["templates/album.mustache", "assets/label.css", "static/note.txt"])
    func anEditOfAFileALinkLeadsToChangesTheToken(watching: Watching, path: String) throws {
        try write("first", to: "theme/target")
        try FileManager.default.createDirectory(at: root.appending(path: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root.appending(path: path).path, withDestinationPath: root.appending(path: "theme/target").path)
        let linked = SiteWatcher.linkedFiles(in: [site.templates, site.assets, site.staticFolder])
        #expect(linked.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == [root.appending(path: "theme/target").resolvingSymlinksInPath().path])
        let changes = watching.changes(of: site)
        changes.watch(beyond: linked)
        let before = changes.token()
        try write("second, and longer", to: "theme/target")
        // The files beyond the watch are looked at no oftener than every 50 ms.
        var after = changes.token()
        let deadline = Date().addingTimeInterval(5)
        while after == before, Date() < deadline {
            usleep(20_000)
            after = changes.token()
        }
        #expect(after != before)
    }

    /// File events say which file changed, for the rebuild's line in the terminal; polling says
    /// only that something did.
    @Test(arguments: Watching.allCases, ["content/albums.json", "content/covers/new.svg", "templates/album.html", "static/.nojekyll", "gallery.toml"])
    func fileEventsSayWhichFileChanged(watching: Watching, path: String) throws {
        try write("<svg/>", to: "content/covers/old.svg")
        try write("User-agent: *", to: "static/robots.txt")
        let changes = watching.changes(of: site)
        _ = changes.token()
        #expect(changes.takeChangedFiles().summary == nil, "nothing changed yet")
        try write("changed \(UUID())", to: path)
        _ = changes.token()
        let changed = changes.takeChangedFiles()
        switch watching {
        case .events:
            #expect(changed.summary == SiteFolder.display(root.appending(path: path)))
        case .polling:
            #expect(changed.summary == nil)
        }
        #expect(changes.takeChangedFiles().summary == nil, "taken once")
        // A new folder is named by itself: files made in it before its watch are not seen apart.
        try write("<svg/>", to: "content/artwork/2024/a.svg")
        _ = changes.token()
        if watching == .events {
            #expect(changes.takeChangedFiles().summary == SiteFolder.display(root.appending(path: "content/artwork")))
        }
    }

    /// An editor's save makes and removes files of its own (vim writes `4913`, renames the file
    /// to `albums.json~`, writes it anew and removes the backup): the line names the file saved.
    /// Several files saved are named, or counted.
    @Test func theFilesNamedAreTheOnesThatAreThere() throws {
        let changes = SiteChanges(site: site)
        _ = changes.token()
        let folder = root.appending(path: "content")
        try Data().write(to: folder.appending(path: "4913"))
        try FileManager.default.removeItem(at: folder.appending(path: "4913"))
        try FileManager.default.moveItem(at: folder.appending(path: "albums.json"), to: folder.appending(path: "albums.json~"))
        try write("{\"version\": 1}", to: "content/albums.json")
        try FileManager.default.removeItem(at: folder.appending(path: "albums.json~"))
        _ = changes.token()
        #expect(changes.takeChangedFiles().summary == SiteFolder.display(folder.appending(path: "albums.json")))

        try write("a", to: "gallery.toml")
        try write("b", to: "templates/album.html")
        _ = changes.token()
        #expect(changes.takeChangedFiles().summary == SiteFolder.display(folder.appending(path: "albums.json")).replacingOccurrences(of: "content/albums.json", with: "gallery.toml") + " and " + SiteFolder.display(root.appending(path: "templates/album.html")))

        try write("<svg/>", to: "content/covers/old.svg")
        _ = changes.token()
        _ = changes.takeChangedFiles()
        for index in 0..<100 { try write("<svg/>", to: "content/covers/\(index).svg") }
        _ = changes.token()
        let many = try #require(changes.takeChangedFiles().summary)
        #expect(many == SiteFolder.display(folder.appending(path: "covers/0.svg")) + " and 99 more files", "\(many)")

        // A file removed is named when nothing else changed.
        try FileManager.default.removeItem(at: root.appending(path: "content/covers/7.svg"))
        _ = changes.token()
        #expect(changes.takeChangedFiles().summary == SiteFolder.display(root.appending(path: "content/covers/7.svg")))
    }

    @Test(arguments: Watching.allCases)
    func outputsAndHiddenFilesDoNotChangeTheToken(watching: Watching) throws {
        try write("User-agent: *", to: "static/robots.txt")
        try write("p {}", to: "assets/site.css")
        let changes = watching.changes(of: site)
        let before = changes.token()
        try write("<html/>", to: "public/index.html")
        try write("cache", to: ".gallery-cache/preview/index.html")
        try write("swap", to: "content/.albums.json.swp")
        try write("lock", to: "content/.albums.json.lock")
        // The archive's backup, kept by every library command, and an editor's.
        try write("{}", to: "content/albums.json.bak")
        try write("{}", to: "content/albums.json~")
        try write("notes", to: "README.md")
        // In static/, where dot files are published, only an editor's own files are left out.
        try write("swap", to: "static/.robots.txt.swp")
        try write("lock", to: "static/.#robots.txt")
        // Nor are editors' backups, which are not published either.
        try write("old", to: "static/robots.txt~")
        try write("old", to: "assets/#site.css#")
        // Vim's check that it may write, and GNU sed -i's temporary, each there a moment.
        try write("", to: "content/4913")
        try write("", to: "templates/5036")
        try write("{}", to: "content/sedAb12Cd")
        #expect(changes.token() == before)
        // A backup in static/ is published, so it is a change.
        try write("old", to: "static/robots.txt.bak")
        #expect(changes.token() != before)
    }

    @Test func writeProbesAreKnownByName() {
        #expect(SiteWatcher.isIgnored("4913", published: false))
        #expect(SiteWatcher.isIgnored("5036", published: false))
        #expect(SiteWatcher.isIgnored("sedX2aB9q", published: false))
        #expect(!SiteWatcher.isIgnored("4913", published: true), "static/ publishes every file")
        #expect(!SiteWatcher.isIgnored("4914", published: false))
        #expect(!SiteWatcher.isIgnored("1999", published: false))
        #expect(!SiteWatcher.isIgnored("sedation", published: false))
        #expect(!SiteWatcher.isIgnored("sed-a.svg", published: false))
    }

    /// Folders made while the server runs are watched from then on, however deep, and so is an
    /// input folder the site did not have when it started (this site has no `assets/`).
    @Test(arguments: Watching.allCases)
    func foldersMadeLaterAreWatchedToo(watching: Watching) throws {
        let changes = watching.changes(of: site)
        var last = changes.token()
        for path in ["content/covers/2024/winter/a.svg", "content/covers/2024/winter/a.svg", "content/covers/2024/b.svg", "assets/site.css", "assets/site.css"] {
            try write("<svg/> \(path) \(UUID())", to: path)
            let now = changes.token()
            #expect(now != last, "\(path)")
            last = now
        }
        try FileManager.default.removeItem(at: root.appending(path: "content/covers/2024"))
        #expect(changes.token() != last, "a folder removed")
    }

    /// A folder moved out of the site is no longer an input: saves in its new place rebuild
    /// nothing (the kernel's watch follows the folder, so it has to be dropped). One renamed
    /// inside the site is still watched under its new name.
    @Test(arguments: Watching.allCases)
    func aFolderMovedOutIsForgottenAndOneRenamedInsideIsNot(watching: Watching) throws {
        try write("<svg/>", to: "content/covers/2024/winter/a.svg")
        try write("<p/>", to: "templates/partials/tile.html")
        let elsewhere = FileManager.default.temporaryDirectory.appending(path: "gallery-moved-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let changes = watching.changes(of: site)
        var last = changes.token()
        try FileManager.default.moveItem(at: root.appending(path: "content/covers/2024"), to: elsewhere)
        #expect(changes.token() != last, "moving a folder out is a change")
        last = changes.token()
        for path in ["a.svg", "winter/a.svg", "winter/b.svg"] {
            try Data("<svg/> \(UUID())".utf8).write(to: elsewhere.appending(path: path))
            #expect(changes.token() == last, "a save in the moved-out folder, \(path), is not a change of the site")
        }
        try FileManager.default.moveItem(at: root.appending(path: "templates/partials"), to: root.appending(path: "templates/parts"))
        #expect(changes.token() != last, "a folder renamed inside the site")
        last = changes.token()
        try write("<p>changed</p>", to: "templates/parts/tile.html")
        #expect(changes.token() != last, "a save under the new name")
    }

    /// A stalled machine can space the saves out past the quiet period, and saves that far apart
    /// rightly rebuild twice: such a burst tells nothing, and is made again, up to three times.
    @Test(arguments: Watching.allCases)
    func aBurstOfSavesGivesOneRebuildOnceTheySettle(watching: Watching) async throws {
        let quiet = Duration.milliseconds(1500)
        for _ in 1...3 {
            if try await burstOfSaves(watching: watching, quiet: quiet) { return }
        }
        Issue.record("the saves never came within the quiet period in three tries: the machine was too busy to tell")
    }

    /// Five saves, then one more once the site settled. Returns false, having checked nothing,
    /// when the five did not come within `quiet` of each other.
    private func burstOfSaves(watching: Watching, quiet: Duration) async throws -> Bool {
        let counter = BuildCounter()
        let builder = PreviewBuilder(
            options: BuildOptions(site: site, output: root.appending(path: "public")),
            state: PreviewState(), hub: LiveReloadHub(), observer: counter, log: { _ in }
        )
        let changes = watching.changes(of: site)
        let watcher = SiteWatcher(builder: builder, changes: changes, baseline: changes.token(), quietPeriod: quiet)
        let task = Task { try await watcher.run() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        // Five saves 60 ms apart, each seen by several polls: an editor's save, its backup and a
        // chmod, or `gallery add` writing the archive and the undo history. They are made on a
        // thread of their own: on the test process's few pool threads, busy with other suites, a
        // 60 ms sleep once took 8.8 s.
        let archive = root.appending(path: "content/albums.json")
        let longestGap: Duration = try await withCheckedThrowingContinuation { continuation in
            Thread {
                var last = clock.now
                var longest = Duration.zero
                do {
                    for index in 0..<5 {
                        try Data(("save \(index)" + String(repeating: "!", count: index)).utf8).write(to: archive)
                        longest = max(longest, clock.now - last)
                        last = clock.now
                        usleep(60_000)
                    }
                    continuation.resume(returning: longest)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
        while counter.builds == 0, clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await Task.sleep(for: quiet * 2)
        guard longestGap < quiet else {
            task.cancel()
            _ = try? await task.value
            return false
        }
        #expect(counter.builds == 1)
        // A save after the site settled is a rebuild of its own.
        try write("title = \"Later \(UUID())\"\n", to: "gallery.toml")
        let secondDeadline = clock.now + .seconds(60)
        while counter.builds < 2, clock.now < secondDeadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(counter.builds == 2)
        task.cancel()
        _ = try? await task.value
        return true
    }
}

/// Counts the builds started (each begins with its first step).
private final class BuildCounter: BuildObserving {
    private let count = Mutex(0)

    var builds: Int { count.withLock { $0 } }

    func receive(_ event: BuildEvent) {
        if case .stepStarted(index: 1, _, _) = event { count.withLock { $0 += 1 } }
    }
}
