import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The address `gallery serve` listens on, as `--host` gives it: checked and resolved before
/// anything is built, so a typo fails in a moment with one line that says what to do.
public struct ListenAddress: Sendable, Hashable {
    /// The host to bind, without brackets (`::1` for `[::1]`).
    public let host: String
    /// The address it resolves to (`127.0.0.1`, `::1`, `0.0.0.0`…).
    public let address: String

    /// Resolves `--host`: an IPv4 or IPv6 address (bracketed or not) or a host name.
    public init(_ text: String) throws(ListenError) {
        var host = text
        if host.hasPrefix("["), host.hasSuffix("]"), host.count > 2 {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.isEmpty, let resolved = try? SocketAddress.makeAddressResolvingHost(host, port: 0), let address = resolved.ipAddress else {
            throw ListenError(host: text, port: 0, reason: .unknownHost)
        }
        self.host = host
        self.address = address
    }

    /// Whether only this machine can connect (`127.0.0.0/8`, `::1`).
    public var isLoopback: Bool {
        address.hasPrefix("127.") || address == "::1"
    }

    /// Whether it listens on every interface (`0.0.0.0`, `::`).
    public var isEverywhere: Bool {
        address == "0.0.0.0" || address == "::"
    }

    /// The host to write in the site's URL: `localhost` for every interface (a browser cannot
    /// open `http://0.0.0.0/` everywhere), IPv6 addresses in brackets.
    public var urlHost: String {
        if isEverywhere { return "localhost" }
        return host.contains(":") ? "[\(host)]" : host
    }

    /// The error a failed bind on `port` is to the user, in the words of ``ListenError``.
    public func error(binding port: Int, _ error: any Error) -> ListenError {
        guard let code = (error as? IOError)?.errnoCode else {
            return ListenError(host: host, port: port, reason: .other(String(describing: error)))
        }
        switch code {
        case EADDRINUSE: return ListenError(host: host, port: port, reason: .portInUse)
        case EADDRNOTAVAIL: return ListenError(host: host, port: port, reason: .notThisMachine)
        case EACCES, EPERM: return ListenError(host: host, port: port, reason: .privilegedPort)
        default: return ListenError(host: host, port: port, reason: .other(String(cString: strerror(code))))
        }
    }
}
