import GalleryPreview
import Testing

@Suite struct RequestPathTests {
    @Test func splitsAndDecodesOnce() throws {
        let path = try #require(RequestPath("/albums/a%20b/index.html"))
        #expect(path.segments == ["albums", "a b", "index.html"])
        #expect(!path.isFolder)
        #expect(RequestPath("/")?.segments == [])
        #expect(RequestPath("/")?.isFolder == true)
        #expect(RequestPath("/albums/x/")?.isFolder == true)
        // Decoded once only: a double-encoded dot-dot is the literal, harmless name `%2e%2e`.
        #expect(RequestPath("/%252e%252e/x")?.segments == ["%2e%2e", "x"])
    }

    @Test(arguments: [
        "/../secret", "/a/../../secret", "/%2e%2e/secret", "/%2E%2E/secret", "/.%2e/secret",
        "/..%2fsecret", "/%2e%2e%2fsecret", "/a%2fb", "/..%5csecret", "/..\\secret", "/a\\b",
        "/%00", "/a%00.html", "/./a", "//evil.example/", "/%c0%ae%c0%ae/secret", "/%zz", "relative",
    ])
    func refusesTraversalAndOddSpellings(_ raw: String) {
        #expect(RequestPath(raw) == nil)
    }

    /// A `%` without two hexadecimal digits after it is a malformed request, told apart from a
    /// way out of the site.
    @Test func tellsABadPercentEscapeApart() {
        for raw in ["/100%.txt", "/%zz", "/%", "/a%2", "/%g0", "/a%2/b"] {
            #expect(RequestPath.hasMalformedEscape(raw), "\(raw)")
        }
        for raw in ["/100%25.txt", "/%2e%2e/secret", "/a%2Fb", "/%c0%ae", "/plain", "/%aF"] {
            #expect(!RequestPath.hasMalformedEscape(raw), "\(raw)")
        }
    }
}
