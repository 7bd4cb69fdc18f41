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
        var used = Set<String>()
        for page in renderer.plan.pages {
            used.formUnion(templates.unknownNames(rendering: renderer.templateName(for: page), context: .object(renderer.context(for: page))).known)
        }
        #expect(used.count > 30)
        for name in used.sorted() {
            #expect(section.contains("`\(name)`") || section.contains(".\(name)`") || section.contains("`\(name)."), "the README does not list '\(name)'")
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
    }
}
