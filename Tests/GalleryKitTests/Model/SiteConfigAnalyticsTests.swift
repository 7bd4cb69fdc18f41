import Foundation
import Testing

@testable import GalleryKit

/// `[analytics]`: each provider's settings, read from `gallery.toml` and turned into the scripts
/// its service documents; every mistake named with its line.
@Suite struct SiteConfigAnalyticsTests {
    func analytics(_ toml: String) throws -> (SiteConfig.Analytics, [String]) {
        let (config, warnings) = try SiteConfig.parse(toml: toml, path: "gallery.toml")
        return (config.analytics, warnings.map(\.description))
    }

    /// The messages of a `gallery.toml` that does not load.
    func errors(_ toml: String) -> [String] {
        SiteConfig.errors(toml: toml)
    }

    func scripts(_ analytics: SiteConfig.Analytics, baseURL: String = "/") -> [AnalyticsScript] {
        analytics.provider?.scripts(baseURL: baseURL) ?? []
    }

    @Test func noSectionAndAnEmptyOneMeanNone() throws {
        #expect(try analytics("title = \"x\"\n") == (.none, []))
        #expect(try analytics("[analytics]\n") == (.none, []))
        #expect(SiteConfig().analytics == .none)
    }

    @Test func plausibleLoadsItsScriptWithTheDomain() throws {
        let (hosted, warnings) = try analytics("[analytics]\nprovider = \"plausible\"\ndomain = \"albums.example.org\"\n")
        #expect(warnings.isEmpty)
        #expect(hosted == .plausible(PlausibleAnalytics(domain: "albums.example.org")))
        #expect(scripts(hosted) == [AnalyticsScript(attributes: [
            .init("defer", "defer"), .init("data-domain", "albums.example.org"), .init("src", "https://plausible.io/js/script.js"),
        ])])
        let (selfHosted, _) = try analytics("""
        [analytics]
        provider = "plausible"
        domain = "a.example.org, b.example.org"
        script = "https://stats.example.org/js/script.js"
        """)
        #expect(scripts(selfHosted).first?.attributes.map(\.value) == ["defer", "a.example.org,b.example.org", "https://stats.example.org/js/script.js"])
    }

    /// Without `domain`, Plausible is told the host of an absolute `base_url`; a relative one
    /// leaves nothing to tell it, which the build reports once `--base-url` had its say.
    @Test func plausibleWithoutADomainUsesTheBaseURLsHost() throws {
        let (plausible, _) = try analytics("base_url = \"https://Albums.Example.org:8443/shop/\"\n[analytics]\nprovider = \"plausible\"\n")
        #expect(scripts(plausible, baseURL: "https://Albums.Example.org:8443/shop/").first?.attributes[1] == .init("data-domain", "albums.example.org"))
        #expect(plausible.problem(baseURL: "https://albums.example.org/") == nil)
        #expect(plausible.problem(baseURL: "/")?.hasPrefix("[analytics] plausible needs the site's domain: set domain = ") == true)
        #expect(SiteConfig.Analytics.plausible(PlausibleAnalytics(domain: "x.org")).problem(baseURL: "/") == nil)
        let hosts = [
            "https://user:secret@Example.org:8443/a/": "example.org", "http://[::1]:8080/": "[::1]",
            "https://example.org?x=1": "example.org", "https://:80/": nil, "/albums/": nil, "example.org": nil,
        ]
        for (url, host) in hosts {
            #expect(PlausibleAnalytics.host(of: url) == host, "\(url)")
        }
    }

    @Test func goatCounterReportsToTheCodesEndpointOrAnother() throws {
        let (hosted, warnings) = try analytics("[analytics]\nprovider = \"goatcounter\"\ncode = \"my-albums\"\n")
        #expect(warnings.isEmpty)
        #expect(scripts(hosted) == [AnalyticsScript(attributes: [
            .init("data-goatcounter", "https://my-albums.goatcounter.com/count"), .init("async", "async"), .init("src", "https://gc.zgo.at/count.js"),
        ])])
        let (selfHosted, _) = try analytics("""
        [analytics]
        provider = "goatcounter"
        endpoint = "https://stats.example.org/count"
        script = "https://stats.example.org/count.js"
        """)
        #expect(selfHosted == .goatCounter(GoatCounterAnalytics(endpoint: "https://stats.example.org/count", script: "https://stats.example.org/count.js")))
    }

    /// Google's tag and its configuration snippet, as Google gives them; the inline code reads
    /// the same as XML and as HTML (no `<` or `&`).
    @Test func googleLoadsItsTagAndConfiguresTheMeasurementID() throws {
        let (google, warnings) = try analytics("[analytics]\nprovider = \"google\"\nid = \"G-ABC123XYZ9\"\n")
        #expect(warnings.isEmpty)
        let tags = scripts(google)
        #expect(tags.count == 2)
        #expect(tags.first?.attributes == [.init("async", "async"), .init("src", "https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9")])
        let code = try #require(tags.last?.code)
        #expect(code.hasSuffix("gtag('config', 'G-ABC123XYZ9');"))
        #expect(!code.contains("<") && !code.contains("&"))
        #expect(GoogleAnalytics.isMeasurementID("G-ABC123XYZ9"))
        for id in ["UA-1234-1", "G-", "G-abc", "G-AB');alert(1);('", "GTM-ABC"] {
            #expect(!GoogleAnalytics.isMeasurementID(id), "\(id)")
        }
    }

    @Test func mistakesAreErrorsOnTheirLine() {
        let cases: [(String, String)] = [
            ("provider = \"matomo\"", "gallery.toml:2:1: error: [analytics] provider \"matomo\" is not one gallery knows; use \"plausible\", \"goatcounter\" or \"google\""),
            ("domain = \"x.org\"", "gallery.toml:1:1: error: [analytics] needs provider = \"plausible\", \"goatcounter\" or \"google\""),
            ("provider = \"google\"", "gallery.toml:2:1: error: [analytics] google needs id = \"G-…\", the data stream's measurement ID"),
            ("provider = \"google\"\nid = \"UA-1234-1\"", "gallery.toml:3:1: error: [analytics] id \"UA-1234-1\" is not a Google Analytics 4 measurement ID; copy the one that starts with G- from the data stream's details"),
            ("provider = \"goatcounter\"", "gallery.toml:2:1: error: [analytics] goatcounter needs code = \"yoursite\" (for yoursite.goatcounter.com) or endpoint = \"https://…/count\""),
            ("provider = \"goatcounter\"\ncode = \"My Site\"", "gallery.toml:3:1: error: [analytics] code \"My Site\" is not a GoatCounter site code; it is the lowercase name before .goatcounter.com"),
            ("provider = \"goatcounter\"\ncode = \"a\"\nendpoint = \"https://x.org/count\"", "gallery.toml:4:1: error: [analytics] goatcounter takes code (the hosted service) or endpoint (a self-hosted one), not both"),
            ("provider = \"goatcounter\"\nendpoint = \"/count\"", "gallery.toml:3:1: error: [analytics] endpoint must be an absolute https:// (or http://) URL, not \"/count\""),
            ("provider = \"plausible\"\nscript = \"javascript:alert(1)\"", "gallery.toml:3:1: error: [analytics] script must be an absolute https:// (or http://) URL, not \"javascript:alert(1)\""),
            ("provider = \"plausible\"\nscript = \"https://\"", "gallery.toml:3:1: error: [analytics] script must be an absolute https:// (or http://) URL, not \"https://\""),
            ("provider = \"plausible\"\ndomain = \"x.org\\\"><script>\"", "gallery.toml:3:1: error: [analytics] domain \"x.org\"><script>\" is not a domain name; write it as Plausible shows it, such as \"albums.example.org\""),
            ("provider = 3", "gallery.toml:2:1: error: [analytics] provider must be a string in quotes"),
        ]
        for (section, message) in cases {
            #expect(errors("[analytics]\n" + section + "\n") == [message], "\(section)")
        }
        #expect(errors("analytics = \"plausible\"\n") == ["gallery.toml:1:1: error: analytics must be a section, [analytics]"])
    }

    /// A setting of another provider is ignored with a warning, as an unknown key is.
    @Test func anotherProvidersSettingWarns() throws {
        let (goatCounter, warnings) = try analytics("[analytics]\nprovider = \"goatcounter\"\ncode = \"albums\"\nid = \"G-ABC\"\n")
        #expect(goatCounter == .goatCounter(GoatCounterAnalytics(endpoint: "https://albums.goatcounter.com/count")))
        #expect(warnings == ["gallery.toml:4:1: warning: [analytics] id is not a goatcounter setting and is ignored; goatcounter takes code, endpoint and script"])
    }

    /// The build warns when an override of `base` drops the partial that writes the scripts.
    @Test func templatesTellWhetherPagesIncludeAPartial() throws {
        let builtin = try TemplateSet.load(overridesIn: nil)
        #expect(builtin.pagesInclude("partials/analytics"))
        #expect(builtin.pagesInclude("partials/tile"))
        #expect(!builtin.pagesInclude("partials/nothing"))
        var sources = builtin.sources
        let base = try #require(sources["base"]?.text)
        sources["base"]?.text = base.replacingOccurrences(of: "{{>partials/analytics}}", with: "")
        #expect(try !TemplateSet(sources: sources).pagesInclude("partials/analytics"))
        // Included from inside a block override of a page template counts.
        sources["404"]?.text = "{{<base}}{{$head}}{{>partials/analytics}}{{/head}}{{/base}}"
        #expect(try TemplateSet(sources: sources).pagesInclude("partials/analytics"))
    }
}
