import Testing
@testable import GalleryKit

/// Pages, SVGs and an output file list for the validation tests, with predictable line numbers.
enum ValidationFixtures {
    /// The files of a small finished site.
    static let outputPaths: Set<String> = [
        "index.html",
        "404.html",
        "albums/a/index.html",
        "albums/b/index.html",
        "assets/gallery.3fa2b1c0.css",
        "assets/gallery.js",
        "covers/a.svg",
        "covers/b.svg",
        "covers/b@2x.jpg",
        "carousel.svg",
    ]

    /// The page every test validates unless it says otherwise.
    static let pagePath = "albums/a/index.html"

    /// A page whose `body` content starts on line 9, one string per line.
    ///
    /// Lines 1–8: DOCTYPE, `<html …>`, `<head>`, `<meta/>`, `<title>`, `<link/>`, `</head>`,
    /// `<body>`. `root` leads from the page's folder to the output root.
    static func page(_ body: [String], root: String = "../../") -> [UInt8] {
        let lines = [
            "<!DOCTYPE html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\"/>",
            "<title>Best of Bowie</title>",
            "<link rel=\"stylesheet\" href=\"\(root)assets/gallery.3fa2b1c0.css\"/>",
            "</head>",
            "<body>",
        ] + body + ["</body>", "</html>", ""]
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// A correct album page using every kind of reference the validator checks.
    static let validBody = [
        "<header><h1 id=\"title\">Best of Bowie</h1> <a href=\"#tracks\">Tracks</a> <a href=\"/\">Home</a></header>",
        "<ul class=\"strip\" aria-label=\"Albums\">",
        "<li class=\"tile\"><a href=\"./\" aria-current=\"page\"><img src=\"../../covers/a.svg\" alt=\"Best of Bowie\" width=\"100\" height=\"100\"/></a></li>",
        "<li class=\"tile\"><a href=\"../b/index.html?from=a#details\"><img src=\"../../covers/b.svg\" srcset=\"../../covers/b.svg 1x, ../../covers/b@2x.jpg 2x\" alt=\"\" width=\"100\" height=\"100\"/></a></li>",
        "</ul>",
        "<!-- a comment with <img src=\"nowhere.png\"> inside is not markup -->",
        "<table id=\"tracks\"><tr><th>Artist</th><td>David Bowie &amp; friends &#8212; &lt;live&gt;</td></tr></table>",
        "<p>© 2024 <a href=\"https://example.com/\">example</a> <a href=\"mailto:a@example.com\">mail</a> <a href=\"//cdn.example.com/x\">cdn</a> <img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\" alt=\"\"/></p>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"10\" height=\"10\" viewBox=\"0 0 10 10\"><image href=\"../../covers/a.svg\" width=\"10\" height=\"10\"/><use xlink:href=\"#title\"/></svg>",
        "<script src=\"../../assets/gallery.js\"></script>",
    ]

    /// A carousel SVG with two tiles, one per `href` style; lines as numbered in the comments.
    static func carousel(_ edit: (inout [String]) -> Void = { _ in }) -> [UInt8] {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",  // 1
            "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"460\" height=\"120\" viewBox=\"0 0 460 120\" role=\"img\" aria-label=\"Albums\">",  // 2
            "  <title>Albums</title>",  // 3
            "  <desc>Two albums</desc>",  // 4
            "  <defs>",  // 5
            "    <style>.highlight { fill: none; stroke: #c00; }</style>",  // 6
            "    <clipPath id=\"tile-clip\"><rect x=\"0\" y=\"0\" width=\"100\" height=\"100\" rx=\"8\"/></clipPath>",  // 7
            "  </defs>",  // 8
            "  <g class=\"tiles\">",  // 9
            "    <a href=\"albums/a/index.html\" aria-label=\"Best of Bowie by David Bowie\">",  // 10
            "      <title>Best of Bowie</title>",  // 11
            "      <image href=\"covers/a.svg\" x=\"110\" y=\"10\" width=\"100\" height=\"100\" preserveAspectRatio=\"xMidYMid slice\"/>",  // 12
            "      <rect class=\"highlight\" x=\"110\" y=\"10\" width=\"100\" height=\"100\" rx=\"4\"/>",  // 13
            "    </a>",  // 14
            "    <a xlink:href=\"albums/b/index.html\">",  // 15
            "      <image xlink:href=\"covers/b.svg\" x=\"230\" y=\"10\" width=\"100\" height=\"100\"/>",  // 16
            "    </a>",  // 17
            "  </g>",  // 18
            "</svg>",  // 19
            "",
        ]
        edit(&lines)
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Runs 1,500 seeded random edits of `original` through the tree-based validation
    /// (`findings`) and a stream check (`passes`), recording an issue for any edit the stream
    /// passes although the tree faults it; returns how many edits were faulted and how many
    /// valid ones passed, so a test can tell the fuzz exercised both.
    static func fuzz(
        _ original: [UInt8], inserting insertions: [[UInt8]], seed: UInt64,
        findings: ([UInt8]) -> [Diagnostic], passes: ([UInt8]) throws -> Bool
    ) rethrows -> (faulted: Int, passedValid: Int) {
        var random = SeededGenerator(seed: seed)
        var faulted = 0
        var passedValid = 0
        for round in 0..<1_500 {
            let bytes = randomEdit(of: original, inserting: insertions, using: &random)
            let found = findings(bytes)
            let passed = try passes(bytes)
            if !found.isEmpty {
                faulted += 1
                #expect(!passed, "round \(round): passed \(String(decoding: bytes, as: UTF8.self).debugDescription), which has \(found.map(\.description))")
            } else if passed {
                passedValid += 1
            }
        }
        return (faulted, passedValid)
    }

    /// One to three random edits of `original`: a deletion of up to 6 bytes, one of `insertions`
    /// (twice as likely), or a copy of up to 40 of its own bytes elsewhere.
    private static func randomEdit(of original: [UInt8], inserting insertions: [[UInt8]], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        for _ in 0..<(1 + Int(random.next() % 3)) {
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 4 {
            case 0:
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 6)))
            case 1, 2:
                bytes.insert(contentsOf: insertions[Int(random.next() % UInt64(insertions.count))], at: at)
            default:
                let from = Int(random.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + 1 + Int(random.next() % 40))], at: at)
            }
        }
        return bytes
    }

    /// The validator for `outputPaths`.
    static let validator = PageValidator(outputPaths: outputPaths)

    /// Validates `body` as the page at `pagePath`.
    static func diagnostics(_ body: [String]) -> [Diagnostic] {
        validator.validateXHTML(page(body), path: pagePath)
    }
}

extension Diagnostic {
    /// `line:column` of the diagnostic, or `nil`; short to compare in `#expect`.
    var at: String? { position.map { "\($0.line):\($0.column)" } }
}
