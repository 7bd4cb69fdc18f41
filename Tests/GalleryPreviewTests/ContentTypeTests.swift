import Foundation
import GalleryPreview
import Testing

@Suite struct ContentTypeTests {
    @Test(arguments: [
        ("index.html", "text/html; charset=utf-8"),
        ("assets/gallery.0123abcd.css", "text/css; charset=utf-8"),
        ("assets/gallery.0123abcd.js", "text/javascript; charset=utf-8"),
        ("albums.json", "application/json"),
        ("sitemap.xml", "application/xml"),
        ("carousel.svg", "image/svg+xml"),
        ("thumbs/a.WEBP", "image/webp"),
        ("thumbs/a.jpg", "image/jpeg"),
        ("covers/a.png", "image/png"),
        ("CNAME", "text/plain; charset=utf-8"),
        ("README", "text/plain; charset=utf-8"),
        (".nojekyll", "text/plain; charset=utf-8"),
        ("press/kit.PDF", "application/pdf"),
        ("audio/track.mp3", "audio/mpeg"),
        ("audio/track.m4a", "audio/mp4"),
        ("video/clip.mp4", "video/mp4"),
        ("fonts/a.ttf", "font/ttf"),
        ("fonts/a.otf", "font/otf"),
        ("data/albums.csv", "text/csv; charset=utf-8"),
        ("notes.md", "text/markdown; charset=utf-8"),
        ("video/clip.vtt", "text/vtt; charset=utf-8"),
        ("video/clip.ogv", "video/ogg"),
        ("audio/take.opus", "audio/ogg"),
        ("feed.rss", "application/rss+xml"),
        ("tour.ics", "text/calendar; charset=utf-8"),
        ("scans/sleeve.TIF", "image/tiff"),
        ("fonts/a.eot", "application/vnd.ms-fontobject"),
        ("press/kit.tar.gz", "application/gzip"),
        ("archive.tar.xz", "application/octet-stream"),
        ("audio/set.m3u", "audio/x-mpegurl"),
        ("stream/live.M3U8", "application/vnd.apple.mpegurl"),
        ("radio.pls", "audio/x-scpls"),
        ("demo.mid", "audio/midi"),
        ("demo.midi", "audio/midi"),
        ("audio/take.weba", "audio/webm"),
        ("feed.xsl", "text/xsl"),
        ("audio/take.flac", "audio/flac"),
    ])
    func typesByExtension(_ path: String, _ type: String) {
        #expect(ContentType.forPath(path) == type)
    }
}

@Suite struct ChangedFilesTests {
    /// A file whose name holds an escape sequence or a line break is named escaped in the
    /// rebuild's line: a cloned site's file names cannot clear or rewrite the terminal.
    @Test func namesAreShownWithTheirControlCharactersEscaped() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "gallery-changed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "note\u{1B}[2J\nfake.txt")
        try Data("x".utf8).write(to: file)
        var changed = ChangedFiles()
        changed.insert(file.path)
        let summary = try #require(changed.summary)
        #expect(summary.hasSuffix("note\\u{1B}[2J\\u{A}fake.txt"), "\(summary)")
        #expect(!summary.contains("\u{1B}") && !summary.contains("\n"))
    }

    /// Past the paths it tells apart, a burst is counted by its events, several a file: the line
    /// then says "over" the files it knows of, not a count twice too high.
    @Test func aBurstPastWhatIsToldApartIsCountedAsAtLeast() throws {
        var changed = ChangedFiles()
        for index in 0..<10_000 { changed.insert("/nowhere/file-\(index)") }
        #expect(changed.summary == "/nowhere/file-0 and 9999 more files")
        for index in 10_000..<12_000 {
            changed.insert("/nowhere/file-\(index)")
            changed.insert("/nowhere/file-\(index)")
        }
        #expect(changed.summary == "/nowhere/file-0 and over 9999 more files")
    }
}
