import Foundation

/// Which requests a preview on this machine's loopback answers: those that name it by a
/// loopback host (`localhost`, `127.0.0.1`, `[::1]`), from its own pages.
///
/// A web page elsewhere can make the browser send requests to `127.0.0.1:1313`, and, by DNS
/// rebinding (a name of its own that resolves to 127.0.0.1), read the answers: the unreleased
/// catalogue, and the build's errors from the live-reload socket. Such a request carries that
/// name in `Host`, and a socket opened from that page its own address in `Origin`. A server
/// that `--host` exposes on purpose answers any host name (it is reached by the machine's).
public struct RequestOrigin: Sendable {
    /// Whether only loopback host names are answered.
    public let loopbackOnly: Bool

    /// The rule for a server listening on `address`.
    public init(listeningOn address: ListenAddress) {
        loopbackOnly = address.isLoopback
    }

    /// The rule by itself (for tests).
    public init(loopbackOnly: Bool) {
        self.loopbackOnly = loopbackOnly
    }

    /// Whether a request whose `Host` (or HTTP/2 authority) is `host` is answered; a request
    /// without one (HTTP/1.0) is.
    public func allows(host: String?) -> Bool {
        guard loopbackOnly, let host else { return true }
        return Self.isLoopback(Self.name(ofAuthority: host))
    }

    /// Whether a WebSocket whose page is at `origin` may open, for a request to `host`: a page
    /// of this server, or a request with no `Origin` (not from a browser's page).
    public func allowsSocket(origin: String?, host: String?) -> Bool {
        guard allows(host: host) else { return false }
        guard let origin else { return true }
        guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), let host else { return false }
        let originAuthority = (url.host(percentEncoded: false).map { $0.contains(":") ? "[\($0)]" : $0 } ?? "") + (url.port.map { ":\($0)" } ?? "")
        return originAuthority.lowercased() == host.lowercased()
    }

    /// What a refused request is told.
    public static func refusal(host: String) -> String {
        "This preview answers only to localhost: this request named '\(host)'. Open the address gallery serve printed; if another machine should see the preview, start it with --host.\n"
    }

    /// The host name of an authority (`localhost:1313` gives `localhost`, `[::1]:1313` `::1`).
    static func name(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        return String(authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// `localhost` (and names under it), `127.0.0.0/8` and `::1`.
    static func isLoopback(_ name: String) -> Bool {
        let name = name.lowercased().hasSuffix(".") ? String(name.lowercased().dropLast()) : name.lowercased()
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
