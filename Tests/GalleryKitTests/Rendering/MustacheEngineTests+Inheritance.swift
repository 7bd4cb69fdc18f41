import Testing

@testable import GalleryKit

/// Parents (`{{<name}}`) and blocks (`{{$name}}`).
extension MustacheEngineTests {
    static let layout = "<title>{{$title}}Untitled{{/title}}</title>\n<main>\n{{$body}}\n<p>empty</p>\n{{/body}}\n</main>\n"

    @Test func parentsFillTheirBlocksWithOverridesOrDefaults() throws {
        let page = "{{<layout}}\n{{$title}}{{title}}{{/title}}\n{{$body}}\n<h1>{{artist}}</h1>\n{{/body}}\n{{/layout}}\n"
        #expect(try renderWithGallery(page, partials: ["layout": Self.layout], context: record)
            == "<title>Kind of Blue</title>\n<main>\n<h1>Miles Davis</h1>\n</main>\n")
        #expect(try renderWithGallery("{{<layout}}{{/layout}}", partials: ["layout": Self.layout], context: record)
            == "<title>Untitled</title>\n<main>\n<p>empty</p>\n</main>\n")
    }

    @Test func textAndCommentsInsideAParentAreIgnored() throws {
        let page = "{{<layout}} stray words {{! a note }}\n{{$title}}T{{/title}} more words\n{{/layout}}"
        #expect(try renderWithGallery(page, partials: ["layout": Self.layout]) == "<title>T</title>\n<main>\n<p>empty</p>\n</main>\n")
    }

    @Test func theOutermostOverrideWins() throws {
        let partials = ["base": "[{{$slot}}base{{/slot}}]", "middle": "{{<base}}{{$slot}}middle{{/slot}}{{/base}}"]
        #expect(try renderWithGallery("{{<middle}}{{$slot}}top{{/slot}}{{/middle}}", partials: partials) == "[top]")
        #expect(try renderWithGallery("{{<middle}}{{/middle}}", partials: partials) == "[middle]")
        #expect(try renderWithGallery("{{<base}}{{/base}}", partials: partials) == "[base]")
    }

    @Test func blocksRenderInTheContextWhereTheyAreExpanded() throws {
        let partials = ["layout": "{{#label}}{{$who}}{{name}}{{/who}}{{/label}}"]
        #expect(try renderWithGallery("{{<layout}}{{$who}}<{{name}}>{{/who}}{{/layout}}", partials: partials, context: record) == "<Columbia>")
    }

    @Test func overridesReachBlocksInsidePartialsOfTheParent() throws {
        let partials = ["layout": "{{>piece}}|{{$slot}}own{{/slot}}", "piece": "({{$slot}}none{{/slot}})"]
        #expect(try renderWithGallery("{{<layout}}{{$slot}}filled{{/slot}}{{/layout}}", partials: partials) == "(filled)|filled")
    }

    @Test func aStandaloneParentIndentsEveryLine() throws {
        let partials = ["frame": "<div>\n  x\n</div>\n"]
        #expect(try renderWithGallery("<body>\n  {{<frame}}{{/frame}}\n</body>", partials: partials) == "<body>\n  <div>\n    x\n  </div>\n</body>")
        #expect(try renderWithGallery("<body>\n  {{<frame}}\n  {{/frame}}\n</body>", partials: partials) == "<body>\n  <div>\n    x\n  </div>\n</body>")
    }

    @Test func blockContentIsReindentedWhereTheBlockStands() throws {
        let partials = ["list": "<ul>\n    {{$items}}\n    {{/items}}\n</ul>\n"]
        let page = "{{<list}}{{$items}}\n  <li>a</li>\n  <li>b</li>\n{{/items}}{{/list}}"
        #expect(try renderWithGallery(page, partials: partials) == "<ul>\n    <li>a</li>\n    <li>b</li>\n</ul>\n")
    }

    @Test func theDefaultContentSetsTheIndentationOfAStandaloneBlock() throws {
        let partials = ["list": "<ul>\n{{$items}}\n  <li>none</li>\n{{/items}}\n</ul>"]
        #expect(try renderWithGallery("{{<list}}{{/list}}", partials: partials) == "<ul>\n  <li>none</li>\n</ul>")
        #expect(try renderWithGallery("{{<list}}{{$items}}\n<li>a</li>\n{{/items}}{{/list}}", partials: partials) == "<ul>\n  <li>a</li>\n</ul>")
    }

    @Test func nestedBlocksAreReindentedRelativeToTheirBlock() throws {
        let partials = [
            "page": "{{$page}}-{{/page}}",
            "article": "{{<page}}{{$page}}\n  <main>\n    {{$content}}\n      <p>default</p>\n    {{/content}}\n  </main>\n{{/page}}{{/page}}",
        ]
        #expect(try renderWithGallery("{{<article}}{{$content}}\n<p>mine</p>\n{{/content}}{{/article}}", partials: partials) == "<main>\n    <p>mine</p>\n</main>\n")
        #expect(try renderWithGallery("{{<article}}{{/article}}", partials: partials) == "<main>\n    <p>default</p>\n</main>\n")
    }

    @Test func aBlockStartingWithAStandaloneSectionIsIndentedOnce() throws {
        let partials = ["layout": "<div>\n  {{$extra}}\n  {{#reissued}}\n  <em>reissue</em>\n  {{/reissued}}\n  {{/extra}}\n</div>"]
        #expect(try renderWithGallery("{{<layout}}{{/layout}}", partials: partials, context: record) == "<div>\n  <em>reissue</em>\n</div>")
    }

    @Test func inlineBlocksInAnIndentedParent() throws {
        // A default is the parent's own text and is indented with it; an inline override is the
        // child's text and is not.
        let partials = ["frame": "<div>\n  <p>{{$b}}one\ntwo{{/b}}</p>\n</div>\n"]
        #expect(try renderWithGallery("  {{<frame}}{{/frame}}\n", partials: partials) == "  <div>\n    <p>one\n  two</p>\n  </div>\n")
        #expect(try renderWithGallery("  {{<frame}}\n{{$b}}A\nB{{/b}}\n{{/frame}}\n", partials: partials) == "  <div>\n    <p>A\nB</p>\n  </div>\n")
    }

    @Test func anEmptyStandaloneBlockKeepsItsLineBreak() throws {
        let partials = ["layout": "<head>\n  {{$head}}{{/head}}\n</head>"]
        #expect(try renderWithGallery("{{<layout}}{{/layout}}", partials: partials) == "<head>\n\n</head>")
        #expect(try renderWithGallery("{{<layout}}{{$head}}<meta/>{{/head}}{{/layout}}", partials: partials) == "<head>\n  <meta/>\n</head>")
    }

    @Test func parentsThatIncludeThemselvesStop() throws {
        let partials = ["loop": "{{$a}}A{{/a}}{{<loop}}{{$a}}B{{/a}}{{/loop}}"]
        let output = try renderWithGallery("{{<loop}}{{/loop}}", partials: partials)
        #expect(output.hasPrefix("ABBB"))
        #expect(output.dropFirst().allSatisfy { $0 == "B" })
        #expect(output.count <= MustacheRenderer.maximumDepth)
    }

    @Test func anOverrideHoldingItsOwnBlockStops() throws {
        let output = try renderWithGallery("{{<frame}}{{$a}}[{{$a}}{{/a}}]{{/a}}{{/frame}}", partials: ["frame": "{{$a}}{{/a}}"])
        let levels = output.prefix { $0 == "[" }.count
        #expect(levels > 3 && levels <= MustacheRenderer.maximumDepth)
        #expect(output == String(repeating: "[", count: levels) + String(repeating: "]", count: levels))
    }
}
