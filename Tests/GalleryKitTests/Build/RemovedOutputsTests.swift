import Foundation
import Testing

@testable import GalleryKit

extension RemovedOutputs {
    /// ``mayLink(from:bytes:)`` for bytes in an array.
    func mayLink(from path: String, bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { mayLink(from: path, bytes: $0) }
    }
}

/// Which pages in place may link to a file the build no longer makes, told from their bytes.
@Suite struct RemovedOutputsTests {
    static func page(_ body: String) -> [UInt8] {
        Array("<html><body><a href=\"../../covers/abc-100.webp\">x</a>\(body)</body></html>".utf8)
    }

    @Test func aPageNamingARemovedFileOrItsFolderMayLinkToIt() {
        let removed = RemovedOutputs(paths: ["albums/old-slug/index.html", "covers/dead-200.webp", "notes.txt"])
        #expect(removed.paths == ["albums/old-slug/index.html", "covers/dead-200.webp", "notes.txt"])
        let path = "albums/other/index.html"
        #expect(!removed.mayLink(from: path, bytes: Self.page("<a href=\"../new-slug/\">new</a>")))
        #expect(removed.mayLink(from: path, bytes: Self.page("<a href=\"../old-slug/\">old</a>")))
        #expect(removed.mayLink(from: path, bytes: Self.page("<img src=\"/covers/dead-200.webp\" alt=\"\"/>")))
        #expect(removed.mayLink(from: path, bytes: Self.page("<a href=\"/sub/notes.txt?x#y\">n</a>")))
        // Only the name is looked for, not a whole reference: text that holds it is enough.
        #expect(removed.mayLink(from: path, bytes: Self.page("<p>see old-slug</p>")))
        #expect(!removed.mayLink(from: path, bytes: Self.page("<p>see old-slu</p>")), "a part of a name is not the name")
        #expect(removed.mayLink(from: path, bytes: nil), "a page that cannot be read is made again")
    }

    @Test func nothingRemovedMeansNoPageIsMadeAgain() {
        let removed = RemovedOutputs(paths: [])
        #expect(removed.isEmpty)
        #expect(!removed.mayLink(from: "index.html", bytes: Self.page("<a href=\"x%41\">&#65;\\</a>")))
        #expect(!removed.mayLink(from: "index.html", bytes: nil))
    }

    @Test func anEscapeMayHideTheName() {
        let removed = RemovedOutputs(paths: ["notes.txt"])
        let path = "albums/a/index.html"
        #expect(removed.mayLink(from: path, bytes: Self.page("<a href=\"/not%65s.txt\">n</a>")), "percent-encoded")
        #expect(removed.mayLink(from: path, bytes: Self.page("<a href=\"/not&#101;s.txt\">n</a>")), "a decimal character reference")
        #expect(removed.mayLink(from: path, bytes: Self.page("<a href=\"/not&#x65;s.txt\">n</a>")), "a hexadecimal one")
        #expect(removed.mayLink(from: path, bytes: Self.page("<p style=\"background:url(not\\65 s.txt)\">n</p>")), "a CSS escape")
        #expect(removed.mayLink(from: path, bytes: Self.page("<p>&#;</p>")), "a broken reference")
        #expect(removed.mayLink(from: path, bytes: Self.page("<p>&#1234567890;</p>")), "a reference too long to read")
        // Markup's own escapes cannot spell a name that holds none of their characters.
        for reference in ["&#39;", "&#x27;", "&#X27;", "&#34;", "&#38;", "&#60;", "&#62;", "&#x3C;", "&#x3e;", "&amp;", "&lt;", "&quot;"] {
            #expect(!removed.mayLink(from: path, bytes: Self.page("<p title=\"O\(reference)Brien\">O\(reference)Brien</p>")), "\(reference)")
        }
    }

