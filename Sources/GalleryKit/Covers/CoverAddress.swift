import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which network addresses a cover may be fetched from: a cover URL comes from an archive that
/// suppliers may fill, and a build in CI runs beside services that trust the machine it runs on.
///
/// Link-local addresses (`169.254.0.0/16`, `fe80::/10`, where clouds serve a machine its
/// credentials) and unspecified ones (`0.0.0.0`, `::`) are never fetched. With `[covers]
/// private_hosts = "refuse"`, neither are loopback and private networks (`127.0.0.0/8`, `10/8`,
/// `172.16/12`, `192.168/16`, `100.64/10`, `::1`, `fc00::/7`). A host name is resolved first
/// and refused when any of its addresses is; so is each redirect's target.
public enum PrivateHosts: String, Sendable, Hashable, CaseIterable {
    /// Loopback and private networks are fetched from (a shop's own image server, a local test).
    case allow
    /// They are refused, as link-local addresses always are: for archives others fill.
    case refuse
}

/// The kind of address a cover's host has, as ``PrivateHosts`` judges it.
enum CoverAddress: Equatable, Sendable {
    case linkLocal
    case unspecified
    case loopback
    case privateNetwork
    case publicAddress

    /// What a refusal says the address is.
    var words: String {
        switch self {
        case .linkLocal: "link-local (where cloud machines are served their credentials), which is never fetched"
        case .unspecified: "unspecified (this machine), which is never fetched"
        case .loopback: "this machine's loopback, which [covers] private_hosts = \"refuse\" keeps from fetching"
        case .privateNetwork: "on a private network, which [covers] private_hosts = \"refuse\" keeps from fetching"
        case .publicAddress: "public"
        }
    }

    /// Whether a cover may come from an address of this kind.
    func isAllowed(_ rule: PrivateHosts) -> Bool {
        switch self {
        case .publicAddress: true
        case .linkLocal, .unspecified: false
        case .loopback, .privateNetwork: rule == .allow
        }
    }

    /// The kind of a numeric address (`169.254.169.254`, `::ffff:10.0.0.1`); `nil` for a name.
    init?(numeric text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = Self.classify(v4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self = Self.classify(v6: withUnsafeBytes(of: v6) { Array($0) })
    }

    static func classify(v4 address: UInt32) -> CoverAddress {
        let a = address >> 24, b = (address >> 16) & 0xFF
        switch (a, b) {
        case (0, _): return .unspecified
        case (169, 254): return .linkLocal
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): return .privateNetwork
        default: return .publicAddress
        }
    }

    static func classify(v6 bytes: [UInt8]) -> CoverAddress {
        if bytes.allSatisfy({ $0 == 0 }) { return .unspecified }
        if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] == 1 { return .loopback }
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses are their IPv4's.
        if bytes[0..<10].allSatisfy({ $0 == 0 }), (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0) {
            return classify(v4: bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
        }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes[0] & 0xFE == 0xFC { return .privateNetwork }
        return .publicAddress
    }

    /// Why a cover may not be fetched from `url`'s host under `rule`, or `nil` when it may: the
    /// first of its addresses that is refused. A name that does not resolve is left to the
    /// download, which says so in its own words.
    static func refusal(for url: URL, rule: PrivateHosts) -> String? {
        guard var host = url.host(percentEncoded: false), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let kind = CoverAddress(numeric: host) {
            return kind.isAllowed(rule) ? nil : "its address \(host) is \(kind.words)"
        }
        for address in resolve(host) {
            guard let kind = CoverAddress(numeric: address), !kind.isAllowed(rule) else { continue }
            return "\(host) has the address \(address), which is \(kind.words)"
        }
        return nil
    }

    /// ``refusal(for:rule:)``, resolving a name on a thread of its own: resolving blocks, and
    /// the cooperative pool has a thread a core. A numeric address needs no resolving.
    static func refusalResolvingElsewhere(for url: URL, rule: PrivateHosts) async -> String? {
        if let host = url.host(percentEncoded: false), CoverAddress(numeric: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) != nil {
            return refusal(for: url, rule: rule)
        }
        // A thread, not `.global()`: on Linux the build's tasks run on that queue's threads, and
        // a lookup would wait there behind them. Each host is looked up once a build.
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: refusal(for: url, rule: rule)) }.start()
        }
    }

    /// The numeric addresses a host name resolves to (none when it does not).
    private static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
