import Foundation

/// How the cover fetcher treats remote servers: how many downloads at once, how long to wait,
/// how far to follow redirects, how much to accept and when to try again.
///
/// The defaults suit a build on a laptop or in CI. Tests shrink the timeouts and delays so that
/// faults show up in milliseconds.
public struct CoverFetchPolicy: Sendable, Hashable {
    /// The most downloads running at once, across all hosts.
    public var concurrency = 8
    /// The most downloads running at once from one host (a host's name, whatever its port).
    public var perHost = 4
    /// How long to wait for a connection to be established.
    public var connectTimeout: Duration = .seconds(10)
    /// How long a response may stay silent (no header or body bytes) before the attempt fails.
    public var readTimeout: Duration = .seconds(30)
    /// How long one attempt may take in all: connecting, redirects, headers and the whole body.
    /// Retries get a fresh allowance.
    public var totalTimeout: Duration = .seconds(60)
    /// The most redirects followed for one cover; only to `http:` or `https:` URLs.
    public var maxRedirects = 5
    /// The largest body accepted, in bytes (20 MB). A larger announced `Content-Length` fails at
    /// once; a body that grows past the limit fails as soon as it does.
    public var maxBodyBytes = 20_000_000
    /// How many times a failed attempt is tried again (so `retries + 1` attempts at most), for
    /// timeouts, connection errors, HTTP 429 and HTTP 5xx only.
    public var retries = 3
    /// The first back-off delay's ceiling; each retry doubles it (exponential back-off).
    public var backoffBase: Duration = .milliseconds(500)
    /// The largest delay between attempts, also the ceiling for a server's `Retry-After`.
    public var backoffCap: Duration = .seconds(10)
    /// The most often a download reports its progress.
    public var progressInterval: Duration = .milliseconds(200)
    /// Whether covers may come from loopback and private networks (link-local addresses never
    /// may; see ``PrivateHosts``).
    public var privateHosts = PrivateHosts.allow
    /// The `User-Agent` header: who is asking, and where to find out more.
    public var userAgent = "gallery/\(GalleryVersion.current) (+https://github.com/gallery-ssg/gallery)"

    /// The default policy.
    public init() {}

    /// How long to wait before retry number `retry` (from 0): a random delay between zero and
    /// `min(backoffCap, backoffBase · 2^retry)` ("full jitter"), or the server's `Retry-After`
    /// when it sent one, capped at ``backoffCap``.
    public func delay(beforeRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter {
            return min(max(retryAfter, .zero), backoffCap)
        }
        let ceiling = min(backoffCap.seconds, backoffBase.seconds * Double(1 << min(max(retry, 0), 30)))
        guard ceiling > 0 else { return .zero }
        return .seconds(Double.random(in: 0...ceiling))
    }

    /// The policy with every count at least 1 (0 for retries and redirects) and every duration
    /// positive, so a bad setting cannot stall or break the fetcher.
    var sanitised: CoverFetchPolicy {
        var policy = self
        policy.concurrency = max(1, concurrency)
        policy.perHost = max(1, min(perHost, policy.concurrency))
        policy.maxRedirects = max(0, maxRedirects)
        policy.maxBodyBytes = max(1, maxBodyBytes)
        policy.retries = max(0, retries)
        let smallest = Duration.milliseconds(1)
        policy.connectTimeout = max(smallest, connectTimeout)
        policy.readTimeout = max(smallest, readTimeout)
        policy.totalTimeout = max(smallest, totalTimeout)
        policy.backoffBase = max(.zero, backoffBase)
        policy.backoffCap = max(.zero, backoffCap)
        return policy
    }
}

extension Duration {
    /// A long wait as people say it: `45 s`, `20 min`, `3 h`, `9 days`, `more than a year`.
    var roughly: String {
        let value = seconds
        if value < 120 { return spoken }
        if value < 3600 { return "\(Int((value / 60).rounded())) min" }
        if value < 48 * 3600 { return "\(Int((value / 3600).rounded())) h" }
        if value < 366 * 86400 { return "\(Int((value / 86400).rounded())) days" }
        return "more than a year"
    }

    /// The duration as people read it in messages: `30 s`, `0.25 s`.
    var spoken: String {
        let value = seconds
        if value == value.rounded() { return "\(Int(value)) s" }
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text + " s"
    }
}
