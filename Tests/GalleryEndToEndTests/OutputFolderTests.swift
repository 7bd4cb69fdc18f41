import Foundation
import Testing

/// Where a build writes and what `gallery check` looks at: a build never writes over the site's
/// own files, and `check` checks what the build wrote, as the build would.
@Suite struct OutputFolderTests {
    @Test func anOutputFolderAmongTheSitesOwnFilesIsRefusedAndNothingIsLost() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let site = folder.url.appending(path: "site")
        try FileManager.default.createSymbolicLink(atPath: site.appending(path: "linked").path, withDestinationPath: "content")
        try folder.write("a { }\n", to: "site/assets/extra.css")
        let archive = try folder.read("site/content/albums.json")
        let cases = [
            ("content", "content: error: the output folder is content/, whose files the build's own would overwrite"),
            ("content/covers", "content/covers: error: the output folder is inside content/"),
            ("linked/new", "linked/new: error: the output folder is inside content/"),
            (".", ".: error: the output folder is the site folder itself"),
            ("..", "error: the output folder holds the site folder"),
            ("assets", "assets: error: the output folder is assets/"),
            (".gallery-cache", ".gallery-cache: error: the output folder is the cache folder"),
        ]
        for (output, message) in cases {
            let run = try await GalleryBinary.run(["build", "--output", output], in: site)
            #expect(run.status != 0, "\(output)")
            #expect(run.stderr.contains(message), "\(output): \(run.stderr)")
            #expect(run.stderr.contains("write the site to another folder with --output or [build] output"), "\(output)")
        }
        // The same from gallery.toml, named there.
        try folder.write(try folder.read("site/gallery.toml") + "\n[build]\noutput = \"content\"\n", to: "site/gallery.toml")
        let configured = try await GalleryBinary.run(["build"], in: site)
        #expect(configured.status != 0)
        #expect(configured.stderr.contains("gallery.toml: error: the output folder is content/"), "\(configured.stderr)")
        #expect(try folder.read("site/content/albums.json") == archive)
        #expect(folder.files(under: "site/content") == ["albums.json"] + folder.files(under: "site/content/covers").map { "covers/" + $0 })
        #expect(!folder.exists("site/index.html") && !folder.exists("index.html") && !folder.exists("site/assets/gallery.css"))
        // A folder of its own inside the site, such as docs/ for GitHub Pages, is fine.
        let docs = try await GalleryBinary.run(["build", "-q", "--output", "docs"], in: site)
        #expect(docs.status == 0, "\(docs.stderr)")
        #expect(folder.exists("site/docs/index.html"))
    }
}
