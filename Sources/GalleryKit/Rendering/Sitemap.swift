/// `sitemap.xml` in the sitemaps.org format: the index pages and every album page.
///
/// The protocol allows 50,000 URLs in one file. A larger site (about 49,700 albums and up) gets
/// its URLs in parts, `sitemap-1.xml`, `sitemap-2.xml`…, 50,000 each, and `sitemap.xml` is their
/// index (a `<sitemapindex>`), so the address search engines are given stays the same. A single
/// file of 100,000 URLs was cut short or refused.
public enum Sitemap {
    /// The most URLs one sitemap file may list (sitemaps.org).
    public static let maximumURLs = 50_000

    /// The paths of the parts for a site plan, none when one file holds every URL; `limit` is
    /// ``maximumURLs`` but in tests.
    public static func partPaths(plan: SitePlan, limit: Int = maximumURLs) -> [String] {
        let count = urlCount(plan)
        guard count > limit else { return [] }
        return (0..<(count + limit - 1) / limit).map(partPath)
    }

    /// The path of part `k` (from 0): `sitemap-1.xml`…
    static func partPath(_ k: Int) -> String { "sitemap-\(k + 1).xml" }

    /// The number of URLs the sitemap lists: every page but 404.html.
    static func urlCount(_ plan: SitePlan) -> Int {
        plan.indexPageCount + plan.catalogue.count
    }

    /// Renders `sitemap.xml`: every URL, or, past `limit`, the index of the parts. Locations are
    /// the base URL followed by each page's URL; with the default base URL `/` they are
    /// root-relative, as Hugo writes them.
    public static func render(plan: SitePlan, baseURL: String, limit: Int = maximumURLs) -> [UInt8] {
        let parts = partPaths(plan: plan, limit: limit)
        guard !parts.isEmpty else { return urlset(plan: plan, baseURL: baseURL, range: 0..<urlCount(plan)) }
        var xml = ByteWriter(capacity: 128 + parts.count * (baseURL.utf8.count + 48))
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for part in parts {
            xml.write("<sitemap><loc>")
            xml.writeXML(baseURL)
            xml.writeXML(part)
            xml.write("</loc></sitemap>\n")
        }
        xml.write("</sitemapindex>\n")
        return xml.bytes
    }

    /// Renders part `k` of a sitemap split at `limit` URLs.
    public static func renderPart(_ k: Int, plan: SitePlan, baseURL: String, limit: Int = maximumURLs) -> [UInt8] {
        let start = k * limit
        return urlset(plan: plan, baseURL: baseURL, range: start..<min(start + limit, urlCount(plan)))
    }

    /// A `<urlset>` of the URLs at `range` in page order (index pages, then album pages).
    private static func urlset(plan: SitePlan, baseURL: String, range: Range<Int>) -> [UInt8] {
        var xml = ByteWriter(capacity: 128 + range.count * (baseURL.utf8.count + 64))
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        // The pages are the index pages, the album pages, then 404.html, which is left out.
        for page in plan.pages[range] {
            xml.write("<url><loc>")
            xml.writeXML(baseURL)
            xml.writeXML(plan.url(of: page))
            xml.write("</loc></url>\n")
        }
        xml.write("</urlset>\n")
        return xml.bytes
    }
}
