import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why one download attempt failed, whether trying again may help, and how to say it.
enum CoverDownloadError: Error, Sendable, Hashable {
    /// The server answered with a status that is neither success nor redirect.
    case status(Int, retryAfter: Duration?)
    /// No connection within the connect timeout.
    case connectTimeout(Duration)
    /// The server sent nothing for the read timeout.
    case readTimeout(Duration)
    /// The attempt as a whole took longer than the total timeout.
    case totalTimeout(Duration)
    /// The connection ended before the body did.
    case closed(received: Int, expected: Int?)
    /// The connection could not be made or broke (refused, reset, unknown host), in words.
    case connection(String)
    /// The server's answer is not HTTP (a port of another service, a broken server), in words.
    case malformed(String)
    /// The TLS handshake failed: what happened, and what to do. Trying again does not help.
    case tls(String, advice: String)
    /// AsyncHTTPClient refused to make the request of this URL (a control character in its host
    /// cannot go in a `Host` header): its words. Trying again does not help.
    case invalidRequest(String)
    /// The body is larger than the limit; `announced` is the Content-Length if that said so.
    case tooLarge(limit: Int, announced: Int?)
    /// The body does not start like a JPEG, PNG, WebP, GIF or SVG image.
    case notAnImage(head: [UInt8])
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect led back to an address already visited.
    case redirectLoop(String)
    /// A redirect to something other than `http:` or `https:`.
    case redirectScheme(String)
    /// A redirect without a usable `Location`.
    case redirectWithoutTarget(status: Int, location: String?)
    /// The address names a port outside 1…65535: a redirect's (`redirect`, the target), as a
    /// `cover_url` is refused before any download.
    case badPort(Int, redirect: String?)
    /// The host's address is one covers are not fetched from (see ``PrivateHosts``): why.
    case forbiddenAddress(String)
    /// Not tried: this many of the host's covers in a row timed out in this build.
    case hostUnresponsive(host: String, covers: Int)
    /// `error`, met at `target`, where the cover's URL redirected (the last address asked).
    indirect case redirected(to: String, CoverDownloadError)
    /// The task was cancelled (the fetcher is shutting down).
    case cancelled
    /// An unwanted body (an error page's, a redirect's) was longer than worth reading; its
    /// connection is closed. Not a failure of the cover in itself.
    case drainLimitReached

    /// Whether another attempt may succeed: timeouts, connection errors, HTTP 429 and 5xx.
    var isRetryable: Bool {
        switch self {
        case .redirected(_, let error): error.isRetryable
        case .status(let code, _): code == 429 || (500...599).contains(code)
        case .connectTimeout, .readTimeout, .totalTimeout, .closed, .connection: true
        default: false
        }
    }

    /// Whether the host did not answer in time (to connect, with data, or in all).
    var isTimeout: Bool {
        switch self {
        case .redirected(_, let error): error.isTimeout
        case .connectTimeout, .readTimeout, .totalTimeout: true
        default: false
        }
    }

    /// The server's `Retry-After`, when it sent one with a 429 or 5xx.
    var retryAfter: Duration? {
        if case .redirected(_, let error) = self { return error.retryAfter }
        if case .status(_, let retryAfter) = self { return retryAfter }
        return nil
    }

    /// What happened, then what to do; `attempts` is mentioned when more than one was made.
    /// A host given up (``hostUnresponsive(host:covers:)``) after `earlier` failed a request of
    /// this cover's says what that request met, then why there was no other.
    func reason(attempts: Int, after earlier: CoverDownloadError? = nil) -> String {
        if case .hostUnresponsive(let host, let covers) = self, let earlier, attempts > 0 {
            let tries = attempts > 1 ? " (\(attempts) attempts)" : ""
            return earlier.cause + tries + "; then \(host) did not answer in time for \(covers) other covers in a row in this build, so it was not tried again; " + advice
        }
        let tries = attempts > 1 ? " (gave up after \(attempts) attempts)" : ""
        return cause + tries + "; " + advice
    }

