import Foundation

#if canImport(Glibc)
import Glibc
private let openSocket = Glibc.socket
private let sendBytes = Glibc.send
private let streamSocket = Int32(SOCK_STREAM.rawValue)
private let sendFlags = Int32(MSG_NOSIGNAL)
private let receiveFlags = Int32(MSG_DONTWAIT)
#else
import Darwin
private let openSocket = Darwin.socket
private let sendBytes = Darwin.send
private let streamSocket = SOCK_STREAM
private let sendFlags: Int32 = 0
private let receiveFlags = MSG_DONTWAIT
#endif

/// A minimal HTTP/1.1 client on a plain TCP socket, for requests that real clients would
/// "fix" before sending: `/../`, `%2e%2e`, backslashes. Paths go on the wire exactly as written.
/// Every read has a deadline, so no test can hang on a server that does not answer, and waits
/// by sleeping, so no test holds a thread of the cooperative pool while the server works.
final class RawHTTPConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socket: Int32
    /// Everything received so far, as text.
    private(set) var received = ""

    /// Connects to 127.0.0.1:port.
    init(port: Int) throws {
        socket = openSocket(AF_INET, streamSocket, 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(socket)
            throw Failure(description: "cannot connect to port \(port)")
        }
    }

    deinit {
        close(socket)
    }

    /// Sends a request for a raw path.
    func send(_ method: String = "GET", _ path: String, headers: [String: String] = [:]) {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        _ = bytes.withUnsafeBytes { sendBytes(socket, $0.baseAddress, $0.count, sendFlags) }
    }

    /// Reads until `condition` holds for what was received, the server closes, or `timeout`
    /// seconds pass. Returns whether the condition held.
    ///
    /// Reads do not block: with nothing to read yet, it sleeps a little and looks again.
    @discardableResult
    func read(timeout: Double = 20, until condition: (String) -> Bool) async throws -> Bool {
        var bytes: [UInt8] = Array(received.utf8)
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !condition(received), Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, receiveFlags) }
            if count == 0 { break }
            if count < 0 {
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            bytes += buffer[..<count]
            received = String(decoding: bytes, as: UTF8.self)
        }
        return condition(received)
    }

    /// Waits for the text to arrive.
    func waitFor(_ text: String, timeout: Double = 20) async throws -> Bool {
        try await read(timeout: timeout) { $0.contains(text) }
    }
}

/// A parsed response.
struct RawResponse {
    var status: Int
    /// Header values by lowercased name.
    var headers: [String: String]
    var body: String

    /// Sends one request on a new connection and reads the whole response.
    static func get(_ path: String, port: Int, method: String = "GET", headers: [String: String] = [:]) async throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port)
        connection.send(method, path, headers: headers)
        try await connection.read(timeout: 20) { _ in false }
        return try parse(connection.received)
    }

    static func parse(_ text: String) throws -> RawResponse {
        guard let split = text.range(of: "\r\n\r\n") else { throw RawHTTPConnection.Failure(description: "no response: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPConnection.Failure(description: "bad status line: \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
