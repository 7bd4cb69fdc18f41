import Testing

@testable import GalleryKit

/// gallery's Mustache engine, feature by feature, with exact expected output.
@Suite struct MustacheEngineTests {
    let record = object([
        "title": .text("Kind of Blue"),
        "artist": .text("Miles Davis"),
        "year": .number(1959),
        "loud": .text("Rock & Roll <live> \"quoted\" 'single'"),
        "reissued": .bool(true),
        "bootleg": .bool(false),
        "missingValue": .null,
        "tracks": .list([object(["name": .text("So What")]), object(["name": .text("Blue in Green")])]),
        "noTracks": .list([]),
        "tags": .list([.text("jazz"), .text("modal")]),
        "label": object(["name": .text("Columbia"), "city": object(["name": .text("New York")])]),
    ])

    // MARK: Interpolation

    @Test func escapesHTMLIncludingTheApostrophe() throws {
        #expect(try renderWithGallery("<p>{{loud}}</p>", context: record) == "<p>Rock &amp; Roll &lt;live&gt; &quot;quoted&quot; &#39;single&#39;</p>")
    }

    @Test func tripleMustacheAndAmpersandWriteTextAsItIs() throws {
        #expect(try renderWithGallery("{{{loud}}}|{{& loud }}", context: record) == "Rock & Roll <live> \"quoted\" 'single'|Rock & Roll <live> \"quoted\" 'single'")
    }

