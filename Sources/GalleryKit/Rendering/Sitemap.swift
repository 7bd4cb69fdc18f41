/// `sitemap.xml` in the sitemaps.org format: the index pages and every album page.
public enum Sitemap {
    /// Renders the sitemap. Locations are the base URL followed by each page's URL; with the
    /// default base URL `/` they are root-relative, as Hugo writes them.
    public static func render(plan: SitePlan, baseURL: String) -> [UInt8] {
        var xml = ByteWriter(capacity: 128 + plan.catalogue.count * (baseURL.utf8.count + 64))
        xml.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n")
        for page in plan.pages where page != .notFound {
            xml.write("<url><loc>")
            xml.writeXML(baseURL)
            xml.writeXML(plan.url(of: page))
            xml.write("</loc></url>\n")
        }
        xml.write("</urlset>\n")
        return xml.bytes
    }
}
