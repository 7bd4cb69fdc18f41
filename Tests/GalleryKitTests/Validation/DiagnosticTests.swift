import Testing
@testable import GalleryKit

@Suite struct DiagnosticTests {
    @Test func aFindingInAFileNamesTheFileFirst() {
        let diagnostic = Diagnostic.error("album 3 has no \"title\"", path: "content/albums.json", at: SourcePosition(line: 18, column: 5))
        #expect(diagnostic.description == "content/albums.json:18:5: error: album 3 has no \"title\"")
    }

    /// A failed build writes nothing, so leading with the page sent the reader to a file holding
    /// the last good build, whose line 17 is something else: the template, where the fix goes,
    /// leads, and the page says it was not written.
    @Test func aFindingTracedToATemplateLeadsWithTheTemplate() {
        var diagnostic = Diagnostic.error(
            "Opening and ending tag mismatch: br line 17 and p", path: "public/index.html", at: SourcePosition(line: 17, column: 14),
            template: "templates/base.mustache:24")
        #expect(diagnostic.description == "templates/base.mustache:24: error: Opening and ending tag mismatch: br line 17 and p (public/index.html:17:14, not written)")
        diagnostic.otherPages = 1
        #expect(diagnostic.description.hasSuffix(" (public/index.html:17:14 and 1 other page, not written)"))
        diagnostic.otherPages = 6
        #expect(diagnostic.description.hasSuffix(" (public/index.html:17:14 and 6 other pages, not written)"))
        // A warning does not stop the build, so its page is written.
        diagnostic.severity = .warning
        #expect(diagnostic.description == "templates/base.mustache:24: warning: Opening and ending tag mismatch: br line 17 and p (public/index.html:17:14 and 6 other pages)")
    }

    @Test func theSameTemplateMistakeOnManyPagesIsReportedOnceWithTheirCount() {
        let line = "templates/base.mustache:24"
        let pages = ["index.html", "albums/a/index.html", "albums/b/index.html"]
        let findings = pages.map { Diagnostic.error("<img> has no alt attribute", path: $0, at: SourcePosition(line: 17, column: 1), template: line) }
            + [.error("<img> has no alt attribute", path: "404.html", at: SourcePosition(line: 17, column: 1), template: "templates/404.mustache:1")]
        let condensed = DiagnosticDigest.condense(findings)
        #expect(condensed.map(\.path) == ["index.html", "404.html"])
        #expect(condensed.map(\.otherPages) == [2, 0])
        #expect(condensed.map(\.message) == ["<img> has no alt attribute", "<img> has no alt attribute"])
    }

    /// A broken link a template writes on every album page resolves to another missing file
    /// from each page, and climbs by another depth from each: still one mistake, one finding.
    @Test func aBrokenLinkFromOneTemplateLineIsOneFinding() {
        let line = "templates/base.mustache:30"
        let findings = [
            Diagnostic.error("broken link to 'missing/page/' (no such file in the output: albums/a/missing/page/index.html)", path: "albums/a/index.html", template: line),
            Diagnostic.error("broken link to 'missing/page/' (no such file in the output: albums/b/missing/page/index.html)", path: "albums/b/index.html", template: line),
            Diagnostic.error("broken link to './impressum.html' (no such file in the output: impressum.html)", path: "index.html", template: line),
            Diagnostic.error("broken link to '../../impressum.html' (no such file in the output: impressum.html)", path: "albums/a/index.html", template: line),
            Diagnostic.error("broken link to 'other.html' (no such file in the output: other.html)", path: "index.html", template: line),
        ]
        let condensed = DiagnosticDigest.condense(findings)
        #expect(condensed.map(\.path) == ["albums/a/index.html", "index.html", "index.html"])
        #expect(condensed.map(\.otherPages) == [1, 1, 0])
    }
}

/// A finding is one line of a terminal, whatever text it quotes.
@Suite struct DiagnosticTerminalTests {
    @Test func controlAndBidirectionalCharactersAreShownEscaped() {
        let diagnostic = Diagnostic.warning("cover \u{1B}[2Jhttp://x/\u{202E}gpj.exe fetched\r\nagain\u{85}", path: "content/albums.json", at: SourcePosition(line: 3, column: 5))
        #expect(diagnostic.description == "content/albums.json:3:5: warning: cover \\u{1B}[2Jhttp://x/\\u{202E}gpj.exe fetched\\u{D}\\u{A}again\\u{85}")
        #expect(Diagnostic.error("tab\tstays, café too", path: "a b/ü.json").description == "a b/ü.json: error: tab\tstays, café too")
    }
}
