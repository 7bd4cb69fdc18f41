import TOMLKit

extension SiteConfig {
    /// `[analytics]`: the analytics service published pages report visits to; none by default.
    public enum Analytics: Sendable, Hashable {
        /// No analytics: pages load no counting script.
        case none
        /// Plausible.
        case plausible(PlausibleAnalytics)
        /// GoatCounter.
        case goatCounter(GoatCounterAnalytics)
        /// Google Analytics 4.
        case google(GoogleAnalytics)

        /// The names `provider` accepts, in the order messages list them.
        public static let providerNames = [PlausibleAnalytics.name, GoatCounterAnalytics.name, GoogleAnalytics.name]

        /// The names as messages offer them: `"plausible", "goatcounter" or "google"`.
        static var providerChoices: String {
            let quoted = providerNames.map { "\"\($0)\"" }
            return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
        }

        /// The chosen provider behind its adapter; `nil` for none.
        public var provider: (any AnalyticsProvider)? {
            switch self {
            case .none: nil
            case .plausible(let provider): provider
            case .goatCounter(let provider): provider
            case .google(let provider): provider
            }
        }

        /// What is wrong with these settings for a site published at `baseURL`, once every
        /// override is known (`--base-url` comes after `gallery.toml`); `nil` when nothing is.
        public func problem(baseURL: String) -> String? {
            guard case .plausible(let plausible) = self, plausible.domain == nil,
                  PlausibleAnalytics.host(of: baseURL) == nil
            else { return nil }
            return "[analytics] plausible needs the site's domain: set domain = \"example.org\" (as registered with Plausible), or an absolute base_url"
        }

        /// ``problem(baseURL:)`` as an error on the `provider` line of `gallery.toml` (its bytes,
        /// shown as `path`).
        public func problemDiagnostic(baseURL: String, toml bytes: [UInt8]?, path: String) -> Diagnostic? {
            problem(baseURL: baseURL).map { message in
                let reader = TOMLReader(text: bytes.map { String(decoding: $0, as: UTF8.self) } ?? "", path: path)
                return .error(message, path: path, at: reader.position(of: "provider", in: "analytics"))
            }
        }
    }
}

extension TOMLReader {
    /// Reads `[analytics]`: `provider`, then the settings that provider takes. A setting another
    /// provider takes gets a warning, as an unknown key does.
    mutating func readAnalytics(_ section: TOMLTable) -> SiteConfig.Analytics {
        let name = "analytics"
        var values: [String: String] = [:]
        read(section, section: name) { reader, key, value in
            guard ["provider", "domain", "script", "code", "endpoint", "id"].contains(key) else { return false }
            if let text = reader.string(value, key: key, section: name) { values[key] = text }
            return true
        }
        guard let provider = values["provider"] else {
            // An empty section chooses none; a provider that is not a string was reported.
            if values.isEmpty || section.contains(key: "provider") {
                return .none
            }
            error("[analytics] needs provider = \(SiteConfig.Analytics.providerChoices)", key: "provider", section: name)
            return .none
        }
        let takes: Set<String>
        var analytics = SiteConfig.Analytics.none
        switch provider {
        case PlausibleAnalytics.name:
            takes = ["domain", "script"]
            var plausible = PlausibleAnalytics()
            if let text = values["domain"] { plausible.domain = checkedDomain(text) }
            if let text = values["script"], let script = checkedURL(text, key: "script") { plausible.script = script }
            analytics = .plausible(plausible)
        case GoatCounterAnalytics.name:
            takes = ["code", "endpoint", "script"]
            var script = GoatCounterAnalytics.hostedScript
            if let text = values["script"], let checked = checkedURL(text, key: "script") { script = checked }
            switch (values["code"], values["endpoint"]) {
            case (let code?, nil):
                guard !code.isEmpty, code.unicodeScalars.allSatisfy(Self.isSiteCodeCharacter) else {
                    error("[analytics] code \"\(code)\" is not a GoatCounter site code; it is the lowercase name before .goatcounter.com", key: "code", section: name)
                    break
                }
                analytics = .goatCounter(GoatCounterAnalytics(endpoint: GoatCounterAnalytics.endpoint(code: code), script: script))
            case (nil, let endpoint?):
                if let endpoint = checkedURL(endpoint, key: "endpoint") {
                    analytics = .goatCounter(GoatCounterAnalytics(endpoint: endpoint, script: script))
                }
            case (_?, _?):
                error("[analytics] goatcounter takes code (the hosted service) or endpoint (a self-hosted one), not both", key: "endpoint", section: name)
            case (nil, nil):
                error("[analytics] goatcounter needs code = \"yoursite\" (for yoursite.goatcounter.com) or endpoint = \"https://…/count\"", key: "provider", section: name)
            }
        case GoogleAnalytics.name:
            takes = ["id"]
            if let id = values["id"] {
                if GoogleAnalytics.isMeasurementID(id) {
                    analytics = .google(GoogleAnalytics(measurementID: id))
                } else {
                    error("[analytics] id \"\(id)\" is not a Google Analytics 4 measurement ID; copy the one that starts with G- from the data stream's details", key: "id", section: name)
                }
            } else {
                error("[analytics] google needs id = \"G-…\", the data stream's measurement ID", key: "provider", section: name)
            }
        default:
            error("[analytics] provider \"\(provider)\" is not one gallery knows; use \(SiteConfig.Analytics.providerChoices)", key: "provider", section: name)
            return .none
        }
        for key in values.keys.sorted() where key != "provider" && !takes.contains(key) {
            diagnostics.append(.warning(
                "[analytics] \(key) is not a \(provider) setting and is ignored; \(provider) takes \(Self.list(takes.sorted()))",
                path: path, at: position(of: key, in: name)
            ))
        }
        return analytics
    }

    /// Names as a sentence lists them: "a", "a and b", "a, b and c".
    private static func list(_ names: [String]) -> String {
        names.count < 3 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    /// Whether a GoatCounter site code may hold the character: lowercase letters, digits, dashes.
    private static func isSiteCodeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }

    /// An absolute `https://` (or `http://`) URL, or an error naming the key.
    private mutating func checkedURL(_ text: String, key: String) -> String? {
        let lowered = text.lowercased()
        let hasHost = (lowered.hasPrefix("https://") || lowered.hasPrefix("http://")) && PlausibleAnalytics.host(of: lowered) != nil
        guard hasHost, !text.contains(where: { $0 == " " || $0 == "\"" || $0 == "<" || $0 == ">" || $0.isNewline }) else {
            error("[analytics] \(key) must be an absolute https:// (or http://) URL, not \"\(text)\"", key: key, section: "analytics")
            return nil
        }
        return text
    }

    /// One or more domain names separated by commas, as Plausible's `data-domain` takes them.
    private mutating func checkedDomain(_ text: String) -> String? {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        let valid = names.allSatisfy { name in
            !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        }
        guard valid else {
            error("[analytics] domain \"\(text)\" is not a domain name; write it as Plausible shows it, such as \"albums.example.org\"", key: "domain", section: "analytics")
            return nil
        }
        return names.joined(separator: ",")
    }
}
