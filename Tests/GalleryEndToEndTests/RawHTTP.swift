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
    /// Everything received so far.
    private(set) var receivedBytes: [UInt8] = []

    /// Connects to 127.0.0.1:port; with `receiveBuffer`, the kernel holds at most about that
    /// many bytes the test has not read yet (a slow client's window stays small).
    init(port: Int, receiveBuffer: Int? = nil) throws {
        socket = openSocket(AF_INET, streamSocket, 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
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

    /// Sends bytes exactly as given (such as half a request).
    func sendRaw(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { sendBytes(socket, $0.baseAddress, $0.count, sendFlags) }
    }

    /// Sends a request for a raw path.
    func send(_ method: String = "GET", _ path: String, headers: [String: String] = [:], connection: String = "close", host: String = "127.0.0.1") {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: \(connection)\r\n"
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
        try await readBytes(timeout: timeout) { _ in condition(received) }
    }

    /// Reads until `condition` holds for the bytes received, the server closes, or `timeout`
    /// seconds pass. Returns whether the condition held.
    @discardableResult
    func readBytes(timeout: Double = 20, until condition: ([UInt8]) -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !condition(receivedBytes), Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, receiveFlags) }
            if count == 0 { break }
            if count < 0 {
                try await Task.sleep(for: .milliseconds(10))
                continue
            }
            receivedBytes += buffer[..<count]
            received = String(decoding: receivedBytes, as: UTF8.self)
        }
        // A sleep that woke past the deadline (the test run's threads are shared, and other
        // tests block them for seconds) left bytes that came long before it unread: read them.
        while !condition(receivedBytes) {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, receiveFlags) }
            guard count > 0 else { break }
            receivedBytes += buffer[..<count]
            received = String(decoding: receivedBytes, as: UTF8.self)
        }
        return condition(receivedBytes)
    }

    /// Reads until the server closes or `timeout` seconds pass, at most `pace` bytes every 100 ms
    /// when given (a slow client), keeping only the first 64 KB (a large body need not be held):
    /// how many bytes came in all, and whether the server closed.
    func drain(timeout: Double = 60, pace: Int? = nil) async throws -> (count: Int, closed: Bool) {
        await drainOnAThread(timeout: timeout, pace: pace)
    }

    /// Reads on a thread of its own, sleeping with `usleep`: a reader on the test run's few
    /// shared threads is stalled for seconds while other tests block them, and a server rightly
    /// takes a reader that stalls past its idle timeout for one that left.
    private func drainOnAThread(timeout: Double, pace: Int?) async -> (count: Int, closed: Bool) {
        nonisolated(unsafe) let connection = self
        return await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(returning: connection.drainBlocking(timeout: timeout, pace: pace))
            }.start()
        }
    }

    private func drainBlocking(timeout: Double, pace: Int?) -> (count: Int, closed: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        var count = receivedBytes.count
        var allowance = pace ?? Int.max
        while Date() < deadline {
            if allowance == 0 {
                usleep(100_000)
                allowance = pace ?? Int.max
                continue
            }
            let got = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, min($0.count, allowance), receiveFlags) }
            if got == 0 { return (count, true) }
            if got < 0 {
                if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return (count, true) }
                usleep(10_000)
                continue
            }
            count += got
            if pace != nil { allowance -= got }
            if receivedBytes.count < 65536 {
                receivedBytes += buffer[..<min(got, 65536 - receivedBytes.count)]
                received = String(decoding: receivedBytes, as: UTF8.self)
            }
        }
        return (count, false)
    }

    /// Waits for the text to arrive.
    func waitFor(_ text: String, timeout: Double = 20) async throws -> Bool {
        try await read(timeout: timeout) { $0.contains(text) }
    }
}

/// A WebSocket on a plain TCP socket, enough to read what `gallery serve` sends the pages:
/// the upgrade request, then the server's frames (unmasked) parsed into text messages.
final class RawWebSocket {
    let connection: RawHTTPConnection
    /// The server's response to the upgrade request.
    let response: RawResponse

    /// Opens the live-reload socket on 127.0.0.1:port; fails unless the server switches protocols.
    init(port: Int, path: String = "/__gallery/live") async throws {
        connection = try RawHTTPConnection(port: port)
        connection.send("GET", path, headers: ["Upgrade": "websocket", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version": "13"], connection: "Upgrade")
        try await connection.read(timeout: 20) { $0.contains("\r\n\r\n") }
        response = try RawResponse.parse(connection.received)
        guard response.status == 101 else { throw RawHTTPConnection.Failure(description: "no upgrade: \(connection.received)") }
    }

    /// The text messages received so far, and whether the server sent a close frame.
    var messages: (texts: [String], closed: Bool) { Self.frames(connection.receivedBytes) }

    /// Waits for a text message that satisfies `condition`, after the first `skipping`; the message, or `nil`.
    func waitForMessage(after skipping: Int = 0, timeout: Double = 20, where condition: @escaping (String) -> Bool) async throws -> String? {
        try await connection.readBytes(timeout: timeout) { Self.frames($0).texts.dropFirst(skipping).contains(where: condition) }
        return messages.texts.dropFirst(skipping).first(where: condition)
    }

    /// Waits for the server to close the socket (a close frame or the end of the connection).
    func waitForClose(timeout: Double = 20) async throws -> Bool {
        try await connection.readBytes(timeout: timeout) { Self.frames($0).closed }
        return messages.closed
    }

    /// Parses the frames after the upgrade response.
    static func frames(_ bytes: [UInt8]) -> (texts: [String], closed: Bool) {
        guard let headerEnd = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return ([], false) }
        var texts: [String] = []
        var index = headerEnd
        while index + 2 <= bytes.count {
            let opcode = bytes[index] & 0x0F
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { break }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= bytes.count else { break }
                length = bytes[start..<(start + 8)].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            if opcode == 1 { texts.append(String(decoding: bytes[start..<(start + length)], as: UTF8.self)) }
            if opcode == 8 { return (texts, true) }
            index = start + length
        }
        return (texts, false)
    }
}

/// A parsed response.
struct RawResponse {
    var status: Int
    /// Header values by lowercased name.
    var headers: [String: String]
    /// The body as text (bytes that are not UTF-8 replaced).
    var body: String
    /// The body as sent, for files that are not text.
    var bodyBytes: [UInt8]

    /// Sends one request on a new connection and reads the whole response.
    static func get(_ path: String, port: Int, method: String = "GET", headers: [String: String] = [:], host: String = "127.0.0.1") async throws -> RawResponse {
        let connection = try RawHTTPConnection(port: port)
        connection.send(method, path, headers: headers, host: host)
        try await connection.read(timeout: 20) { _ in false }
        return try parse(connection.receivedBytes)
    }

    static func parse(_ text: String) throws -> RawResponse {
        try parse(Array(text.utf8))
    }

    static func parse(_ bytes: [UInt8]) throws -> RawResponse {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { throw RawHTTPConnection.Failure(description: "no response: \(text)") }
        let head = String(decoding: bytes[..<split.lowerBound], as: UTF8.self)
        let bodyBytes = Array(bytes[split.upperBound...])
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPConnection.Failure(description: "bad status line: \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return RawResponse(status: status, headers: headers, body: String(decoding: bodyBytes, as: UTF8.self), bodyBytes: bodyBytes)
    }
}
