/// An analytics service behind one interface, as the seed app hid a third-party SDK behind an
/// adapter: each provider turns its own settings into the scripts a published page loads to
/// count a visit, and nothing else in gallery knows which service it is.
///
/// Providers are chosen in `gallery.toml` (`[analytics] provider = "…"`, see
/// ``SiteConfig/Analytics``). Only `gallery build` output carries their scripts; `gallery serve`
/// leaves them out, so previews are never counted as visits.
public protocol AnalyticsProvider: Sendable {
    /// The provider's name as `gallery.toml` spells it.
    static var name: String { get }
    /// The `<script>` elements every published page carries in its `<head>`, in order.
    ///
    /// - Parameter baseURL: The site's base URL (``SiteConfig/baseURL``), for providers that
    ///   identify the site by its domain.
    func scripts(baseURL: String) -> [AnalyticsScript]
}

/// One `<script>` element of an analytics provider.
public struct AnalyticsScript: Sendable, Hashable {
    /// One attribute, as written (the template escapes the value).
    public struct Attribute: Sendable, Hashable {
        /// The attribute's name.
        public var name: String
        /// Its value; boolean attributes repeat their name (`async="async"`), as XHTML needs.
        public var value: String

        /// Creates an attribute.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The attributes in the order they are written.
    public var attributes: [Attribute]
    /// Inline code, or `nil` for a script that only loads `src`. It never holds `<` or `&`, so
    /// it reads the same as XML and as HTML without escaping or a CDATA section.
    public var code: String?

    /// Creates a script element.
    public init(attributes: [Attribute], code: String? = nil) {
        precondition(code.map { !$0.contains("<") && !$0.contains("&") } ?? true, "inline analytics code must not hold < or &")
        self.attributes = attributes
        self.code = code
    }
}
