import Foundation
import Mustache
import Testing

@testable import GalleryKit

/// gallery's engine against swift-mustache, the engine it replaced: the same templates and the
/// same contexts must give the same bytes.
@Suite struct MustacheDifferentialTests {
    /// The built-in templates as swift-mustache compiles them.
    static func referenceLibrary(_ templates: TemplateSet) throws -> MustacheLibrary {
        MustacheLibrary(templates: try templates.sources.mapValues { try MustacheTemplate(string: $0.text) })
    }

    @Test func theBuiltInTemplatesAreTheRepositorysTemplates() throws {
        let folder = Repository.root.appendingPathComponent("templates")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        let templates = try TemplateSet.load(overridesIn: nil)
        var names: Set<String> = []
        for case let url as URL in files where url.pathExtension == "mustache" {
            let name = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1).dropLast(".mustache".count))
            names.insert(name)
            #expect(templates.sources[name]?.text == (try String(contentsOf: url, encoding: .utf8)), "\(name)")
        }
        #expect(names.isSuperset(of: ["base", "index", "album", "404", "partials/carousel", "partials/tile", "partials/details", "partials/pager", "partials/analytics", "partials/social"]))
        #expect(Set(templates.sources.keys) == names)
    }

    @Test(arguments: MustacheFixtures.sites.map(\.name))
    func builtInTemplatesRenderEveryPageAsSwiftMustacheDoes(site name: String) throws {
        let site = try #require(MustacheFixtures.sites.first { $0.name == name })
        let templates = try TemplateSet.load(overridesIn: nil)
        let library = try Self.referenceLibrary(templates)
        let pages = try MustacheFixtures.pages(of: site)
        #expect(pages.count >= 2)
        for page in pages {
            let ours = String(decoding: templates.render(page.template, context: .object(page.context)), as: UTF8.self)
            let reference = library.render(ReferenceObject(object: page.context), withTemplate: page.template)
            #expect(ours == reference, "\(page.name)")
            #expect(!ours.isEmpty, "\(page.name)")
        }
    }

    @Test func hostileTextReachesThePageEscaped() throws {
        let site = try #require(MustacheFixtures.sites.first { $0.name == "hostile" })
        let templates = try TemplateSet.load(overridesIn: nil)
        let page = try #require(try MustacheFixtures.pages(of: site).first { $0.template == "album" })
        let output = String(decoding: templates.render(page.template, context: .object(page.context)), as: UTF8.self)
        #expect(output.contains("&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;"))
        #expect(!output.contains("<script>alert"))
        #expect(output.contains("&lt;b&gt;Albums&lt;/b&gt; &amp; &quot;Friends&quot; &#39;n&#39; 😀"))
        #expect(output.contains("{{title}} {{#site}}injection{{/site}} {{{raw}}}"))
        #expect(output.contains("<link rel=\"canonical\" href=\"https://example.com/my gallery/"))
    }

    @Test func pagesWithMissingOptionalsAndEmptyListsMatch() throws {
        let templates = try TemplateSet.load(overridesIn: nil)
        let library = try Self.referenceLibrary(templates)
        let page = MustacheFixtures.albumPage(tiles: 0, sparse: true)
        for name in ["index", "album", "404"] {
            let ours = String(decoding: templates.render(name, context: .object(page)), as: UTF8.self)
            #expect(ours == library.render(ReferenceObject(object: page), withTemplate: name), "\(name)")
        }
        let album = String(decoding: templates.render("album", context: .object(page)), as: UTF8.self)
        #expect(album.contains("<ol class=\"strip\" id=\"strip\" style=\"width:200px;height:120px;--tile:100px;--pad:10px\">\n</ol>"))
        #expect(album.contains("<td data-field=\"title\" dir=\"auto\"></td>"))
        #expect(!album.contains("rel=\"prev\"") && !album.contains("rel=\"next\"") && !album.contains("name=\"description\""))
    }

    @Test func generatedTemplatesRenderAsSwiftMustacheDoes() throws {
        var generator = MustacheTemplateGenerator(seed: 0x6761_6C6C_6572_79)
        var compared = 0
        for index in 0..<400 {
            let (template, partials, context) = generator.makeCase()
            let ours = try renderWithGallery(template, partials: partials, context: context.templateValue)
            let reference = try renderWithSwiftMustache(template, partials: partials, context: context.reference)
            #expect(ours == reference, "case \(index)\ntemplate: \(template.debugDescription)\npartials: \(partials.debugDescription)")
            compared += 1
        }
        #expect(compared == 400)
    }

    @Test func theGeneratorCoversEveryConstruct() {
        var generator = MustacheTemplateGenerator(seed: 0x6761_6C6C_6572_79)
        let corpus = (0..<400).map { _ in generator.makeCase() }
        let text = corpus.map { $0.template + $0.partials.values.joined() }.joined()
        for construct in ["{{#", "{{^", "{{/", "{{>", "{{!", "{{{", "{{&", "{{.}}", "\r\n", "\n  {{#", "\n\t{{>", "{{ "] {
            #expect(text.contains(construct), "\(construct.debugDescription)")
        }
    }
}
