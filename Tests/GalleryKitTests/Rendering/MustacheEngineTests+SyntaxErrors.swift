import Testing

@testable import GalleryKit

/// Templates that do not parse, and where the error points.
extension MustacheEngineTests {
    struct BrokenTemplate: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var column: Int
        var message: String

        var testDescription: String { text.debugDescription }
    }

    @Test(arguments: [
        // Unclosed tags, quoted as far as their name goes, with the closing the tag needs.
        BrokenTemplate(text: "Hello\n  {{name", line: 2, column: 3, message: "the tag '{{name' is not closed: it needs '}}'"),
        BrokenTemplate(text: "{{{raw}}", line: 1, column: 1, message: "the tag '{{{raw}}' is not closed: it needs '}}}'"),
        BrokenTemplate(text: "{{=<% %>=}}\nok\n<%name", line: 3, column: 1, message: "the tag '<%name' is not closed: it needs '%>'"),
        // A tag one brace short is not closed either, though a later tag's '}}' follows: the
        // message quotes the tag, never the text up to that later tag.
        BrokenTemplate(
            text: "<h1>{{album.title}} by {{album.artist}</span></h1>\n{{#album.image}}<img/>{{/album.image}}",
            line: 1, column: 24, message: "the tag '{{album.artist}' is not closed: it needs '}}'"
        ),
        BrokenTemplate(text: "{{a}{{b}}", line: 1, column: 1, message: "the tag '{{a}' is not closed: it needs '}}'"),
        BrokenTemplate(text: "x\n  {{#list}\nitem\n{{/list}}", line: 2, column: 3, message: "the tag '{{#list}' is not closed: it needs '}}'"),
        BrokenTemplate(text: "{{{raw}} and more}}}", line: 1, column: 1, message: "the tag '{{{raw}}' is not closed: it needs '}}}'"),
        BrokenTemplate(text: "{{ album.artist } by {{x}}", line: 1, column: 1, message: "the tag '{{ album.artist }' is not closed: it needs '}}'"),
        BrokenTemplate(text: "{{=<% %>=}}<%name%\n<%x%>", line: 1, column: 12, message: "the tag '<%name%' is not closed: it needs '%>'"),
        BrokenTemplate(
            text: "{{" + String(repeating: "é", count: 30) + "}</p>\n{{x}}", line: 1, column: 1,
            message: "the tag '{{" + String(repeating: "é", count: 20) + "…' is not closed: it needs '}}'"
        ),
        // Unclosed sections point at the opening tag.
        BrokenTemplate(text: "a\n{{#list}}\nitem", line: 2, column: 1, message: "'list' is never closed; add {{/list}}"),
        BrokenTemplate(text: "{{$block}}{{#inner}}{{/inner}}", line: 1, column: 1, message: "'block' is never closed; add {{/block}}"),
        // A close tag for another section, or for none.
        BrokenTemplate(text: "{{#outer}}\n  {{#inner}}\n  {{/outer}}", line: 3, column: 3, message: "{{/outer}} closes 'inner', opened at 2:3; close it with {{/inner}}"),
        BrokenTemplate(text: "text {{/list}}", line: 1, column: 6, message: "{{/list}} closes nothing; no section is open here"),
        // Tags without a name, or with spaces in it.
        BrokenTemplate(text: "{{ }}", line: 1, column: 1, message: "this tag has no name"),
        BrokenTemplate(text: "x\ny{{#}}{{/}}", line: 2, column: 2, message: "this tag has no name"),
        BrokenTemplate(text: "{{>  }}", line: 1, column: 1, message: "this tag has no name"),
        BrokenTemplate(text: "{{first name}}", line: 1, column: 1, message: "'first name' is not a valid name (names have no spaces)"),
        // Hugo's Go templates are told as such, with the Mustache way.
        BrokenTemplate(text: "<p>{{ if .Params.price }}", line: 1, column: 4, message: "'if .Params.price' is not a valid name (names have no spaces); this is Go template syntax, as Hugo's: Mustache writes a section as {{#album.params.price}}…{{/album.params.price}} (shown when the value is there), {{^name}}…{{/name}} for its absence, and a value as {{album.title}}"),
        BrokenTemplate(text: "{{- .Title -}}", line: 1, column: 1, message: "'- .Title -' is not a valid name (names have no spaces); this is Go template syntax, as Hugo's: Mustache writes a section as {{#album.params.price}}…{{/album.params.price}} (shown when the value is there), {{^name}}…{{/name}} for its absence, and a value as {{album.title}}"),
        // Set-delimiter tags.
        BrokenTemplate(text: "{{=<% %>}}", line: 1, column: 1, message: "a set-delimiter tag must end with '=', as in {{=<% %>=}}"),
        BrokenTemplate(text: "\n  {{= a b c =}}", line: 2, column: 3, message: "a set-delimiter tag needs two delimiters without spaces or '=', as in {{=<% %>=}}"),
        BrokenTemplate(text: "{{==}}", line: 1, column: 1, message: "a set-delimiter tag needs two delimiters without spaces or '=', as in {{=<% %>=}}"),
        BrokenTemplate(text: "{{=a= b=}}", line: 1, column: 1, message: "a set-delimiter tag needs two delimiters without spaces or '=', as in {{=<% %>=}}"),
        // Columns count Unicode scalars, not bytes.
        BrokenTemplate(text: "é😀 {{=x=}}", line: 1, column: 4, message: "a set-delimiter tag needs two delimiters without spaces or '=', as in {{=<% %>=}}"),
        // Line numbers go on after a multi-line comment.
        BrokenTemplate(text: "{{! one\ntwo }} {{/x}}", line: 2, column: 8, message: "{{/x}} closes nothing; no section is open here"),
        // Nesting past 100 levels is refused at the tag that goes too deep (20,000 levels
        // overflowed the stack); 100 levels are fine (below).
        BrokenTemplate(text: String(repeating: "{{#a}}\n", count: 100) + "  {{^b}}" + String(repeating: "{{/a}}", count: 100), line: 101, column: 3, message: "sections, parents and blocks are nested more than 100 deep here; no page needs so many, so close some before opening more"),
        BrokenTemplate(text: String(repeating: "{{#a}}", count: 20_000) + "x" + String(repeating: "{{/a}}", count: 20_000), line: 1, column: 601, message: "sections, parents and blocks are nested more than 100 deep here; no page needs so many, so close some before opening more"),
        // Inside a parent tag only blocks count.
        BrokenTemplate(text: "{{<base}}\n{{title}}\n{{/base}}", line: 2, column: 1, message: "only blocks ({{$name}}…{{/name}}) and comments can go directly inside {{<base}}"),
    ])
    func reportsWhereATemplateBreaks(_ broken: BrokenTemplate) {
        #expect(throws: MustacheSyntaxError(message: broken.message, position: SourcePosition(line: broken.line, column: broken.column))) {
            try CompiledTemplate(name: "broken", text: broken.text)
        }
    }

    @Test func spacesAndLineBreaksAroundANameAreNoUnclosedTag() throws {
        // Only a tag whose text runs into another tag, or whose name breaks over lines, is
        // taken for one that was not closed.
        #expect(try renderWithGallery("{{ title }}|{{\ntitle\n}}|{{{ title }}}", context: record) == "Kind of Blue|Kind of Blue|Kind of Blue")
    }

    @Test func oneHundredLevelsOfSectionsAreFine() throws {
        let deep = String(repeating: "{{#album}}", count: 100) + "{{title}}" + String(repeating: "{{/album}}", count: 100)
        #expect(try renderWithGallery(deep, context: object(["album": record])) == "Kind of Blue")
    }

    @Test func reportsTheEarliestProblemFirst() {
        // The mismatched close on line 1 comes before the tag left open on line 3.
        #expect(throws: MustacheSyntaxError(message: "{{/b}} closes 'a', opened at 1:1; close it with {{/a}}", position: SourcePosition(line: 1, column: 7))) {
            try CompiledTemplate(name: "broken", text: "{{#a}}{{/b}}\n\n{{unclosed")
        }
    }
}
