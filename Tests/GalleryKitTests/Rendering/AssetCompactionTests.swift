import Foundation
import Testing
@testable import GalleryKit

/// The shrink of the built-in script and style sheet: indentation, blank lines and whole-line
/// comments go, every other byte stays.
struct AssetCompactionTests {
    private func compact(_ text: String, css: Bool) -> String {
        String(decoding: AssetBundle.compact(Data(text.utf8), css: css), as: UTF8.self)
    }

    @Test func aScriptLosesIndentationBlankLinesAndLineComments() {
        let script = "  const a = 1;\n\n\t// a comment\n    \t\n  f(a); // kept: code comes first\n\tconst url = \"//cdn\";\n"
        #expect(compact(script, css: false) == "const a = 1;\nf(a); // kept: code comes first\nconst url = \"//cdn\";\n")
    }

    @Test func aStyleSheetLosesWholeLineCommentsOnly() {
        let sheet = "/* heading */\n  .tile {\n    color: red; /* kept */\n  }\n/*/\n\t/* a\nb */\n"
        #expect(compact(sheet, css: true) == ".tile {\ncolor: red; /* kept */\n}\n/* a\nb */\n")
    }

    @Test func textInOtherScriptsAndAMissingLastLineFeedAreKept() {
        #expect(compact("  const dash = \"—\";\n  const rtl = \"שלום\"", css: false) == "const dash = \"—\";\nconst rtl = \"שלום\"\n")
        #expect(compact("\n\n  \n", css: false) == "\n")
    }

    @Test func bytesThatAreNotUTF8AreLeftAsTheyAre() {
        let bytes = Data([0x20, 0x20, 0xFF, 0x0A, 0x0A])
        #expect(AssetBundle.compact(bytes, css: false) == bytes)
    }

    /// The built-in files compact to what they did when the shrink walked `Character`s, so
    /// their fingerprinted names stay the same.
    @Test(arguments: ["gallery.js", "gallery.css"])
    func theBuiltInFilesCompactAsALineWalkDoes(name: String) throws {
        let source = try #require(BuiltinResources.data(at: "assets/\(name)"))
        let text = try #require(String(data: source, encoding: .utf8))
        var lines: [Substring] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || (name.hasSuffix(".js") && trimmed.hasPrefix("//")) { continue }
            if name.hasSuffix(".css"), trimmed.hasPrefix("/*"), trimmed.hasSuffix("*/") { continue }
            lines.append(trimmed)
        }
        #expect(AssetBundle.compact(source, css: name.hasSuffix(".css")) == Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
