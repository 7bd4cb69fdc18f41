import Foundation
import Testing

@testable import GalleryKit

/// Mistakes in a site's templates that Mustache would render silently are told, with their line.
@Suite struct TemplateLintTests {
    /// The built-in templates with `overrides` as the site's own files.
    static func templates(_ overrides: [String: String]) throws -> TemplateSet {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        for (name, text) in overrides {
            sources[name] = .init(text: text, origin: .site(path: "templates/\(name).mustache"))
        }
        return try TemplateSet(sources: sources)
    }

    @Test func theBuiltInTemplatesUseOnlyNamesThatExist() throws {
        // Every built-in template taken as the site's own: no finding at all, so no name the
        // built-in templates use is ever mistaken for a misspelling.
        let builtin = try TemplateSet.load(overridesIn: nil).sources
        let owned = try TemplateSet(sources: builtin.reduce(into: [:]) { sources, entry in
            sources[entry.key] = .init(text: entry.value.text, origin: .site(path: "templates/\(entry.key).mustache"))
        })
        var config = SiteConfig()
        #expect(owned.lint(config: config).isEmpty)
        config.baseURL = "/sub/"
        config.analytics = .none
        #expect(owned.lint(config: config).isEmpty)
        // And built-in templates are never reported.
        #expect(try TemplateSet.load(overridesIn: nil).lint(config: config).isEmpty)
    }

