import Foundation
import Testing

@testable import GalleryKit

/// The sitemap past the protocol's 50,000 URLs a file: parts, and `sitemap.xml` their index.
/// (A site of that size is too large for a unit test; the limit is lowered instead.)
@Suite struct SitemapTests {
    /// Every `<loc>` of a sitemap file, in order.
    static func locations(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func aSitemapPastTheLimitIsAnIndexOfPartsThatHoldEveryURLOnce() {
        // 7 albums on index pages of 3: 3 index pages and 7 album pages, 10 URLs.
        let plan = SitePlan(catalogue: SiteRendererTests.catalogue((1...7).map { "T\($0)" }), carousel: .init(indexPageSize: 3))
        let base = "https://example.org/sub/"
        let whole = Self.locations(Sitemap.render(plan: plan, baseURL: base))
        #expect(whole.count == 10)
        #expect(Sitemap.partPaths(plan: plan).isEmpty)
        #expect(Sitemap.partPaths(plan: plan, limit: 10).isEmpty)

        let parts = Sitemap.partPaths(plan: plan, limit: 4)
        #expect(parts == ["sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml"])
        let index = Sitemap.render(plan: plan, baseURL: base, limit: 4)
        #expect(String(decoding: index, as: UTF8.self).contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"))
        #expect(Self.locations(index) == parts.map { base + $0 })
        #expect(XMLStreamCheck.parsesCleanly(index))
        let held = parts.indices.map { Self.locations(Sitemap.renderPart($0, plan: plan, baseURL: base, limit: 4)) }
        #expect(held.map(\.count) == [4, 4, 2])
        #expect(held.flatMap { $0 } == whole)
        #expect(parts.indices.allSatisfy { XMLStreamCheck.parsesCleanly(Sitemap.renderPart($0, plan: plan, baseURL: base, limit: 4)) })
    }
}