    @Test func entitiesAndStyleElementsMayHideTheName() {
        let removed = RemovedOutputs(paths: ["notes.txt"])
        let path = "albums/a/index.html"
        #expect(removed.mayLink(from: path, bytes: Array(#"<!DOCTYPE html [<!ENTITY n "not">]><html><body><a href="/&n;es.txt">n</a></body></html>"#.utf8)))
        for split in ["<!-- -->", "<![CDATA[]]>", "<?x?>", "<b/>"] {
            #expect(removed.mayLink(from: path, bytes: Self.page("<style>p{background:url(/not\(split)es.txt)}</style>")), "\(split)")
        }
        #expect(removed.mayLink(from: path, bytes: Self.page("<h:style xmlns:h=\"http://www.w3.org/1999/xhtml\">p{}</h:style>")), "a prefixed style element")
        #expect(!removed.mayLink(from: path, bytes: Self.page("<p style=\"left:10px\" class=\"style\">styled</p>")), "a style attribute is read whole")
        #expect(removed.mayLink(from: path, bytes: Array(#"<!-- <a --><!DOCTYPE html SYSTEM "x" [<!ENTITY n "not">]><html/>"#.utf8)), "declared after a comment and a system id")
        for tag in [#"<style media="all">"#, "<style >", #"<h:style xmlns:h="http://www.w3.org/1999/xhtml">"#] {
            #expect(removed.mayLink(from: path, bytes: Self.page("\(tag)p{background:url(/not<!-- -->es.txt)}</style\n>")), "\(tag)")
        }
    }

