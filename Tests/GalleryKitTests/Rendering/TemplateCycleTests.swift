import Testing

@testable import GalleryKit

/// A template that includes or extends itself would nest without end on every page (a page's
/// values do not nest): the template set refuses it, naming the circle.
@Suite struct TemplateCycleTests {
    /// The errors of a template set of the built-in templates with `overrides` as the site's own.
    static func errors(_ overrides: [String: String]) throws -> [String] {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        for (name, text) in overrides {
            sources[name] = .init(text: text, origin: .site(path: "templates/\(name).mustache"))
        }
        do {
            _ = try TemplateSet(sources: sources)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aPartialThatIncludesItselfIsAnError() throws {
        #expect(try Self.errors(["partials/footer": "<footer>{{>partials/footer}}</footer>\n"]) == [
            "templates/partials/footer.mustache:1:9: error: partials/footer includes itself: partials/footer → partials/footer; a page would hold it inside itself without end: remove {{>partials/footer}}",
        ])
        // Inside a section too: the same names answer at every depth, so it never closes.
        #expect(try Self.errors(["partials/details": "<p>\n{{#album}}{{> partials/details }}{{/album}}</p>\n"]) == [
            "templates/partials/details.mustache:2:11: error: partials/details includes itself: partials/details → partials/details; a page would hold it inside itself without end: remove {{>partials/details}}",
        ])
    }

    /// Partials that each include the next ten times ("billion laughs") made 53 MB pages at six
    /// levels; past 10,000 copies of templates on a page, the template where the count passes
    /// the limit is an error at its first tag: four levels of ten (11,111 copies) are too many,
    /// three (1,111) are fine.
    @Test func templatesThatMultiplyIntoTooManyCopiesAreAnError() throws {
        func laughs(_ levels: Int) -> [String: String] {
            var templates = ["partials/l\(levels)": "<span>x</span>\n", "partials/details": "<div>{{>partials/l0}}</div>\n"]
            for level in 0..<levels {
                templates["partials/l\(level)"] = "<i>\n" + String(repeating: "{{>partials/l\(level + 1)}}", count: 10) + "\n</i>\n"
            }
            return templates
        }
        #expect(try Self.errors(laughs(3)) == [])
        #expect(try Self.errors(laughs(4)).count == 1)
        #expect(try Self.errors(laughs(8)) == [
            "templates/partials/l4.mustache:2:1: error: partials/l4 brings more than 10000 copies of templates into a page (its tags, and the tags in what they name in turn): no page needs so many, and each would be made and checked; include each partial fewer times",
        ])
    }

    @Test func aCircleThroughOtherTemplatesIsOneErrorNamingIt() throws {
        #expect(try Self.errors([
            "partials/b": "<b>{{>partials/a}}</b>\n",
            "partials/a": "<a>\n  {{>partials/b}}\n</a>\n",
        ]) == [
            "templates/partials/a.mustache:2:3: error: partials/a includes itself: partials/a → partials/b → partials/a; a page would hold it inside itself without end: remove {{>partials/b}} here, or {{>partials/a}} from partials/b",
        ])
        // Through a built-in template, it is told at the site's own.
        #expect(try Self.errors(["partials/tile": "<li>{{>partials/carousel}}</li>\n"]) == [
            "templates/partials/tile.mustache:1:5: error: partials/tile includes itself: partials/tile → partials/carousel → partials/tile; a page would hold it inside itself without end: remove {{>partials/carousel}} here, or {{>partials/tile}} from partials/carousel",
        ])
    }

    @Test func aTemplateThatExtendsItselfIsAnError() throws {
        #expect(try Self.errors(["album": "{{<album}}{{$content}}x{{/content}}{{/album}}\n"]) == [
            "templates/album.mustache:1:1: error: album extends itself: album → album; a template cannot be its own parent: name another in {{<…}}, such as {{<base}}",
        ])
        #expect(try Self.errors(["base": "{{<layout}}{{/layout}}\n", "layout": "{{<base}}{{/base}}\n"]) == [
            "templates/base.mustache:1:1: error: base extends itself: base → layout → base; a page would hold it inside itself without end: remove {{<layout}} here, or {{<base}} from layout",
        ])
    }

    @Test func theBuiltInTemplatesHaveNoCircle() throws {
        #expect(try Self.errors([:]).isEmpty)
    }
}