    /// Hugo's habit, `{{ .Site.Title }}`, is named as such with the Mustache name to write, not
    /// as "no value is called ''"; a slip in a `[params]` name is told (the site's params are
    /// all known), while a param the site does not set and nothing resembles stays quiet, as a
    /// shared theme may ask for one a site leaves out.
    @Test func hugosDottedNamesAndSlipsInTheSitesParamsAreTold() throws {
        let templates = try Self.templates([
            "404": "{{<base}}{{$title}}{{ .Site.Title }}{{/title}}{{$content}}<p>{{site.params.tagine}} {{site.params.phone}} {{site.params.banner_text}} {{.Params.tagline}}</p>{{/content}}{{/base}}\n",
        ])
        var config = SiteConfig()
        config.params = ["tagline": .text("Fine records"), "phone": .text("0123")]
        #expect(templates.lint(config: config).map(\.description) == [
            "templates/404.mustache:1:20: warning: '.Site.Title' is a name as Hugo's Go templates write it, which Mustache reads as an empty name, so it renders empty; write it without the dot, naming its object: {{site.title}}. The README's \"Template values\" lists the names.",
            "templates/404.mustache:1:62: warning: 'site.params.tagine': no value is called 'tagine' there, so it renders empty; did you mean 'tagline'? The README's \"Template values\" lists the names.",
            "templates/404.mustache:1:135: warning: '.Params.tagline' is a name as Hugo's Go templates write it, which Mustache reads as an empty name, so it renders empty; write it without the dot, naming its object: {{album.params.tagline}}. The README's \"Template values\" lists the names.",
        ])
    }

    /// Inside `{{#site.params}}` a theme's optional param that the site leaves out stays quiet,
    /// as `site.params.x` does (it warned for every one, failing --strict), and a slip is told.
    @Test func aThemesOptionalParamsInsideASiteParamsSectionStayQuiet() throws {
        let templates = try Self.templates([
            "404": "{{<base}}{{$content}}{{#site.params}}<p>[{{shop_url}}] {{phone}} {{tagine}}</p>{{/site.params}}{{/content}}{{/base}}\n",
        ])
        var config = SiteConfig()
        config.params = ["tagline": .text("Fine records"), "phone": .text("0123")]
        let findings = templates.lint(config: config).map(\.description)
        #expect(findings.count == 1, "\(findings)")
        #expect(findings.first?.contains("no value is called 'tagine', so it renders empty; did you mean 'tagline'?") == true, "\(findings)")
    }

    /// A tag a brace short at its start is published as text, so it is warned about at its
    /// column; inline CSS and script, and a triple mustache, are not mistaken for one.
    @Test func aTagABraceShortAtItsStartIsWarnedAbout() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details"><caption>{album.title}} {{{album.artist}}}</caption>
            <tr><td>{#album.params.sealed}}sealed {>partials/pager}}</td></tr>
            <style>@media(max-width:600px){.a{b:c}}.d{e:f}</style>
            <tr><td>{{album.year}}</td></tr></table>
            """,
        ])
        let found = templates.lint(config: SiteConfig()).map(\.description)
        #expect(found == [
            "templates/partials/details.mustache:1:30: warning: '{album.title}}' is a brace short at its start, so it is published as text; write '{{album.title}}'",
            "templates/partials/details.mustache:2:9: warning: '{#album.params.sealed}}' is a brace short at its start, so it is published as text; write '{{#album.params.sealed}}'",
            "templates/partials/details.mustache:2:39: warning: '{>partials/pager}}' is a brace short at its start, so it is published as text; write '{{>partials/pager}}'",
        ], "\(found)")
    }

    @Test func misspeltNamesMissingPartialsAndUnusedFilesAreWarnedAboutWithTheirLine() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details">
            <tr><td>{{artsit}}</td><td>{{album.titel}}</td></tr>
            {{>partials/nope}}
            {{#album}}<tr><td>{{artist}} {{bogus}}</td></tr>{{/album}}
            {{#carousel.tiles}}{{hreff}}{{/carousel.tiles}}
            </table>

            """,
            "albm": "x\n",
            "details": "y\n",
        ])
        let findings = templates.lint(config: SiteConfig()).map(\.description)
        let readme = "The README's \"Template values\" lists the names."
        #expect(findings == [
            "templates/albm.mustache: warning: no page uses a template named 'albm', so this file changes nothing; name it templates/album.mustache to replace the built-in 'album'",
            "templates/details.mustache: warning: no page uses a template named 'details', so this file changes nothing; name it templates/partials/details.mustache to replace the built-in 'partials/details'",
            "templates/partials/details.mustache:2:9: warning: no value is called 'artsit', so it renders empty; did you mean 'artist'? \(readme)",
            "templates/partials/details.mustache:2:28: warning: 'album.titel': no value is called 'titel' there, so it renders empty; did you mean 'title'? \(readme)",
            "templates/partials/details.mustache:3:1: warning: 'partials/nope' names no template, so it renders nothing",
            "templates/partials/details.mustache:4:30: warning: no value is called 'bogus', so it renders empty. \(readme)",
            "templates/partials/details.mustache:5:20: warning: no value is called 'hreff', so it renders empty; did you mean 'href'? \(readme)",
        ])
    }

    /// A name is suggested only from the object it was asked of, never the name itself; a name
    /// that is another object's is said to be so, and a small object's names are listed.
    @Test func suggestionsAreTheObjectsOwnNamesOrSayWhoseTheNameIs() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details"><tr><td>{{album.year}}</td></tr></table>
            <p>{{site.url}}</p>
            <p>{{site.year}}</p>
            <p>{{album.href}}</p>
            <p>{{album.index}}</p>
            <p>{{#previous}}{{previous.artist}}{{/previous}}</p>
            <p>{{site.albums}}</p>
            <p>{{page}}</p>
            <p>{{#carousel.tile}}{{title}}{{/carousel.tile}}</p>
            <p>{{#carousel.tiles}}{{number}} {{albumTitle}}{{/carousel.tiles}}</p>

            """,
            "404": "{{<base}}{{$content}}<p>{{artsit}} {{by}} {{coverAtl}}</p>{{/content}}{{/base}}\n",
        ])
        let readme = " The README's \"Template values\" lists the names."
        let found = templates.lint(config: SiteConfig()).map { "\($0.position?.line ?? 0): " + $0.message.replacingOccurrences(of: readme, with: "") }
        #expect(found == [
            "1: no value is called 'artsit', so it renders empty; did you mean 'artist', a value of album and each of carousel.tiles?",
            "1: no value is called 'by', so it renders empty; 'by' is a value of text: write {{text.by}}.",
            "1: no value is called 'coverAtl', so it renders empty; did you mean {{album.coverAlt}}?",
            "2: 'site.url': no value is called 'url' there, so it renders empty; 'url' is a value of social and social.image, not of site.",
            "3: 'site.year': no value is called 'year' there, so it renders empty; 'year' is a value of album and each of carousel.tiles, not of site.",
            "4: 'album.href': no value is called 'href' there, so it renders empty; 'href' is a value of next, previous and each of carousel.tiles, not of album.",
            "5: 'album.index': no value is called 'index' there, so it renders empty; 'index' is a value of each of carousel.tiles, not of album.",
            "6: 'previous.artist': no value is called 'artist' there, so it renders empty; 'artist' is a value of album and each of carousel.tiles, not of previous.",
            "7: 'site.albums': no value is called 'albums' there, so it renders empty; site has 'count', 'countText', 'description', 'direction', 'language', 'params' and 'title'.",
            "8: no value is called 'page', so it renders empty; 'page' is a value of carousel: write {{carousel.page}}.",
            "9: 'carousel.tile': no value is called 'tile' there, so it renders empty; did you mean 'tiles'?",
            "10: no value is called 'albumTitle', so it renders empty.",
        ], "\(found)")
        for finding in found {
            // Never the name itself.
            if let quoted = finding.firstMatch(of: /called '(\w+)'.*did you mean '(\w+)'/) { #expect(quoted.1 != quoted.2) }
        }
    }

    /// A file named for a template but not `NAME.mustache` is not read: it is told, with the
    /// name to give it, as a misspelt `.mustache` file is. Editors' backups and swap files,
    /// hidden files and files named for no template are left alone.
    @Test func aTemplateFileWithAnotherExtensionIsWarnedAbout() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "template-lint-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "album.html", "album.hbs", "album.mustache.html", "partials/tile.html", "tile.htm", "Index.html", "404",
            "partials/footer.mustache", "partials/footer.html", "partials/pager.html.mustache",
            "album.mustache~", ".album.mustache.swp", "partials/.tile.mustache.swo", "#album.mustache#", "album.mustache.bak",
            ".hidden/album.html", "README.md", "notes.txt", "base.d/readme",
        ]
        for file in files {
            let url = folder.appending(path: file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("<p>x</p>\n".utf8).write(to: url)
        }
        let templates = try TemplateSet.load(overridesIn: folder)
        let notRead = "warning: only files named NAME.mustache are templates, so this file is not read"
        #expect(templates.lint(config: SiteConfig()).map(\.description) == [
            "templates/404: \(notRead); name it templates/404.mustache to replace the built-in '404'",
            "templates/Index.html: \(notRead); name it templates/index.mustache to replace the built-in 'index'",
            "templates/album.hbs: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/album.html: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/album.mustache.html: \(notRead); name it templates/album.mustache to replace the built-in 'album'",
            "templates/partials/footer.html: \(notRead); the template 'partials/footer' is templates/partials/footer.mustache",
            "templates/partials/footer.mustache: warning: no page uses a template named 'partials/footer', so this file changes nothing",
            "templates/partials/pager.html.mustache: warning: no page uses a template named 'partials/pager.html', so this file changes nothing; name it templates/partials/pager.mustache to replace the built-in 'partials/pager'",
            "templates/partials/tile.html: \(notRead); name it templates/partials/tile.mustache to replace the built-in 'partials/tile'",
            "templates/tile.htm: \(notRead); name it templates/partials/tile.mustache to replace the built-in 'partials/tile'",
        ])
    }

    /// An album's text in an event handler runs as script however it is escaped: the browser
    /// decodes `&#39;` before the handler runs. In any attribute that holds script, in any
    /// quoting, at any depth; numbers, text outside such attributes, and a closed tag pass.
    @Test func aValueInAnAttributeThatHoldsScriptIsAnError() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details"><tr><td>{{album.year}}</td></tr></table>
            <button type="button" onclick="log('{{album.title}}')" data-title="{{album.title}}">a</button>
            {{#album}}<img alt="" src="x.png" ONERROR = '{{{artist}}}'/><b onmouseover=go({{genre}})>g</b>{{/album}}
            <iframe title="{{album.title}}" srcdoc="<p>{{album.artist}}</p>"></iframe>
            <a href="#" onclick="go({{album.number}}, {{album.year}})">{{album.title}}</a> <p title="on">{{album.title}}</p>
            <span data-onclick="{{album.title}}">x</span><!-- <b onclick=" --><i title="{{album.title}}">i</i><script>if (1 < 2) {}</script><p title="{{album.title}}">p</p>

            """,
        ])
        let findings = templates.lint(config: SiteConfig()).filter { $0.severity == .error }
        #expect(findings.map { "\($0.position?.line ?? 0):\($0.position?.column ?? 0) \($0.message.prefix(60))" } == [
            "2:37 {{album.title}} is written into the onclick attribute, which",
            "3:46 {{artist}} is written into the onerror attribute, which hold",
            "3:79 {{genre}} is written into the onmouseover attribute, which h",
            "4:44 {{album.artist}} is written into the srcdoc attribute, which",
        ], "\(findings.map(\.description))")
        #expect(findings.first?.message.hasSuffix("put the value in a data- attribute (data-title=\"{{album.title}}\") and read it from the script (this.dataset.title)") == true)
    }

    /// root ends with a slash, so `{{root}}/about/` makes `.//about/` on pages and `//about/`,
    /// another host, on 404.html.
    @Test func aSlashAfterRootIsWarnedAbout() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details"><tr><td>{{album.year}}</td></tr></table>
            <p><a href="{{root}}/about/">About</a> <a href="{{{root}}}/">Home</a> <a href="{{root}}about/">Fine</a></p>
            {{#album}}<a href="{{ root }}//x.html?a=b">x</a>{{/album}}

            """,
        ])
        #expect(templates.lint(config: SiteConfig()).map(\.description) == [
            "templates/partials/details.mustache:2:13: warning: '{{root}}/about/' doubles a slash: root already ends with one, so pages link to './/about/' and 404.html to '//about/', an address on another host; write '{{root}}about/'",
            "templates/partials/details.mustache:2:49: warning: '{{root}}/' doubles a slash: root already ends with one, so pages link to './/' and 404.html to '//', an address on another host; write '{{root}}'",
            "templates/partials/details.mustache:3:20: warning: '{{root}}//x.html?a=b' doubles a slash: root already ends with one, so pages link to './//x.html?a=b' and 404.html to '///x.html?a=b', an address on another host; write '{{root}}x.html?a=b'",
        ])
        var config = SiteConfig()
        config.baseURL = "/sub/"
        #expect(templates.lint(config: config).first?.message.contains("and 404.html to '/sub//about/'; write") == true)
    }

    /// Each warning points at its own tag, not at the first place its text appears on the line:
    /// `titel` is inside `album.titel` too, and a partial may be named twice.
    @Test func aNameRepeatedOnALineIsWarnedAboutAtItsOwnTag() throws {
        let templates = try Self.templates([
            "partials/details": """
            <table id="details"><tr><td>{{album.year}}</td></tr></table>
            <p class="dump">{{album.titel}} and then {{titel}}</p>
            <p>{{>partials/nope}} {{>partials/nope}}</p>

            """,
        ])
        let found = templates.lint(config: SiteConfig()).map { "\($0.position.map(String.init(describing:)) ?? "-") \($0.message.prefix { $0 != "," })" }
        #expect(found == [
            "2:17 'album.titel': no value is called 'titel' there",
            "2:42 no value is called 'titel'",
            "3:4 'partials/nope' names no template",
            "3:23 'partials/nope' names no template",
        ], "\(found)")
    }

    /// The built-in template `name` with `old` replaced by `new`.
    static func builtin(_ name: String, replacing old: String, with new: String) throws -> String {
        let text = try #require(try TemplateSet.load(overridesIn: nil).sources[name]?.text)
        #expect(text.contains(old))
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func aBlockItsParentDoesNotDefineIsWarnedAboutWhereItIsFilled() throws {
        let misspelt = try Self.templates(["album": try Self.builtin("album", replacing: "content}}", with: "contnet}}")])
        #expect(misspelt.lint(config: SiteConfig()).map(\.description) == [
            "templates/album.mustache:3:1: warning: block 'contnet' is not defined by its parent 'base', so what it holds is shown nowhere; did you mean 'content'?",
        ])
        // With no near name, the parent's blocks are listed.
        let unknown = try Self.templates(["404": "{{<base}}\n  {{$main}}<p>gone</p>{{/main}}\n{{/base}}\n"])
        #expect(unknown.lint(config: SiteConfig()).map(\.description) == [
            "templates/404.mustache:2:3: warning: block 'main' is not defined by its parent 'base', so what it holds is shown nowhere; 'base' has 'content', 'head' and 'title'",
        ])
    }

    @Test func aBlockRenamedInTheSitesBaseIsOneWarningForTheBuiltInPagesThatFillIt() throws {
        let renamed = try Self.templates(["base": try Self.builtin("base", replacing: "{{$content}}{{/content}}", with: "{{$inhalt}}{{/inhalt}}")])
        #expect(renamed.lint(config: SiteConfig()).map(\.description) == [
            "templates/base.mustache: warning: 'base' has no block 'content', which the built-in templates '404', 'album' and 'index' fill, so what they put there is shown nowhere; add {{$content}}{{/content}} where it belongs, or give that name to the block meant for it ('base' has 'head', 'inhalt' and 'title')",
        ])
        // A slip points at the block that was meant.
        let misspelt = try Self.templates(["base": try Self.builtin("base", replacing: "{{$content}}{{/content}}", with: "{{$contnet}}{{/contnet}}")])
        #expect(misspelt.lint(config: SiteConfig()).map(\.description) == [
            "templates/base.mustache:30:1: warning: 'base' has no block 'content', which the built-in templates '404', 'album' and 'index' fill, so what they put there is shown nowhere; if 'contnet' is that block, name it 'content'",
        ])
        // A page template of the site's own that fills it is told where it does; the built-in
        // ones that are left are told at the parent.
        let both = try Self.templates([
            "base": try Self.builtin("base", replacing: "{{$content}}{{/content}}", with: "{{$inhalt}}{{/inhalt}}"),
            "album": try Self.builtin("album", replacing: "{{<base}}", with: "{{<base}}"),
        ])
        #expect(both.lint(config: SiteConfig()).map(\.description) == [
            "templates/album.mustache:3:1: warning: block 'content' is not defined by its parent 'base', so what it holds is shown nowhere; 'base' has 'head', 'inhalt' and 'title'",
            "templates/base.mustache: warning: 'base' has no block 'content', which the built-in templates '404' and 'index' fill, so what they put there is shown nowhere; add {{$content}}{{/content}} where it belongs, or give that name to the block meant for it ('base' has 'head', 'inhalt' and 'title')",
        ])
    }

    @Test func blocksFromPartialsGrandparentsAndOverridesAreDefined() throws {
        // `base` extends `layout`, whose `head` block is in a partial; `content` is a block
        // inside base's override of `body`. Every block the pages fill has its place.
        let templates = try Self.templates([
            "layout": "<html><head><title>{{$title}}{{/title}}</title>{{>partials/head}}</head><body>{{$body}}{{/body}}</body></html>\n",
            "partials/head": "{{#site}}{{$head}}{{/head}}{{/site}}\n",
            "base": "{{<layout}}{{$body}}<main>{{$content}}{{/content}}</main>{{/body}}{{/layout}}\n",
        ])
        #expect(templates.lint(config: SiteConfig()).isEmpty)
    }

    @Test func aValueThatIsAbsentOnAPageIsNoMisspelling() throws {
        // The 404 page has no album, the first album no previous one: known names, not mistakes.
        let templates = try Self.templates([
            "404": "{{<base}}{{$content}}{{album.title}}{{#previous}}{{title}}{{/previous}}{{social.image.url}}{{/content}}{{/base}}\n",
        ])
        #expect(templates.lint(config: SiteConfig()).isEmpty)
    }

    @Test func theReadmeListsEveryValueTheBuiltInTemplatesUse() throws {
        let section = try Repository.readme(from: "#### Template values", until: "### Validation")
        let templates = try TemplateSet.load(overridesIn: nil)
        var config = SiteConfig()
        config.baseURL = "https://example.org/"
        config.analytics = .google(GoogleAnalytics(measurementID: "G-TEST"))
        let catalogue = Catalogue(albums: (1...3).map { Album(title: "T\($0)", artist: "A", genre: "G", year: 2000, coverURL: "c.png") })
        let renderer = SiteRenderer(
            plan: SitePlan(catalogue: catalogue, carousel: .init(window: 1, indexPageSize: 2)),
            templates: templates, config: config,
            images: catalogue.entries.map { TileImage(src: "c\($0.index).webp", srcset: "d.webp 2x", large: "e\($0.index).webp") },
            assets: AssetPaths(css: "a.css", js: "a.js")
        )
        // Every name a page's values answer, with the objects that have it.
        var owners: [String: Set<String>] = [:]
        for page in renderer.plan.pages {
            owners.merge(TemplateSet.owners(of: .object(renderer.context(for: page)))) { $0.union($1) }
        }
        #expect(owners.count > 30)
        // The words of `text` have a table of their own.
        let words = try Repository.readme(from: "### Pages in another language", until: "## Covers")
        for name in owners.keys.sorted() {
            let listed = section.contains("`\(name)`") || section.contains(".\(name)`") || section.contains("`\(name).")
                || (owners[name] == ["text"] && words.contains("| `\(name)` |"))
            #expect(listed, "the README does not list '\(name)' (a value of \(owners[name] ?? []))")
        }
    }

    /// Every name an object says it has (``TemplateObject/keys``) it answers, and every name
    /// the built-in templates look up is among the names of the objects they ask.
    @Test func everyContextObjectListsTheNamesItAnswers() throws {
        let templates = try TemplateSet.load(overridesIn: nil)
        var config = SiteConfig()
        config.baseURL = "https://example.org/"
        config.analytics = .google(GoogleAnalytics(measurementID: "G-TEST"))
        let catalogue = Catalogue(albums: (1...3).map { Album(title: "T\($0)", artist: "A", genre: "G", year: 2000, coverURL: "c.png") })
        let renderer = SiteRenderer(
            plan: SitePlan(catalogue: catalogue, carousel: .init(window: 1, indexPageSize: 2)),
            templates: templates, config: config,
            images: catalogue.entries.map { TileImage(src: "c\($0.index).webp", srcset: "d.webp 2x", large: "e\($0.index).webp") },
            assets: AssetPaths(css: "a.css", js: "a.js")
        )
        func check(_ value: TemplateValue, _ path: String) {
            switch value {
            case .object(let object):
                #expect(Set(object.keys).count == object.keys.count, "\(path) lists a name twice")
                for key in object.keys {
                    let child = object.value(forKey: key)
                    #expect(child != nil, "\(path) lists '\(key)' but does not answer it")
                    if let child { check(child, "\(path).\(key)") }
                }
            case .list(let items):
                items.forEach { check($0, path + "[]") }
            default:
                break
            }
        }
        let audit = KeyAudit()
        for page in renderer.plan.pages {
            check(.object(renderer.context(for: page)), "page")
            #expect(templates.unknownNames(rendering: renderer.templateName(for: page), context: .object(renderer.context(for: page))).isEmpty)
            // Every name the built-in templates are answered for is among its object's names: a
            // value added to a context and its templates, but not to `keys`, is caught here.
            _ = templates.render(renderer.templateName(for: page), context: AuditedObject.wrap(.object(renderer.context(for: page)), path: "page", audit: audit))
        }
        #expect(audit.unlisted.isEmpty, "answered but not in keys: \(audit.unlisted.sorted())")
    }

    /// The names an ``AuditedObject`` was answered for that its object does not list.
    final class KeyAudit: @unchecked Sendable {
        private let lock = NSLock()
        private var names = Set<String>()

        func record(_ name: String) { lock.withLock { _ = names.insert(name) } }
        var unlisted: Set<String> { lock.withLock { names } }
    }

    /// A context object that notes every name it answers that its ``TemplateObject/keys`` lack.
    final class AuditedObject: TemplateObject, @unchecked Sendable {
        let object: TemplateObject
        let path: String
        let audit: KeyAudit

        init(object: TemplateObject, path: String, audit: KeyAudit) {
            self.object = object
            self.path = path
            self.audit = audit
        }

        override var keys: [String] { object.keys }

        override func value(forKey key: String) -> TemplateValue? {
            guard let value = object.value(forKey: key) else { return nil }
            // An album's params answer any name (another album may have it).
            if !(object is ParamsContext), !object.keys.contains(key) { audit.record("\(path).\(key)") }
            return Self.wrap(value, path: "\(path).\(key)", audit: audit)
        }

        static func wrap(_ value: TemplateValue, path: String, audit: KeyAudit) -> TemplateValue {
            switch value {
            case .object(let object): .object(AuditedObject(object: object, path: path, audit: audit))
            case .list(let items): .list(items.map { wrap($0, path: path + "[]", audit: audit) })
            default: value
            }
        }
    }

    @Test func suggestionsAreOnlyForSlips() {
        #expect(Spelling.editDistance("titel", "title") == 1)
        #expect(Spelling.editDistance("", "abc") == 3)
        #expect(Spelling.editDistance("artsit", "artist") == 1)
        #expect(Spelling.editDistance("kitten", "sitting") == 3)
        #expect(Spelling.nearest("yaer", among: ["year", "title"]) == "year")
        #expect(Spelling.nearest("nope", among: ["tile", "pager"]) == nil)
        #expect(Spelling.nearest("partials/nope", among: ["partials/tile"]) == nil)
        #expect(Spelling.nearest("partials/tiel", among: ["partials/tile", "partials/pager"]) == "partials/tile")
        // A key of 3 MB (a hand-made archive) is too long to be a slip of any name, and is not
        // compared letter by letter (that took 12 s and 530 MB).
        #expect(Spelling.nearest(String(repeating: "x", count: 3_000_000), among: ["title", "artist"]) == nil)
        #expect(Spelling.nearest("titleeee", among: ["title"]) == nil && Spelling.nearest("titleee", among: ["title"]) == "title")
    }
}
