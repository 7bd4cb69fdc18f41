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
        ("archive.tar.xz", "application/octet-stream"),
    ])
    func typesByExtension(_ path: String, _ type: String) {
        #expect(ContentType.forPath(path) == type)
    }
}
