/// [Plausible](https://plausible.io): a cookie-free counter, hosted or self-hosted. The page
/// loads its script with the site's domain as Plausible knows it (`data-domain`).
public struct PlausibleAnalytics: AnalyticsProvider, Hashable {
    public static let name = "plausible"
    /// The script of Plausible's hosted service.
    public static let hostedScript = "https://plausible.io/js/script.js"

    /// The site's domain as registered with Plausible (several separated by commas), or `nil`
    /// for the host of the site's absolute `base_url`.
    public var domain: String?
    /// The script's URL: Plausible's own, or a self-hosted instance's.
    public var script: String

    /// Creates the provider.
    public init(domain: String? = nil, script: String = Self.hostedScript) {
        self.domain = domain
        self.script = script
    }

    public func scripts(baseURL: String) -> [AnalyticsScript] {
        [AnalyticsScript(attributes: [
            .init("defer", "defer"),
            .init("data-domain", domain ?? Self.host(of: baseURL) ?? ""),
            .init("src", script),
        ])]
    }

    /// The host of an absolute `http(s)://` URL, without user or port (an IPv6 literal keeps
    /// its brackets); `nil` for a relative one.
    static func host(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://"), url.hasPrefix("http") else { return nil }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        let host = hostAndPort.hasPrefix("[")
            ? hostAndPort.prefix { $0 != "]" } + (hostAndPort.contains("]") ? "]" : "")
            : hostAndPort.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }
}
