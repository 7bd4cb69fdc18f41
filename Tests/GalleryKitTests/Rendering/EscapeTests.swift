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
}