    /// What happened, in words: `HTTP 404 Not Found`, `timed out after 30 s`, …
    var cause: String {
        switch self {
        case .status(let code, let retryAfter):
            let phrase = HTTPResponseStatus(statusCode: code).reasonPhrase
            let wait = retryAfter.flatMap { $0 > .zero ? " (the server asks to wait \($0.roughly))" : nil } ?? ""
            return "HTTP \(code)" + (phrase.isEmpty ? "" : " \(phrase)") + wait
        case .connectTimeout(let limit): return "could not connect within \(limit.spoken)"
        case .readTimeout(let limit): return "timed out after \(limit.spoken) without data"
        case .totalTimeout(let limit): return "timed out after \(limit.spoken) (the whole download)"
        case .closed(let received, let expected?):
            return "the server closed the connection after \(Self.count(received)) of \(Self.count(expected)) bytes"
        case .closed(let received, nil):
            return "the server closed the connection after \(Self.count(received)) bytes"
        case .connection(let words): return words
        case .malformed(let words): return "the server sent a response that is not valid HTTP (\(words))"
        case .tls(let words, _): return words
        case .invalidRequest(let words): return "this URL cannot be requested (\(words))"
        case .tooLarge(let limit, let announced?):
            return "larger than the \(Self.size(limit)) limit (Content-Length: \(Self.count(announced)) bytes)"
        case .tooLarge(let limit, nil): return "larger than the \(Self.size(limit)) limit"
        case .notAnImage(let head):
            return NotACover.identify(head).map(\.what) ?? "not an image (starts with \(Self.quote(head)))"
        case .tooManyRedirects(let limit): return "too many redirects (more than \(limit))"
        case .redirectLoop(let target): return "redirect loop (back to \(target))"
        case .redirectScheme(let scheme): return "redirect to a non-HTTP scheme (\(scheme):)"
        case .redirectWithoutTarget(let code, let location?):
            return "HTTP \(code) redirect to an invalid address ('\(location)')"
        case .redirectWithoutTarget(let code, nil): return "HTTP \(code) redirect without a Location header"
        case .badPort(let port, let target?): return "redirect to \(target), whose port \(port) does not exist (ports run from 1 to 65535)"
        case .badPort(let port, nil): return "port \(port) does not exist (ports run from 1 to 65535)"
        case .forbiddenAddress(let why): return "not fetched: \(why)"
        case .hostUnresponsive(let host, let covers): return "not tried: \(host) did not answer in time for \(covers) other covers in a row in this build, so its remaining covers are skipped until the next build"
        case .redirected(let target, let error): return "\(error.cause) (redirected to \(target))"
        case .cancelled, .drainLimitReached: return "cancelled"
        }
    }

    /// What the user can do about it.
    var advice: String {
        switch self {
        // Advice about the address written (its scheme, host or port) would be wrong for one the
        // server sent the build to.
        case .redirected(_, .tls), .redirected(_, .connection), .redirected(_, .malformed), .redirected(_, .connectTimeout):
            return "the server the URL redirects to cannot be reached as it says; point cover_url at an address of the image that works"
        case .redirected(_, let error): return error.advice
        case .status(let code, _) where code == 404 || code == 410:
            return "check the URL, or save the image under content/ and point cover_url at it"
        case .status(let code, _) where code == 401 || code == 403:
            return "the server refuses to share the image; save it under content/ and point cover_url at it"
        case .status(let code, _) where code == 429 || code >= 500:
            return "the server is busy or failing; try again later"
        case .status: return "check the URL"
        case .connectTimeout, .readTimeout, .totalTimeout, .closed:
            return "the server is slow or unreachable; try again later"
        case .connection: return "check the URL's host and port, and that the server is up"
        case .malformed: return "check that the URL's scheme and port are those of a web server"
        case .tls(_, let advice): return advice
        case .invalidRequest: return "check the URL for stray characters, such as a percent-encoded control character in the host"
        case .tooLarge: return "use a smaller image, or raise [covers] max_bytes in gallery.toml"
        case .notAnImage(let head) where head.isEmpty:
            // A local file's advice (copy it again) fits no URL.
            return "the server sent no bytes for it; check the URL in a browser, or try again later"
        case .notAnImage(let head):
            return NotACover.identify(head).map(\.advice) ?? "cover_url must lead to a JPEG, PNG, WebP, GIF or SVG file, not a web page"
        case .tooManyRedirects, .redirectLoop, .redirectWithoutTarget, .badPort:
            return "point cover_url at the image's final address"
        case .redirectScheme: return "only http and https are followed; point cover_url at an http(s) copy of the image"
        case .forbiddenAddress: return "point cover_url at a public copy of the image, or put the image in content/covers/"
        case .hostUnresponsive: return "check that the host is up, or raise [covers] timeout and read_timeout"
        case .cancelled, .drainLimitReached: return "the build was stopped"
        }
    }

