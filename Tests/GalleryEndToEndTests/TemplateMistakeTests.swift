import Foundation
import GalleryKit
import Testing

/// Slips a web designer makes when customising templates, as `gallery build` tells them.
@Suite struct TemplateMistakeTests {
    /// The built-in template `name` with every `old` replaced by `new`.
    func builtin(_ name: String, replacing old: String, with new: String) throws -> String {
        let text = try #require(BuiltinResources.text(at: "templates/\(name).mustache"))
        #expect(text.contains(old))
        return text.replacingOccurrences(of: old, with: new)
    }

    /// A template or gallery.toml saved as Latin-1 (`é` as the one byte 0xE9) is refused with
    /// the line and column of the first byte that is not UTF-8, and what to do.
    @Test func aFileThatIsNotUTF8IsToldWhereAndHowToFixIt() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        var template = Array("<p>{{title}}</p>\n<p>Caf".utf8)
        template += [0xE9]
        template += Array(" au lait</p>\n".utf8)
        try FileManager.default.createDirectory(at: site.url.appending(path: "templates/partials"), withIntermediateDirectories: true)
        try Data(template).write(to: site.url.appending(path: "templates/partials/extra.mustache"))
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("templates/partials/extra.mustache:2:7: error: this template is not UTF-8 text: the byte 0xE9 here starts no UTF-8 character (an editor saved it as Latin-1 or Windows-1252?); save the file as UTF-8"), "\(run.stderr)")
        // A NUL ended every page for libxml2 ("Premature end of data in tag p"), naming nothing.
        try Data(Array("<p>\n  <b>x</b>".utf8) + [0] + Array("</p>\n".utf8)).write(to: site.url.appending(path: "templates/partials/extra.mustache"))
        let nul = try await GalleryBinary.run(["build"], in: site.url)
        #expect(nul.status != 0)
        #expect(nul.stderr.contains("templates/partials/extra.mustache:2:11: error: this template holds a NUL character (U+0000), where a page would end for any reader; delete it"), "\(nul.stderr)")
        try FileManager.default.removeItem(at: site.url.appending(path: "templates/partials/extra.mustache"))
        try Data(Array("title = \"Caf".utf8) + [0xE9] + Array("\"\n".utf8)).write(to: site.url.appending(path: "gallery.toml"))
        let toml = try await GalleryBinary.run(["build"], in: site.url)
        #expect(toml.status != 0)
        #expect(toml.stderr.contains("gallery.toml:1:13: error: gallery.toml is not UTF-8 text: the byte 0xE9"), "\(toml.stderr)")
    }

    @Test func aMisspeltBlockIsAWarningAndWithStrictAnError() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")])
        try site.write(try builtin("album", replacing: "content}}", with: "contnet}}"), to: "templates/album.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("templates/album.mustache:3:1: warning: block 'contnet' is not defined by its parent 'base', so what it holds is shown nowhere; did you mean 'content'?"), "\(run.stderr)")
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("block 'contnet' is not defined"), "\(strict.stderr)")
        #expect(!site.exists("strict-out"))
    }

    @Test func aBlockRenamedInBaseIsOneWarningForEveryPageThatLosesIt() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write(try builtin("base", replacing: "{{$content}}{{/content}}", with: "{{$inhalt}}{{/inhalt}}"), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings == [
            "templates/base.mustache: warning: 'base' has no block 'content', which the built-in templates '404', 'album' and 'index' fill, so what they put there is shown nowhere; add {{$content}}{{/content}} where it belongs, or give that name to the block meant for it ('base' has 'head', 'inhalt' and 'title')",
        ], "\(run.stderr)")
        let strict = try await GalleryBinary.run(["build", "--strict", "--output", "strict-out"], in: site.url)
        #expect(strict.status != 0)
        #expect(!site.exists("strict-out"))
    }

    /// An empty base layout made every page empty, and each page said so on a line of its own
    /// ("Document is empty"), naming no template: 10,002 lines for 10,000 albums. Each page
    /// template now says it once, for all its pages.
    @Test func emptyPagesAreToldOnceATemplate() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D"), Fixture.album("E", "F")])
        try site.write("", to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let empty = run.stderr.split(separator: "\n").filter { $0.contains("the page is empty") }
        #expect(empty.count == 3, "\(run.stderr)")
        #expect(empty.contains { $0.hasPrefix("(built-in) templates/album.mustache:1: error: the page is empty: neither the template album nor a layout it extends wrote anything (libxml2: Document is empty) (public/albums/") && $0.hasSuffix(" and 2 other pages, not written)") }, "\(run.stderr)")
        #expect(!site.exists("public"))
    }

    @Test func aTagOneBraceShortIsToldAsNotClosedOnOneLine() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let album = try builtin("album", replacing: "{{album.artist}}</span></span></h1>", with: "{{album.artist}</span></span></h1>")
        try site.write(album, to: "templates/album.mustache")
        let line = try #require(album.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("{{album.artist}<") })
        let text = album.split(separator: "\n", omittingEmptySubsequences: false)[line]
        let column = text.distance(from: text.startIndex, to: try #require(text.range(of: "{{album.artist}<")).lowerBound) + 1
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.first == "templates/album.mustache:\(line + 1):\(column): error: template 'album' does not parse: the tag '{{album.artist}' is not closed: it needs '}}'", "\(run.stderr)")
        #expect(!run.stderr.contains("</span>"), "\(run.stderr)")
        #expect(!site.exists("public"))
    }

    /// A partial that includes itself was cut off at the renderer's deepest nesting, 63 footers
    /// deep, and the build passed; a template that extends itself drew a block warning and a
    /// libxml2 error. Both are now one error naming the circle, and nothing is written.
    @Test func aTemplateThatIncludesOrExtendsItselfStopsTheBuild() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write(try builtin("base", replacing: "</body>", with: "{{>partials/footer}}</body>"), to: "templates/base.mustache")
        try site.write("<footer>{{>partials/footer}}</footer>\n", to: "templates/partials/footer.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let findings = run.stderr.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(findings.first == "templates/partials/footer.mustache:1:9: error: partials/footer includes itself: partials/footer → partials/footer; a page would hold it inside itself without end: remove {{>partials/footer}}", "\(run.stderr)")
        #expect(findings.count == 1, "\(run.stderr)")
        #expect(!site.exists("public"))

        try site.write("<footer>{{>partials/credits}}</footer>\n", to: "templates/partials/footer.mustache")
        try site.write("<p>{{site.title}} {{>partials/footer}}</p>\n", to: "templates/partials/credits.mustache")
        let two = try await GalleryBinary.run(["build"], in: site.url)
        #expect(two.status != 0)
        #expect(two.stderr.contains("templates/partials/credits.mustache:1:19: error: partials/credits includes itself: partials/credits → partials/footer → partials/credits"), "\(two.stderr)")

        try site.write("<footer/>\n", to: "templates/partials/footer.mustache")
        try FileManager.default.removeItem(at: site.url.appending(path: "templates/partials/credits.mustache"))
        try site.write("{{<album}}{{$content}}x{{/content}}{{/album}}\n", to: "templates/album.mustache")
        let extends = try await GalleryBinary.run(["build"], in: site.url)
        #expect(extends.status != 0)
        let errors = extends.stderr.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(errors == [
            "templates/album.mustache:1:1: error: album extends itself: album → album; a template cannot be its own parent: name another in {{<…}}, such as {{<base}}",
        ], "\(extends.stderr)")
        #expect(!extends.stderr.contains("block 'content'") && !extends.stderr.contains("Start tag expected"), "\(extends.stderr)")
        #expect(!site.exists("public"))
    }

    /// A template saved under another extension was ignored without a word; it is now told as
    /// `templates/Album.mustache` is, and an editor's backup is still left alone.
    @Test func aTemplateWithAnotherExtensionIsAWarning() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let album = try builtin("album", replacing: "<h1>", with: "<h1 class=\"mine\">")
        for name in ["album.html", "album.hbs", "album.mustache.html", "album.mustache~"] {
            try site.write(album, to: "templates/\(name)")
        }
        try site.write(try #require(BuiltinResources.text(at: "templates/partials/tile.mustache")), to: "templates/partials/tile.html")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let notRead = "warning: only files named NAME.mustache are templates, so this file is not read"
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings == [
            "templates/album.hbs: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/album.html: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/album.mustache.html: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/partials/tile.html: \(notRead); name it templates/partials/tile.mustache to replace the built-in 'partials/tile'",
        ], "\(run.stderr)")
    }

    /// `templates/base.mustache:35: error: duplicate id 'details' (first used on line 41)`
    /// named a line of the page beside a line of the template: the first use is now named by
    /// the template that wrote it.
    @Test func aDuplicateIdNamesTheTemplateOfItsFirstUse() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let base = try builtin("base", replacing: "</main>", with: "<p id=\"details\">x</p>\n</main>")
        let line = try #require(base.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("<p id=\"details\">") }) + 1
        try site.write(base, to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.first?.hasPrefix("templates/base.mustache:\(line): error: duplicate id 'details' (first used at (built-in) templates/partials/details.mustache:1) (public/") == true, "\(run.stderr)")
    }

    /// `{{root}}/about/` made `.//about/` on pages (a 403 from `gallery serve`, `//about/` to a
    /// browser) and `//about/`, a link to a host named `about`, on 404.html, and the link check
    /// walked over the empty segment. The template gets a warning, and each page's link an error.
    @Test func aSlashAfterRootIsAWarningAndItsDoubleSlashAnError() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let base = try builtin("base", replacing: "</main>", with: "<p><a href=\"{{root}}/about/\">About</a></p>\n</main>")
        let lines = base.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("{{root}}/about/") })
        let column = lines[line].distance(from: lines[line].startIndex, to: try #require(lines[line].range(of: "{{root}}")).lowerBound) + 1
        try site.write(base, to: "templates/base.mustache")
        try site.write("<p>About us</p>\n", to: "static/about/index.html")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let findings = run.stderr.split(separator: "\n").filter { $0.contains("error:") || $0.contains("warning:") }
        #expect(findings.contains("templates/base.mustache:\(line + 1):\(column): warning: '{{root}}/about/' doubles a slash: root already ends with one, so pages link to './/about/' and 404.html to '//about/', an address on another host; write '{{root}}about/'"), "\(run.stderr)")
        #expect(findings.contains { $0.hasPrefix("templates/base.mustache:\(line + 1): error: link to './/about/' has an empty path segment ('//'), which browsers keep, so it leads elsewhere; write './about/' (public/index.html:") }, "\(run.stderr)")
        #expect(!site.exists("public"))
    }

    /// A `<` in an inline `<style>` was given the text's advice, `&lt;`, which a browser hands
    /// the CSS as it is (the HTML parser reads `<style>` as raw text): it now gets the script's
    /// advice, and a reference left in a style or script is a warning at its template line.
    @Test func anInlineStyleGetsTheAdviceThatKeepsItsCSS() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        let broken = try builtin("base", replacing: "</head>", with: "<style>a::after { content: \"<\" }</style>\n</head>")
        let line = try #require(broken.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("<style>") }) + 1
        try site.write(broken, to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.first?.hasPrefix("templates/base.mustache:\(line): error: StartTag: invalid element name; a < or & in an inline style breaks XHTML, and written &lt; or &amp; it reaches the CSS as it is in a browser: move the CSS to a file under assets/, or wrap it in /*<![CDATA[*/ … /*]]>*/ (public/") == true, "\(run.stderr)")

        try site.write(try builtin("base", replacing: "</head>", with: "<style>a::after { content: \"&lt;\" }</style>\n</head>"), to: "templates/base.mustache")
        let escaped = try await GalleryBinary.run(["build"], in: site.url)
        #expect(escaped.status == 0, "\(escaped.stderr)")
        let warnings = escaped.stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(escaped.stderr)")
        #expect(warnings.first?.hasPrefix("templates/base.mustache:\(line): warning: '&lt;' inside an inline <style> is left as it is by browsers, which read the page as HTML (XML reads '<'); write the character itself, inside /*<![CDATA[*/ … /*]]>*/ if it is a < or an &, or move the CSS to a file under assets/ (public/") == true, "\(escaped.stderr)")
    }

    /// "did you mean" offered the name asked for ('url' for `site.url`) or another object's
    /// name, and a name repeated on a line was told at its first column: each warning is now at
    /// its tag, with a hint from the object asked or the object that has the name.
    @Test func aMisspeltNameIsToldAtItsTagWithTheAskedObjectsNames() async throws {
        let site = try Fixture.site([Fixture.album("A", "B"), Fixture.album("C", "D")])
        let details = try #require(BuiltinResources.text(at: "templates/partials/details.mustache"))
        try site.write(details + "<p class=\"dump\">{{album.titel}} and then {{titel}}</p>\n<p>{{site.url}} {{page}}</p>\n", to: "templates/partials/details.mustache")
        let line = details.split(separator: "\n", omittingEmptySubsequences: false).count
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status == 0, "\(run.stderr)")
        let readme = " The README's \"Template values\" lists the names."
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("warning:") }.map { $0.replacingOccurrences(of: readme, with: "") }
        let path = "templates/partials/details.mustache"
        #expect(warnings == [
            "\(path):\(line):17: warning: 'album.titel': no value is called 'titel' there, so it renders empty; did you mean 'title'?",
            "\(path):\(line):42: warning: no value is called 'titel', so it renders empty; did you mean 'title'?",
            "\(path):\(line + 1):4: warning: 'site.url': no value is called 'url' there, so it renders empty; 'url' is a value of social and social.image, not of site.",
            "\(path):\(line + 1):17: warning: no value is called 'page', so it renders empty; 'page' is a value of carousel: write {{carousel.page}}.",
        ], "\(run.stderr)")
    }

    /// `<use xlink:href="#disc"/>` without the xlink namespace drew libxml2's message alone.
    @Test func anUndeclaredXlinkPrefixIsToldHowToFixIt() async throws {
        let site = try Fixture.site([Fixture.album("A", "B")])
        try site.write(try builtin("base", replacing: "</main>", with: "<svg width=\"10\" height=\"10\"><defs><circle id=\"disc\" r=\"4\"/></defs><use xlink:href=\"#disc\"/></svg>\n</main>"), to: "templates/base.mustache")
        let run = try await GalleryBinary.run(["build"], in: site.url)
        #expect(run.status != 0)
        #expect(run.stderr.contains("error: Namespace prefix xlink for href on use is not defined; write href=\"…\" (SVG 2), or declare xmlns:xlink=\"http://www.w3.org/1999/xlink\" on the <svg> (public/"), "\(run.stderr)")
    }
}
