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
        ("README", "application/octet-stream"),
        (".htaccess", "application/octet-stream"),
    ])
    func typesByExtension(_ path: String, _ type: String) {
        #expect(ContentType.forPath(path) == type)
    }
}
