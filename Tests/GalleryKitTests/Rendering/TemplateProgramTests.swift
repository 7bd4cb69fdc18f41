import Testing

@testable import GalleryKit

/// Templates render through their flat programs (``TemplateProgram``); a leaf partial (the tile's
/// kind) takes its names from its object first, and renders the same bytes and the same trace as
/// the same partial with an inclusion in it, which does not.
@Suite struct TemplateProgramTests {
    /// Text, variables escaped and not, and sections of every kind of value, nested, on lines of
    /// their own and inline.
    static let leaf = """
    <li class="tile{{#current}} current{{/current}}">{{title}} &amp; {{{title}}}
    {{#tracks}}
      <i>{{.}}</i>{{#bonus}}+{{/bonus}}
    {{/tracks}}
    {{^tracks}}none{{/tracks}}
    {{#artist}}<b>{{name}}</b>{{^name}}anonymous{{/name}}{{/artist}}
    {{#year}}({{.}}){{/year}}{{#missing}}never{{/missing}}
    </li>

    """

    static let album = object([
        "title": .text("<Kind of Blue>"),
        "current": .bool(true),
        "tracks": .list([.text("So What"), .text("Blue in Green")]),
        "bonus": .bool(false),
        "artist": object(["name": .text("Miles Davis")]),
        "year": .number(1959),
    ])

    static let bare = object([
        "title": .text("Untitled"),
        "current": .bool(false),
        "tracks": .list([]),
        "artist": object([:]),
        "year": .null,
    ])

    @Test(arguments: [
        (album, ["current\">&lt;Kind of Blue&gt; &amp; <Kind of Blue>", "    <i>So What</i>\n", "<b>Miles Davis</b>", "(1959)"]),
        (bare, ["\"tile\">Untitled", "  none\n", "anonymous"]),
    ])
    func aLeafPartialRendersAsOneThatIncludesDoes(context: TemplateValue, expected: [String]) throws {
        let main = "<ul>\n  {{>tile}}\n</ul>\n<p>{{>tile}}</p>\n"
        // The same text with an empty block at its end is no leaf.
        let tree = Self.leaf + "{{$nothing}}\n{{/nothing}}\n"
        #expect(try CompiledTemplate(name: "tile", text: Self.leaf).isLeaf)
        #expect(try !CompiledTemplate(name: "tile", text: tree).isLeaf)

        let (flatOutput, flatTrace) = try renderTracedWithGallery(main, partials: ["tile": Self.leaf], context: context)
        let (treeOutput, treeTrace) = try renderTracedWithGallery(main, partials: ["tile": tree], context: context)
        #expect(flatOutput == treeOutput)
        #expect(flatTrace == treeTrace)
        for text in expected { #expect(flatOutput.contains(text)) }
        #expect(!flatOutput.contains("never"))
    }

    @Test func aTemplateThatIncludesAnotherIsNoLeaf() throws {
        #expect(try CompiledTemplate(name: "a", text: "{{#x}}{{>b}}{{/x}}").program.inclusions.count == 1)
        #expect(try !CompiledTemplate(name: "a", text: "{{<b}}{{/b}}").isLeaf)
        #expect(try !CompiledTemplate(name: "a", text: "{{$b}}{{/b}}").isLeaf)
        let program = try CompiledTemplate(name: "a", text: "a{{#x}}b{{y}}{{/x}}c").program
        #expect(program.isLeaf)
        // The start of the line (where indentation goes), "a", the section, "b", y, "c".
        #expect(program.operations.count == 6)
        #expect(Array(program.bytes) == Array("abc".utf8))
        #expect(program.names.map(\.name.description) == ["x", "y"])
    }
}
