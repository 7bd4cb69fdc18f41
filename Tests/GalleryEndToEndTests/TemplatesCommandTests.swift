import Foundation
import Testing

/// `gallery templates`: the built-in templates as files in a site, to customise from.
@Suite struct TemplatesCommandTests: StarterSiteTests {
    /// This repository's `templates/` folder, which the binary carries.
    static let repositoryTemplates = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "templates", directoryHint: .isDirectory)

    /// The repository's template files, as paths relative to `templates/`.
    static func repositoryTemplateFiles() -> [String] {
        let base = repositoryTemplates.standardizedFileURL.path
        let walker = FileManager.default.enumerator(atPath: base)
        return (walker?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".mustache") }.sorted()
    }

    @Test func writesTheRepositorysTemplatesAndASiteBuiltWithThemIsTheSame() async throws {
        let folder = try await starter()
        let before = try await run(["build", "--strict", "--output", "out-builtin"], folder)
        #expect(before.status == 0, "\(before.stderr)")

        let export = try await run(["templates"], folder)
        #expect(export.status == 0, "\(export.stderr)")
        let expected = Self.repositoryTemplateFiles()
        #expect(expected.count >= 10 && expected.contains("partials/tile.mustache"))
        #expect(folder.files(under: "site/templates") == expected)
        for path in expected {
            #expect(try Data(contentsOf: folder.url.appending(path: "site/templates/\(path)")) == Data(contentsOf: Self.repositoryTemplates.appending(path: path)), "\(path)")
            #expect(export.stdout.contains("wrote site/templates/\(path)\n"), "\(export.stdout)")
        }
        #expect(export.stdout.contains("Wrote \(expected.count) templates into site/templates/\n"), "\(export.stdout)")

        // The site's own copies change nothing: no warning, and the same bytes in every file.
        let after = try await run(["build", "--strict", "--output", "out-exported"], folder)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(!after.stderr.contains("warning"), "\(after.stderr)")
        let files = folder.files(under: "out-builtin")
        #expect(files.count > 20)
        #expect(folder.files(under: "out-exported") == files)
        for path in files {
            #expect(try Data(contentsOf: folder.url.appending(path: "out-builtin/\(path)")) == Data(contentsOf: folder.url.appending(path: "out-exported/\(path)")), "\(path)")
        }
    }

    /// `--assets` writes the built-in stylesheet and script as their source, to restyle from:
    /// the only copy of them a designer had was the shrunk one in public/. The site built with
    /// them links them under fingerprinted names, as it does the built-in ones.
    @Test func assetsWritesTheBuiltInStylesheetAndScript() async throws {
        let folder = try await starter()
        let export = try await run(["templates", "--assets"], folder)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("wrote site/assets/gallery.css\nwrote site/assets/gallery.js\nWrote 2 files into site/assets/"), "\(export.stdout)")
        let repository = Self.repositoryTemplates.deletingLastPathComponent()
        for name in ["gallery.css", "gallery.js"] {
            #expect(try Data(contentsOf: folder.url.appending(path: "site/assets/\(name)")) == Data(contentsOf: repository.appending(path: "assets/\(name)")), "\(name)")
        }
        #expect(try await run(["templates", "--assets"], folder).stdout.contains("To replace them with the built-in version: gallery templates --assets --force"))
        #expect(try await run(["templates", "--assets", "base"], folder).status != 0)
        let build = try await run(["build", "--strict"], folder)
        #expect(build.status == 0, "\(build.stderr)")
        let index = try folder.read("site/public/index.html")
        #expect(index.range(of: #"href="\./assets/gallery\.[0-9a-f]{10}\.css""#, options: .regularExpression) != nil)
    }

    @Test func neverWritesOverAFileThatExistsUnlessForced() async throws {
        let folder = try await starter()
        try folder.write("{{<base}}{{$content}}<p>mine</p>{{/content}}{{/base}}\n", to: "site/templates/album.mustache")
        try folder.write("<li>my tile</li>\n", to: "site/templates/partials/tile.mustache")
        let export = try await run(["templates"], folder)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try folder.read("site/templates/album.mustache") == "{{<base}}{{$content}}<p>mine</p>{{/content}}{{/base}}\n")
        #expect(try folder.read("site/templates/partials/tile.mustache") == "<li>my tile</li>\n")
        #expect(export.stdout.contains("kept site/templates/album.mustache: it exists\nkept site/templates/partials/tile.mustache: it exists\n"), "\(export.stdout)")
        #expect(!export.stdout.contains("wrote site/templates/album.mustache"))
        #expect(export.stdout.contains("wrote site/templates/base.mustache\n"))
        let written = Self.repositoryTemplateFiles().count - 2
        #expect(export.stdout.contains(
            "Wrote \(written) templates into site/templates/; kept 2 templates that exist, as they may hold your changes. To replace them with the built-in version: gallery templates album partials/tile --force --site site\n"
        ), "\(export.stdout)")

        // Again: every file exists, so nothing is written.
        let again = try await run(["templates"], folder)
        #expect(again.status == 0)
        #expect(!again.stdout.contains("wrote "))
        #expect(again.stdout.contains("Wrote no template; kept"), "\(again.stdout)")

        // --force writes the built-in version over the one named, and only that one.
        let forced = try await run(["templates", "album", "--force"], folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("wrote site/templates/album.mustache\nWrote 1 template into site/templates/\n"), "\(forced.stdout)")
        #expect(try Data(contentsOf: folder.url.appending(path: "site/templates/album.mustache")) == Data(contentsOf: Self.repositoryTemplates.appending(path: "album.mustache")))
        #expect(try folder.read("site/templates/partials/tile.mustache") == "<li>my tile</li>\n")
    }

    @Test func writesOnlyTheTemplatesNamedAndRefusesAnUnknownName() async throws {
        let folder = try await starter()
        let some = try await run(["templates", "partials/tile", "templates/base.mustache", "partials/tile.mustache"], folder)
        #expect(some.status == 0, "\(some.stderr)")
        #expect(some.stdout.hasPrefix("wrote site/templates/partials/tile.mustache\nwrote site/templates/base.mustache\nWrote 2 templates"), "\(some.stdout)")
        #expect(folder.files(under: "site/templates") == ["base.mustache", "partials/tile.mustache"])
        let again = try await run(["templates", "base"], folder)
        #expect(again.stdout == """
            kept site/templates/base.mustache: it exists
            Wrote no template; kept 1 template that exists, as it may hold your changes. To replace it with the built-in version: gallery templates base --force --site site

            """, "\(again.stdout)")

        let misspelt = try await run(["templates", "partials/tiel", "album"], folder)
        #expect(misspelt.status != 0)
        #expect(misspelt.stderr.contains("there is no built-in template 'partials/tiel'; did you mean 'partials/tile'?"), "\(misspelt.stderr)")
        let folderless = try await run(["templates", "details"], folder)
        #expect(folderless.stderr.contains("there is no built-in template 'details'; did you mean 'partials/details'?"), "\(folderless.stderr)")
        let slip = try await run(["templates", "tiel"], folder)
        #expect(slip.stderr.contains("there is no built-in template 'tiel'; did you mean 'partials/tile'?"), "\(slip.stderr)")
        // Every wrong name in one run.
        let two = try await run(["templates", "albm", "partials/detials"], folder)
        #expect(two.stderr.contains("'albm'; did you mean 'album'?") && two.stderr.contains("'partials/detials'; did you mean 'partials/details'?"), "\(two.stderr)")
        let unknown = try await run(["templates", "footer"], folder)
        #expect(unknown.stderr.contains("there is no built-in template 'footer'; the built-in templates are 404, album, base, index, partials/"), "\(unknown.stderr)")
        // Nothing was written by the refused runs.
        #expect(folder.files(under: "site/templates") == ["base.mustache", "partials/tile.mustache"])
    }

    @Test func aFolderThatIsNoSiteGetsNoTemplates() async throws {
        let folder = try TemporaryFolder()
        let nowhere = try await GalleryBinary.run(["templates", "--site", "nope"], in: folder.url)
        #expect(nowhere.status != 0)
        #expect(nowhere.stderr.contains("the site folder nope does not exist"), "\(nowhere.stderr)")
        let empty = try await GalleryBinary.run(["templates"], in: folder.url)
        #expect(empty.status != 0)
        #expect(empty.stderr.contains("content/albums.json: error: there is no album archive here; run `gallery init DIR`"), "\(empty.stderr)")
        #expect(folder.files(under: ".").isEmpty)
    }
}
