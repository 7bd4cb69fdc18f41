/// [Google Analytics 4](https://developers.google.com/tag-platform/gtagjs/install), through
/// Google's tag (`gtag.js`) and the configuration snippet Google gives for it.
public struct GoogleAnalytics: AnalyticsProvider, Hashable {
    public static let name = "google"

    /// The measurement ID, `G-` and then capital letters and digits (checked when
    /// `gallery.toml` is read, as it is written into inline code).
    public var measurementID: String

    /// Creates the provider.
    public init(measurementID: String) {
        self.measurementID = measurementID
    }

    /// Whether `id` is a GA4 measurement ID.
    public static func isMeasurementID(_ id: String) -> Bool {
        let rest = id.unicodeScalars.dropFirst(2)
        return id.hasPrefix("G-") && !rest.isEmpty && rest.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    public func scripts(baseURL: String) -> [AnalyticsScript] {
        [
            AnalyticsScript(attributes: [
                .init("async", "async"),
                .init("src", "https://www.googletagmanager.com/gtag/js?id=\(measurementID)"),
            ]),
            AnalyticsScript(
                attributes: [],
                code: "window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', '\(measurementID)');"
            ),
        ]
    }
}