    @Test func writesNumbersAndFlags() throws {
        let context = object(["zero": .number(0), "negative": .number(-42), "big": .number(Int.max), "small": .number(Int.min), "yes": .bool(true), "no": .bool(false)])
        #expect(try renderWithGallery("{{zero}} {{negative}} {{big}} {{small}} {{yes}} {{no}}", context: context)
            == "0 -42 9223372036854775807 -9223372036854775808 true false")
    }

    @Test func missingAndNullNamesWriteNothing() throws {
        #expect(try renderWithGallery("[{{nowhere}}][{{missingValue}}][{{{nowhere}}}]", context: record) == "[][][]")
    }

    @Test func ignoresSpacesInsideTags() throws {
        #expect(try renderWithGallery("{{  title  }} ({{\tyear\t}})", context: record) == "Kind of Blue (1959)")
    }

    @Test func dottedNamesLookUpTheFirstPartThenGoInside() throws {
        #expect(try renderWithGallery("{{label.city.name}} / {{label.name}}", context: record) == "New York / Columbia")
        // The first part is found down the stack; the rest only inside what was found.
        let shelf = object(["crate": object(["label": object([:])]), "label": object(["name": .text("wrong")])])
        #expect(try renderWithGallery("[{{crate.label.name}}]", context: shelf) == "[]")
        #expect(try renderWithGallery("[{{#crate}}{{label.name}}{{/crate}}]", context: shelf) == "[]")
        #expect(try renderWithGallery("[{{label.nowhere.name}}]", context: record) == "[]")
    }

    @Test func aNullValueHidesTheSameNameFurtherDownTheStack() throws {
        let context = object(["note": .text("outer"), "inner": object(["note": .null])])
        #expect(try renderWithGallery("{{#inner}}[{{note}}]{{/inner}}", context: context) == "[]")
    }

    @Test func implicitIteratorWritesTheCurrentItem() throws {
        #expect(try renderWithGallery("{{#tags}}<{{.}}>{{/tags}}", context: record) == "<jazz><modal>")
        let grid = object(["rows": .list([.list([.number(1), .number(2)]), .list([.text("a&b")])])])
        #expect(try renderWithGallery("{{#rows}}({{#.}}{{.}};{{/.}}){{/rows}}", context: grid) == "(1;2;)(a&amp;b;)")
    }

    // MARK: Sections

    @Test func sectionsRenderForTruthyValues() throws {
        #expect(try renderWithGallery("{{#reissued}}R{{/reissued}}{{#bootleg}}B{{/bootleg}}{{#missingValue}}M{{/missingValue}}{{#nowhere}}N{{/nowhere}}{{#noTracks}}E{{/noTracks}}", context: record) == "R")
    }

    @Test func listsRepeatTheSectionWithEachItemOnTheStack() throws {
        #expect(try renderWithGallery("{{#tracks}}{{name}} ({{title}}); {{/tracks}}", context: record) == "So What (Kind of Blue); Blue in Green (Kind of Blue); ")
    }

    @Test func objectsAndTextArePushedButFlagsAreNot() throws {
        #expect(try renderWithGallery("{{#label}}{{name}}{{/label}} {{#title}}{{.}}!{{/title}} {{#reissued}}{{title}}{{/reissued}}", context: record) == "Columbia Kind of Blue! Kind of Blue")
    }

    @Test func invertedSectionsRenderForFalseyValuesOnly() throws {
        let template = "{{^reissued}}1{{/reissued}}{{^bootleg}}2{{/bootleg}}{{^missingValue}}3{{/missingValue}}{{^nowhere}}4{{/nowhere}}{{^noTracks}}5{{/noTracks}}{{^tracks}}6{{/tracks}}{{^year}}7{{/year}}"
        #expect(try renderWithGallery(template, context: record) == "2345")
    }

    @Test func nestedSectionsOfTheSameName() throws {
        #expect(try renderWithGallery("{{#reissued}}a{{#reissued}}b{{/reissued}}c{{/reissued}}", context: record) == "abc")
    }

    // MARK: Standalone lines

    @Test func standaloneTagLinesVanish() throws {
        let template = "<ul>\n  {{#tracks}}\n  <li>{{name}}</li>\n  {{/tracks}}\n  {{! a note }}\n</ul>\n"
        #expect(try renderWithGallery(template, context: record) == "<ul>\n  <li>So What</li>\n  <li>Blue in Green</li>\n</ul>\n")
    }

    @Test func standaloneLinesEndingInCarriageReturnLineFeed() throws {
        let template = "top\r\n\t{{#reissued}}\r\nmiddle\r\n{{/reissued}} \r\nbottom"
        #expect(try renderWithGallery(template, context: record) == "top\r\nmiddle\r\nbottom")
    }

    @Test func aLoneCarriageReturnIsNotALineBreak() throws {
        #expect(try renderWithGallery("a\r{{#reissued}}\rb{{/reissued}}", context: record) == "a\r\rb")
    }

    @Test func whitespaceOnlyLinesAndInterpolationsStay() throws {
        #expect(try renderWithGallery("a\n   \n  {{nowhere}}\n\t{{{nowhere}}}\nb", context: record) == "a\n   \n  \n\t\nb")
    }

    @Test func standaloneTagsAtTheEndOfTheTemplate() throws {
        #expect(try renderWithGallery("{{#reissued}}\nyes\n  {{/reissued}}", context: record) == "yes\n")
        #expect(try renderWithGallery("end\n  {{! closing remark }}", context: record) == "end\n")
    }

    @Test func multiLineStandaloneComments() throws {
        #expect(try renderWithGallery("one\n  {{! first line\n      second line }}  \ntwo\n") == "one\ntwo\n")
        #expect(try renderWithGallery("one {{! spans\n lines }} two\n") == "one  two\n")
    }

    @Test func twoTagsOnALineAreNotStandalone() throws {
        #expect(try renderWithGallery("a\n{{#reissued}}{{/reissued}}\nb", context: record) == "a\n\nb")
        #expect(try renderWithGallery("a\n  {{#bootleg}}{{/bootleg}} {{! x }}\nb", context: record) == "a\n   \nb")
        #expect(try renderWithGallery("a\n {{! x }}{{! y }}") == "a\n ")
    }

    // MARK: Partials

    @Test func partialsRenderInTheCurrentContext() throws {
        #expect(try renderWithGallery("{{#label}}<{{>name}}>{{/label}} <{{>nowhere}}>", partials: ["name": "{{name}}"], context: record) == "<Columbia> <>")
    }

    @Test func standalonePartialsIndentEachOfTheirTemplateLines() throws {
        let partials = ["list": "<ol>\n{{#tracks}}\n  <li>{{name}}</li>\n{{/tracks}}\n</ol>\n"]
        #expect(try renderWithGallery("<div>\n    {{>list}}\n</div>\n", partials: partials, context: record)
            == "<div>\n    <ol>\n      <li>So What</li>\n      <li>Blue in Green</li>\n    </ol>\n</div>\n")
    }

    @Test func aPartialStartingWithAStandaloneSectionIsIndentedOnce() throws {
        let partials = ["maybe": "{{#reissued}}\n<em>reissue</em>\n{{/reissued}}\n"]
        #expect(try renderWithGallery("<p>\n  {{>maybe}}\n</p>", partials: partials, context: record) == "<p>\n  <em>reissue</em>\n</p>")
    }

    @Test func interpolatedLinesAreNotIndented() throws {
        let context = object(["poem": .text("first\nsecond")])
        #expect(try renderWithGallery("  {{>verse}}\nend", partials: ["verse": "[{{poem}}]\n"], context: context) == "  [first\nsecond]\nend")
    }

    @Test func nestedStandalonePartialsAddTheirIndentation() throws {
        let partials = ["outer": "o1\n  {{>inner}}\no2\n", "inner": "i1\ni2\n"]
        #expect(try renderWithGallery("\t{{>outer}}\n", partials: partials) == "\to1\n\t  i1\n\t  i2\n\to2\n")
    }

    @Test func inlinePartialsInsideIndentedPartialsAreNotIndented() throws {
        // Indentation goes on the template lines of the standalone partial; an inline partial's
        // lines are its own, as in the specification's reference implementations.
        let partials = ["outer": "x {{>inner}} y\n  {{>inner}}\n", "inner": "i1\ni2"]
        #expect(try renderWithGallery("  {{>outer}}\n", partials: partials) == "  x i1\ni2 y\n    i1\n    i2")
        let sectionFirst = ["outer": "x {{>inner}} y\n", "inner": "{{#reissued}}\ni1\ni2\n{{/reissued}}"]
        #expect(try renderWithGallery("  {{>outer}}\n", partials: sectionFirst, context: record) == "  x i1\ni2\n y\n")
    }

    @Test func recursivePartialsStopWhenTheDataEnds() throws {
        let tree = object(["name": .text("root"), "children": .list([object(["name": .text("leaf"), "children": .list([])])])])
        #expect(try renderWithGallery("{{>node}}", partials: ["node": "{{name}}({{#children}}{{>node}}{{/children}})"], context: tree) == "root(leaf())")
    }

    @Test func aPartialThatIncludesItselfForeverStops() throws {
        let output = try renderWithGallery("{{>loop}}", partials: ["loop": "x{{>loop}}"])
        #expect(output == String(repeating: "x", count: MustacheRenderer.maximumDepth))
    }

    // MARK: Set delimiters

    @Test func setDelimitersChangeTagsUntilChangedBack() throws {
        let template = "{{=<% %>=}}\n<%title%> {{title}}\n<%#tracks%>[<%name%>]<%/tracks%>\n<%={{ }}=%>\n{{year}}"
        #expect(try renderWithGallery(template, context: record) == "Kind of Blue {{title}}\n[So What][Blue in Green]\n1959")
    }

    @Test func partialsStartWithTheDefaultDelimitersAndKeepTheirOwn() throws {
        let partials = ["card": "{{title}} {{=| |=}}|year| {{year}}"]
        #expect(try renderWithGallery("{{=[ ]=}}[>card] [title] {{title}}", partials: partials, context: record) == "Kind of Blue 1959 {{year}} Kind of Blue {{title}}")
    }
}
