import Foundation
import Testing

@testable import GalleryKit

@Suite struct EscapeTests {
    @Test func escapesMarkupInXML() {
        #expect(Escape.xml("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(Escape.xml("AT&T \"quoted\" 'single'") == "AT&amp;T &quot;quoted&quot; &#39;single&#39;")
        #expect(Escape.xml("🎸 مرحبا שלום") == "🎸 مرحبا שלום")
        #expect(Escape.xml("bell\u{7}tab\tend\u{FFFE}") == "bell\u{FFFD}tab\tend\u{FFFD}")
    }

    @Test func jsonStringsParseBackToTheSameText() throws {
        let samples = ["<script>alert(1)</script>", "AT&T", "\"quotes\" and \\", "🎸 مرحبا", "line\nbreak\u{1}\u{2028}"]
        for sample in samples {
            for htmlSafe in [false, true] {
                let literal = Escape.jsonString(sample, htmlSafe: htmlSafe)
                let decoded = try JSONSerialization.jsonObject(with: Data("[\(literal)]".utf8)) as? [String]
                #expect(decoded == [sample])
                if htmlSafe { #expect(!literal.contains("<") && !literal.contains("&")) }
            }
        }
    }

    /// The fast checks that let text through untouched must never pass text the slow paths
    /// would change; random strings from pieces near every rule's edge.
    @Test func theFastChecksPassOnlyTextTheEscapesLeaveAlone() {
        let pieces = ["a", " ", "&", "<", ">", "\"", "'", "\\", "\t", "\n", "\r", "\u{1}", "\u{1F}", "\u{7F}", "é", "🎸", "م",
                      "\u{2028}", "\u{2029}", "\u{2027}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{F000}", "\u{E000}"]
        var random = SeededGenerator(seed: 11)
        for _ in 0..<5_000 {
            let text = (0..<Int(random.next() % 5)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            if Escape.isPlainXML(text) { #expect(Escape.escapingXML(text) == text, "\(text.unicodeScalars.map(\.value))") }
            for htmlSafe in [false, true] where Escape.isPlainJSON(text, htmlSafe: htmlSafe) {
                #expect(Escape.escapingJSON(text, htmlSafe: htmlSafe) == "\"" + text + "\"", "\(text.unicodeScalars.map(\.value))")
            }
            if Escape.hasNoForbiddenXMLByte(text) { #expect(Escape.replacingForbiddenXML(text) == text, "\(text.unicodeScalars.map(\.value))") }
            // And the escapes themselves agree with their slow paths on everything.
            #expect(Escape.xml(text) == Escape.escapingXML(text))
            #expect(Escape.xmlCharacters(text) == Escape.replacingForbiddenXML(text))
        }
    }
}
