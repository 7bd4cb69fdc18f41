import Foundation
import GalleryKit
import GalleryPreview
import Testing

/// What the watcher notices: the fingerprint of a real site folder before and after edits.
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

    @Test(arguments: ["content/albums.json", "content/covers/new.svg", "templates/album.html", "assets/site.css", "gallery.toml"])
    func anEditOfAnInputChangesTheFingerprint(_ path: String) throws {
        let before = SiteWatcher.fingerprint(of: site)
        try write("changed, and longer than before", to: path)
        #expect(SiteWatcher.fingerprint(of: site) != before)
    }

    @Test func outputsAndHiddenFilesAreNotWatched() throws {
        let before = SiteWatcher.fingerprint(of: site)
        try write("<html/>", to: "public/index.html")
        try write("cache", to: ".gallery-cache/preview/index.html")
        try write("swap", to: "content/.albums.json.swp")
        #expect(SiteWatcher.fingerprint(of: site) == before)
    }
}
