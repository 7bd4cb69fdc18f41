import Foundation
import FoundationXML
import Testing

/// `[analytics]` as a user meets it: the chosen provider's scripts in the head of every page
/// `gallery build` writes, never in what `gallery serve` previews.
@Suite struct AnalyticsBuildTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let plausible = "[analytics]\nprovider = \"plausible\"\ndomain = \"albums.example.org\"\n"

    func site(_ config: String) throws -> TemporaryFolder {
        try Fixture.site((0..<6).map { Fixture.album("Title \($0)", "Artist") }, config: "[carousel]\nindex_page_size = 4\n\n" + config)
    }

    /// Every HTML page below `folder/path`.
    func pages(_ folder: TemporaryFolder, _ path: String = "public") -> [String] {
        folder.files(under: path).filter { $0.hasSuffix(".html") }
    }

    /// The `<script>` elements of a page's `<head>`, each as its attributes (and `code` for its text).
    func headScripts(_ folder: TemporaryFolder, _ path: String) throws -> [[String: String]] {
        let document = try XMLDocument(data: Data(try folder.read(path).utf8))
        let scripts = try document.nodes(forXPath: "/*[local-name()='html']/*[local-name()='head']/*[local-name()='script']")
        return scripts.compactMap { node in
            guard let element = node as? XMLElement else { return nil }
            var attributes: [String: String] = [:]
            for attribute in element.attributes ?? [] { attributes[attribute.name ?? ""] = attribute.stringValue }
            if let text = element.stringValue, !text.isEmpty { attributes["code"] = text }
            return attributes
        }
    }

    /// The head scripts that are not gallery's own.
    func analyticsScripts(_ folder: TemporaryFolder, _ path: String) throws -> [[String: String]] {
        try headScripts(folder, path).filter { !($0["src"] ?? "").contains("assets/gallery.") }
    }

    @Test func everyPublishedPageReportsToTheProviderAndPassesTheChecks() async throws {
        let folder = try site(Self.plausible)
        let run = try await GalleryBinary.run(["build", "-q"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let html = pages(folder)
        // Two index pages, six album pages and the 404 page.
        #expect(html.count == 9, "\(html)")
        for page in html {
            #expect(try analyticsScripts(folder, "public/" + page) == [
                ["defer": "defer", "data-domain": "albums.example.org", "src": "https://plausible.io/js/script.js"],
            ], "\(page)")
        }
        #expect(try !folder.read("public/carousel.svg").contains("plausible"))
        let check = try await GalleryBinary.run(["check"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    /// Switching providers reaches every page, even in an incremental build; dropping the
    /// section leaves no script behind.
    @Test func anotherProviderRewritesEveryPageAndNoneRemovesTheScripts() async throws {
        let folder = try site("[analytics]\nprovider = \"google\"\nid = \"G-TEST42\"\n")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        let html = pages(folder)
        let google = try analyticsScripts(folder, "public/index.html")
        #expect(google.map { $0["src"] } == ["https://www.googletagmanager.com/gtag/js?id=G-TEST42", nil])
        #expect(google.last?["code"]?.hasSuffix("gtag('config', 'G-TEST42');") == true)

        try folder.write("[carousel]\nindex_page_size = 4\n\n[analytics]\nprovider = \"goatcounter\"\ncode = \"albums\"\n", to: "gallery.toml")
        let switched = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(switched.stderr.contains("\(html.count) files written"), "\(switched.stderr)")
        for page in html {
            #expect(try analyticsScripts(folder, "public/" + page).map { $0["data-goatcounter"] } == ["https://albums.goatcounter.com/count"], "\(page)")
        }

        try folder.write("[carousel]\nindex_page_size = 4\n", to: "gallery.toml")
        #expect(try await GalleryBinary.run(["build", "-q"], in: folder.url).status == 0)
        for page in html {
            #expect(try analyticsScripts(folder, "public/" + page).isEmpty, "\(page)")
        }
    }

    /// A preview is the author's own visits: `gallery serve` leaves the scripts out of what it
    /// serves and writes. A build into the folder a preview used adds them, rather than taking
    /// the preview's output for up to date.
    @Test func servePreviewsWithoutThemAndABuildOfTheSameFolderAddsThem() async throws {
        let folder = try site(Self.plausible)
        let server = try await ServeProcess(in: folder.url, arguments: ["--output", "out"])
        let served = try await RawResponse.get("/", port: server.port)
        #expect(served.status == 200)
        #expect(served.body.contains("Title 0"))
        #expect(!served.body.contains("plausible"))
        await server.stop()
        #expect(pages(folder, "out").count == 9)
        for page in pages(folder, "out") {
            #expect(try analyticsScripts(folder, "out/" + page).isEmpty, "\(page)")
        }
        let build = try await GalleryBinary.run(["build", "--output", "out"], in: folder.url)
        #expect(build.status == 0, "\(build.stderr)")
        for page in pages(folder, "out") {
            #expect(try analyticsScripts(folder, "out/" + page).map { $0["data-domain"] } == ["albums.example.org"], "\(page)")
        }
    }

    @Test func plausibleTakesItsDomainFromTheBaseURLOrSaysWhatIsMissing() async throws {
        let folder = try site("[analytics]\nprovider = \"plausible\"\n")
        let relative = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(relative.status != 0)
        #expect(relative.stderr.contains("gallery.toml:5:1: error: [analytics] plausible needs the site's domain: set domain = \"example.org\""), "\(relative.stderr)")
        #expect(!folder.exists("public"))
        let absolute = try await GalleryBinary.run(["build", "-q", "--base-url", "https://records.example.org/shop/"], in: folder.url)
        #expect(absolute.status == 0, "\(absolute.stderr)")
        #expect(try analyticsScripts(folder, "public/index.html").map { $0["data-domain"] } == ["records.example.org"])
    }

    /// An override of the base template that drops the partial would publish pages that count
    /// nothing: the build says so.
    @Test func aBaseTemplateWithoutThePartialIsWarnedAbout() async throws {
        let folder = try site(Self.plausible)
        let base = try #require(String(data: try Data(contentsOf: Self.package.appending(path: "templates/base.mustache")), encoding: .utf8))
        try folder.write(base.replacingOccurrences(of: "{{>partials/analytics}}\n", with: ""), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: folder.url)
        #expect(run.status == 0)
        #expect(run.stderr.contains("gallery.toml: warning: [analytics] chooses plausible, but no page template includes {{>partials/analytics}}"), "\(run.stderr)")
        #expect(try analyticsScripts(folder, "public/index.html").isEmpty)
        #expect(try await GalleryBinary.run(["build", "--strict"], in: folder.url).status != 0)
    }
}
