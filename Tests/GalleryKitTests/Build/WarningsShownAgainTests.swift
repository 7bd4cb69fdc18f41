import Foundation
import Testing

@testable import GalleryKit

/// A page whose check found a warning is made and checked again by the next build, which shows
/// the warning again (and fails with `--strict`), as a cover's warning is shown again (QA round
/// 20): left in place, it said nothing, and `--strict` let the site through.
@Suite struct WarningsShownAgainTests {
    @Test func aPagesWarningIsShownByEveryBuildUntilFixed() async throws {
        let site = try RemovedOutputsBuildTests.Site()
        defer { site.remove() }
        try site.extend("album", with: #"{{#album.params.see}}<script>var see = "a &amp; b";</script>{{/album.params.see}}"#)
        try site.albums(params: [2: "x"])
        func warnings(_ state: BuildState) -> [String] {
            state.diagnostics.filter { $0.severity == .warning }.map(\.description)
        }
        let first = await site.build()
        #expect(first.summary.succeeded)
        #expect(warnings(first).count == 1, "\(first.diagnostics)")

        // Nothing changed, then an album far from album 2 edited: the warning each time.
        let again = await site.build()
        #expect(warnings(again) == warnings(first))
        try site.albums(params: [2: "x", 11: "y"])
        let edited = await site.build()
        #expect(warnings(edited).count == 1 && warnings(edited)[0].contains("and 1 other page"), "album 11 now warns too: \(edited.diagnostics)")
        #expect(edited.summary.pagesWritten < 12, "pages are still left in place")
        let strict = await BuildPipeline().run(BuildOptions(site: site.site, strict: true))
        #expect(!strict.summary.succeeded, "--strict fails on the warnings, as a clean build does")
        #expect(!(await BuildPipeline().run(BuildOptions(site: site.site, strict: true, clean: true))).summary.succeeded)

        // Fixed, the warning goes and the page is left in place again.
        try site.albums(params: [:])
        let fixed = await site.build()
        #expect(warnings(fixed) == [])
        let quiet = await site.build()
        #expect(warnings(quiet) == [])
        #expect(quiet.summary.pagesWritten == 0)
    }
}
