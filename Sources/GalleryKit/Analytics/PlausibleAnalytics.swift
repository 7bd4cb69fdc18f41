import Foundation

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

    /// The host of an absolute `http(s)://` URL, lowercased, without user or port (an IPv6
    /// literal in brackets); `nil` for a relative one.
    static func host(of url: String) -> String? {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased()),
              let host = parsed.host(percentEncoded: false), !host.isEmpty
        else { return nil }
        return host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
    }
}