    @Test func aPageInAnotherEncodingMayHideTheName() {
        let removed = RemovedOutputs(paths: ["notes.txt"])
        let path = "albums/a/index.html"
        #expect(removed.mayLink(from: path, bytes: Array(#"<?xml version="1.0" encoding="UTF-7"?><html><body><a href="/not+AGU-s.txt">n</a></body></html>"#.utf8)))
        #expect(removed.mayLink(from: path, bytes: Array("<?xml version='1.0' encoding = 'ISO-8859-1'?><html/>".utf8)))
        #expect(removed.mayLink(from: path, bytes: [0xFF, 0xFE] + Array("<\0h\0".utf8)), "UTF-16, by its byte order mark")
        let utf16: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><a href=\"/notes.txt\"/>".utf8).flatMap { [$0, UInt8(0)] }
        #expect(removed.mayLink(from: path, bytes: utf16), "UTF-16 without one, which libxml2 knows by its NULs")
        #expect(removed.mayLink(from: path, bytes: Array("<?xml version='1.0' encoding='utf".utf8)), "a declaration that does not end")
        #expect(!removed.mayLink(from: path, bytes: Array(#"<?xml version="1.0" encoding="UTF-8"?><html/>"#.utf8)))
        #expect(!removed.mayLink(from: path, bytes: [0xEF, 0xBB, 0xBF] + Array(#"<?xml version="1.0"?><html/>"#.utf8)), "UTF-8 with its byte order mark")
        #expect(!removed.mayLink(from: path, bytes: Array("<!DOCTYPE html><html/>".utf8)))
    }

    @Test func pathsAreComparedByTheirBytes() {
        var previous = BuildManifest()
        let composed = "caf\u{E9}.txt", decomposed = "cafe\u{301}.txt"
        #expect(composed == decomposed, "Swift's strings take them for equal")
        previous.entries[composed] = BuildManifest.Entry(inputKey: 1, size: 1, outputHash: 1)
        previous.entries["\u{212A}.txt"] = BuildManifest.Entry(inputKey: 1, size: 1, outputHash: 1)
        let removed = RemovedOutputs(previous: previous, index: OutputPathIndex([decomposed, "K.txt"]))
        #expect(Set(removed.paths.map { Array($0.utf8) }) == [Array("\u{212A}.txt".utf8), Array(composed.utf8)], "the Kelvin sign and the composed é are gone")

        // Every output in ASCII, as on nearly every site: a path that is not in ASCII is gone
        // though a string equal to it is made.
        var kelvin = BuildManifest()
        for path in ["\u{212A}.txt", "K.txt", "albums/a/index.html"] {
            kelvin.entries[path] = BuildManifest.Entry(inputKey: 1, size: 1, outputHash: 1)
        }
        #expect("\u{212A}.txt" == "K.txt")
        let gone = RemovedOutputs(previous: kelvin, index: OutputPathIndex(["K.txt", "albums/b/index.html"]))
        #expect(Set(gone.paths.map { Array($0.utf8) }) == [Array("albums/a/index.html".utf8), Array("\u{212A}.txt".utf8)])
    }

    @Test func aRemovedFolderPageMayBeReachedByClimbingFromBelowIt() {
        let removed = RemovedOutputs(paths: ["albums/index.html"])
        let plain = Self.page("<a href=\"..\">up</a>")
        #expect(removed.mayLink(from: "albums/a/index.html", bytes: plain), "a page below the folder reaches it with ..")
        #expect(removed.mayLink(from: "albums/a/b/index.html", bytes: plain))
        #expect(!removed.mayLink(from: "page/2/index.html", bytes: plain), "a page elsewhere must name it")
        #expect(!removed.mayLink(from: "albumsx/index.html", bytes: plain), "a folder whose name starts with it is another folder")
        #expect(removed.mayLink(from: "page/2/index.html", bytes: Self.page("<a href=\"../../albums/\">all</a>")))
        let root = RemovedOutputs(paths: ["index.html"])
        #expect(root.mayLink(from: "page/2/index.html", bytes: plain), "every page is below the root")
    }

    @Test func aNameThatMarkupEscapesOrTooManyNamesMakeEveryPageAgain() {
        let plain = Self.page("")
        for name in ["a&b.txt", "it's.png", "100%.png", "back\\slash.txt", "a<b.txt", "q\"uote.txt", "my notes.txt"] {
            #expect(RemovedOutputs(paths: [name]).mayLink(from: "albums/a/index.html", bytes: plain), "\(name)")
        }
        #expect(!RemovedOutputs(paths: (0..<RemovedOutputs.mostNames).map { "gone-\($0).txt" }).mayLink(from: "index.html", bytes: plain))
        #expect(RemovedOutputs(paths: (0...RemovedOutputs.mostNames).map { "gone-\($0).txt" }).mayLink(from: "index.html", bytes: plain))
    }

    @Test func theRemovedAreThePreviousOutputsNotMadeNow() {
        var previous = BuildManifest()
        for path in ["index.html", "albums/a/index.html", "albums/b/index.html", "notes.txt"] {
            previous.entries[path] = BuildManifest.Entry(inputKey: 1, size: 1, outputHash: 1)
        }
        let removed = RemovedOutputs(previous: previous, index: OutputPathIndex(["index.html", "albums/a/index.html", "albums/c/index.html"]))
        #expect(removed.paths == ["albums/b/index.html", "notes.txt"])
    }

    /// The 16-wide search against a plain one, on random bytes from a small alphabet (so that
    /// first and last bytes match often), at every length around the vector width.
    @Test func theSearchFindsWhatAPlainOneFinds() {
        var generator = SystemRandomNumberGenerator()
        func plain(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard needle.count <= haystack.count else { return false }
            return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
        }
        var found = 0
        for round in 0..<4000 {
            let alphabet: [UInt8] = Array("abc/".utf8)
            let haystack = (0..<Int.random(in: 0...70, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            var needle = (0..<Int.random(in: 1...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            if round % 3 == 0, haystack.count >= 2 {
                // A needle taken from the haystack, often at its very end.
                let end = round % 2 == 0 ? haystack.count : Int.random(in: 1...haystack.count, using: &generator)
                let start = Int.random(in: max(0, end - 20)..<end, using: &generator)
                needle = Array(haystack[start..<end])
            }
            let fast = haystack.withUnsafeBufferPointer { Needle(needle).occurs(in: $0) }
            #expect(fast == plain(haystack, needle), "\(String(decoding: needle, as: UTF8.self)) in \(String(decoding: haystack, as: UTF8.self))")
            if fast { found += 1 }
        }
        #expect(found > 1000, "the cases hold matches: \(found)")
    }
}