    /// The error AsyncHTTPClient or SwiftNIO threw, in our terms. `received` and `expected`
    /// describe the body so far, for a connection that closed mid-body.
    init(_ error: any Error, policy: CoverFetchPolicy, received: Int = 0, expected: Int? = nil) {
        switch error {
        case let error as CoverDownloadError: self = error
        case is CancellationError: self = .cancelled
        case let error as HTTPClientError:
            switch error {
            case .readTimeout: self = .readTimeout(policy.readTimeout)
            // AsyncHTTPClient gives the TLS handshake what is left of the connect timeout: a
            // port that takes the connection and never answers it is a host that is not answering.
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout: self = .connectTimeout(policy.connectTimeout)
            case .deadlineExceeded: self = .totalTimeout(policy.totalTimeout)
            case .remoteConnectionClosed: self = .closed(received: received, expected: expected)
            case .cancelled: self = .cancelled
            default:
                // Faults of the request itself, the same on every attempt.
                let request: Set = ["Invalid URL", "Empty host", "Empty scheme", "Unsupported scheme", "Invalid header field names", "Invalid header field values"]
                self = request.contains(error.shortDescription) ? .invalidRequest(error.shortDescription.lowercased()) : .connection(error.shortDescription)
            }
        case let error as HTTPParserError:
            self = error == .invalidEOFState || error == .closedConnection ? .closed(received: received, expected: expected) : .malformed(Self.parserWords(error))
        case let error as NIOSSLError:
            self = Self.tls(error, received: received, expected: expected)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                self = .connection("cannot resolve the host name '\(error.host)'")
            } else if let first = error.connectionErrors.first {
                self = CoverDownloadError(first.error, policy: policy, received: received, expected: expected)
            } else {
                self = .connection("cannot connect to \(error.host):\(error.port)")
            }
        case let error as IOError:
            self = Self.systemError(error.errnoCode, received: received, expected: expected)
        case let error as ChannelError:
            switch error {
            case .connectTimeout: self = .connectTimeout(policy.connectTimeout)
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
                self = .closed(received: received, expected: expected)
            default: self = .connection("connection error (\(error))")
            }
        case is SocketAddressError:
            self = .connection("cannot resolve the host name")
        default:
            self = .connection("connection error (\(error))")
        }
    }

    /// The words of ``malformed(_:)`` for an answer whose first bytes are no HTTP status line.
    static let notAnHTTPStart = "it does not start like an HTTP response"

    /// Whether the answer's first bytes were no HTTP status line: a port of another service, or
    /// bytes that the answer before it on the same connection left there.
    var startsUnlikeHTTP: Bool { self == .malformed(Self.notAnHTTPStart) }

    /// llhttp's complaint in words: `too many header bytes seen; overflow detected`.
    private static func parserWords(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: "its headers are too large"
        case .invalidVersion, .invalidStatus, .invalidConstant: notAnHTTPStart
        default: "\(error)"
        }
    }

    /// A TLS failure in words: BoringSSL's reason (`WRONG_VERSION_NUMBER`) rather than its stack.
    private static func tls(_ error: NIOSSLError, received: Int, expected: Int?) -> CoverDownloadError {
        guard case .handshakeFailed(let underlying) = error else {
            if case .uncleanShutdown = error { return .closed(received: received, expected: expected) }
            return .tls("TLS error (\(error))", advice: "check that the URL's host serves https")
        }
        let text = "\(underlying)"
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
            return .tls("the TLS handshake failed: the server does not speak TLS on this port", advice: "if the server serves plain HTTP, write the URL with http://")
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return .tls("the server's TLS certificate could not be verified (self-signed, expired, or for another name)", advice: "use an https address whose certificate is valid, or save the image under content/ and point cover_url at it")
        }
        // BoringSSL's reason is the word between `OPENSSL_internal:` and ` at <file>`.
        var reason = text
        if let start = text.range(of: "OPENSSL_internal:") {
            reason = String(text[start.upperBound...].prefix { $0 != " " && $0 != "]" })
        }
        return .tls("the TLS handshake failed (\(reason))", advice: "check that the URL's host serves https")
    }

    private static func systemError(_ code: Int32, received: Int, expected: Int?) -> CoverDownloadError {
        switch code {
        case ECONNREFUSED: .connection("connection refused")
        case ECONNRESET, EPIPE: received > 0 ? .closed(received: received, expected: expected) : .connection("connection reset by the server")
        case EHOSTUNREACH, ENETUNREACH: .connection("the host is unreachable")
        case ETIMEDOUT: .connection("the connection timed out")
        default: .connection(String(cString: strerror(code)).lowercased())
        }
    }

    /// `51 200`: digits in groups of three, as the messages print byte counts.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: " ")
    }

    /// `20 MB` for whole megabytes (10⁶ bytes), else a byte count.
    static func size(_ bytes: Int) -> String {
        bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000) MB" : "\(count(bytes)) bytes"
    }

    /// The start of a body as readable text in quotes (`"<!DOCTYPE html"`, the first 14
    /// characters of the first line), or its first bytes in hex when it is not text.
    static func quote(_ head: [UInt8]) -> String {
        let prefix = Array(head.prefix(64))
        guard !prefix.isEmpty else { return "nothing: the body is empty" }
        if let text = String(validating: prefix, as: UTF8.self) ?? String(validating: prefix.dropLast(3), as: UTF8.self) {
            let line = text.drop { $0.isWhitespace }.prefix { $0 != "\n" && $0 != "\r" }
            if !line.isEmpty, line.unicodeScalars.allSatisfy({ !$0.properties.isDefaultIgnorableCodePoint && ($0 == "\t" || $0.value >= 0x20) && $0.value != 0x7F }) {
                return "\"" + String(line.prefix(14)) + "\""
            }
        }
        return "bytes " + prefix.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
