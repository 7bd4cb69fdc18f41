/// [GoatCounter](https://www.goatcounter.com): an open-source counter without cookies, hosted
/// (`code.goatcounter.com`) or self-hosted. The page loads `count.js`, which reports to the
/// endpoint named in `data-goatcounter`.
public struct GoatCounterAnalytics: AnalyticsProvider, Hashable {
    public static let name = "goatcounter"
    /// GoatCounter's own copy of `count.js`.
    public static let hostedScript = "https://gc.zgo.at/count.js"

    /// Where visits are reported: `https://CODE.goatcounter.com/count`, or a self-hosted one.
    public var endpoint: String
    /// The script's URL.
    public var script: String

    /// The hosted service's endpoint for a site code.
    public static func endpoint(code: String) -> String {
        "https://\(code).goatcounter.com/count"
    }

    /// Creates the provider.
    public init(endpoint: String, script: String = Self.hostedScript) {
        self.endpoint = endpoint
        self.script = script
    }

    public func scripts(baseURL: String) -> [AnalyticsScript] {
        [AnalyticsScript(attributes: [
            .init("data-goatcounter", endpoint),
            .init("async", "async"),
            .init("src", script),
        ])]
    }
}
