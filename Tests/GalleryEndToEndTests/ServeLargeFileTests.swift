import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gallery serve` and a large file in `static/` (a video), asked for in part as a browser does to
/// play and seek in it: each answer read the whole file into memory, and hashed it, however
/// little was asked for (1 KB of an 800 MB video took 2 s and 1.8 GB).
@Suite(.serialized) struct ServeLargeFileTests {
    /// 64 MiB: well past the mebibyte from which a file is read only where asked.
    static let size = 64 << 20

    /// The byte at `offset` of the video, `version` 0 or 1: no two neighbours alike and no
    /// short period, so a part a byte or a block off is told apart.
    static func byte(at offset: Int, version: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (offset &* 2_654_435_761) >> 11) ^ UInt8(truncatingIfNeeded: offset >> 20) ^ UInt8(version * 0x5A)
    }

    /// Writes the video, a mebibyte at a time, to `static/media/huge.mp4` (replacing it whole).
    static func writeVideo(in folder: TemporaryFolder, version: Int) throws {
        let target = folder.url.appending(path: "static/media/huge.mp4")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = folder.url.appending(path: "huge.mp4.tmp")
        _ = FileManager.default.createFile(atPath: temporary.path, contents: nil)
        let handle = try FileHandle(forWritingTo: temporary)
        for start in stride(from: 0, to: size, by: 1 << 20) {
            try handle.write(contentsOf: Data((start..<(start + (1 << 20))).map { byte(at: $0, version: version) }))
        }
        try handle.close()
        #expect(rename(temporary.path, target.path) == 0)
    }

    /// The peak resident memory of a process, in bytes (`VmHWM`).
    static func peakMemory(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first ?? "")) * 1024
    }

    @Test func aLargeFileIsReadOnlyWhereAskedAndItsETagFollowsIt() async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", year: 1971)])
        try Self.writeVideo(in: folder, version: 0)
        let server = try await ServeProcess(in: folder.url)
        let before = try Self.peakMemory(of: server.process.processIdentifier)
        let path = "/media/huge.mp4"

        let head = try await RawResponse.get(path, port: server.port, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "\(Self.size)")
        #expect(head.headers["accept-ranges"] == "bytes")
        #expect(head.headers["content-type"] == "video/mp4")
        let tag = try #require(head.headers["etag"])

        let ranges: [(String, ClosedRange<Int>)] = [
            ("bytes=0-1023", 0...1023),
            ("bytes=50000000-50001023", 50_000_000...50_001_023),
            ("bytes=-1000", (Self.size - 1000)...(Self.size - 1)),
            ("bytes=\(Self.size - 5)-", (Self.size - 5)...(Self.size - 1)),
            // Across a piece read from disk (128 KiB).
            ("bytes=131000-131999", 131_000...131_999),
        ]
        for (header, part) in ranges {
            let response = try await RawResponse.get(path, port: server.port, headers: ["Range": header])
            #expect(response.status == 206, "\(header)")
            #expect(response.headers["content-range"] == "bytes \(part.lowerBound)-\(part.upperBound)/\(Self.size)", "\(header)")
            #expect(response.headers["etag"] == tag, "\(header)")
            #expect(response.bodyBytes == part.map { Self.byte(at: $0, version: 0) }, "\(header)")
        }
        #expect(try await RawResponse.get(path, port: server.port, headers: ["Range": "bytes=\(Self.size)-"]).status == 416)
        #expect(try await RawResponse.get(path, port: server.port, headers: ["If-None-Match": tag]).status == 304)

        // Nothing like the file was held in memory, let alone once per request.
        let growth = try Self.peakMemory(of: server.process.processIdentifier) - before
        #expect(growth < Self.size / 2, "peak memory grew by \(growth / 1_048_576) MiB")

        // The whole file, as a download takes it. (Not measured: the allocator gallery tunes
        // for builds keeps the pieces' memory once freed, for the next ones.)
        let whole = try RawHTTPConnection(port: server.port)
        whole.send("GET", path)
        let got = try await whole.drain(timeout: 60)
        let headLength = try #require(whole.receivedBytes.firstRange(of: Array("\r\n\r\n".utf8))).upperBound
        #expect(got.count - headLength == Self.size)

        // Replaced by other bytes of the same size: a new tag, and the old one gets the new file.
        try Self.writeVideo(in: folder, version: 1)
        let deadline = Date().addingTimeInterval(60)
        var current = tag
        while current == tag, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            current = try await RawResponse.get(path, port: server.port, method: "HEAD").headers["etag"] ?? tag
        }
        #expect(current != tag, "\(server.stderr.value)")
        let stale = try await RawResponse.get(path, port: server.port, method: "HEAD", headers: ["If-None-Match": tag, "Range": "bytes=0-9", "If-Range": tag])
        #expect(stale.status == 200, "the old tag still matched")
        #expect(stale.headers["content-length"] == "\(Self.size)")
        let fresh = try await RawResponse.get(path, port: server.port, headers: ["Range": "bytes=50000000-50001023", "If-Range": current])
        #expect(fresh.status == 206)
        #expect(fresh.bodyBytes == (50_000_000...50_001_023).map { Self.byte(at: $0, version: 1) })
        #expect(try await RawResponse.get(path, port: server.port, headers: ["If-None-Match": current]).status == 304)
    }
}
