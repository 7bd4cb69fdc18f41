import Foundation
import Testing

/// `static/`: files the site publishes as they are, at the top of the output, as Hugo's.
@Suite struct StaticFilesTests {
    @Test func staticFilesArePublishedAsTheyAreAndFollowTheirSource() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write("albums.example.org\n", to: "static/CNAME")
        try site.write("User-agent: *\n", to: "static/robots.txt")
        try site.write("", to: "static/.nojekyll")
        try site.write("Contact: mailto:a@example.org\n", to: "static/.well-known/security.txt")
        try site.write("not really a png\n", to: "static/img/logo.png")
        let run = try await GalleryBinary.run(["build", "-q"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        for path in ["CNAME", "robots.txt", ".nojekyll", ".well-known/security.txt", "img/logo.png"] {
            #expect(try site.read("public/" + path) == site.read("static/" + path), "\(path)")
        }
        #expect(try await GalleryBinary.run(["check"], in: site.url).status == 0)
        // A changed file is published again, a removed one leaves the output; nothing else moves.
        try site.write("User-agent: *\nDisallow: /private/\n", to: "static/robots.txt")
        try FileManager.default.removeItem(at: site.url.appending(path: "static/img/logo.png"))
        let again = try await GalleryBinary.run(["build", "--log-format", "json"], in: site.url)
        #expect(again.status == 0, "\(again.stderr)")
        let summary = try #require(again.stdout.split(separator: "\n").last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        let files = try #require(summary["files"] as? [String: Int])
        #expect(files["written"] == 1 && files["removed"] == 1, "\(files)")
        #expect(try site.read("public/robots.txt").contains("Disallow: /private/"))
        #expect(!site.exists("public/img/logo.png"))
    }

    @Test func aStaticFileNeverReplacesWhatGalleryWrites() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        #expect(try await GalleryBinary.run(["build", "-q"], in: site.url).status == 0)
        let before = try site.read("public/index.html")
        try site.write("<p>mine</p>\n", to: "static/index.html")
        try site.write("{}\n", to: "static/albums.json")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("static/index.html: error: gallery writes index.html itself, so this file would replace it; rename or remove it"), "\(run.stderr)")
        #expect(run.stderr.contains("static/albums.json: error: gallery writes albums.json itself"), "\(run.stderr)")
        #expect(try site.read("public/index.html") == before)
        let into = try await GalleryBinary.run(["build", "--output", "static/out"], in: site.url)
        #expect(into.status != 0)
        #expect(into.stderr.contains("the output folder is inside static/"), "\(into.stderr)")
    }
}
