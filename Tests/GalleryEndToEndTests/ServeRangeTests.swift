import Foundation
import Testing

/// `gallery serve` asked for files in part (`Range`, RFC 9110 §14), as a browser asks for audio
/// and video to seek in them, over real HTTP on a real socket.
@Suite(.serialized) struct ServeRangeTests {
    /// A sample clip in `static/`: 5,000 bytes that are not UTF-8 and where no two neighbours are
    /// alike, so a part a byte off, or text mangled on the way, is told apart.
    static let clip = (0..<5000).map { UInt8($0 % 251) }

    /// A site with the clip at `/clip.wav` and an empty file at `/empty.wav`.
    func site() throws -> TemporaryFolder {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", year: 1971)])
        try folder.write("", to: "static/empty.wav")
        try Data(Self.clip).write(to: folder.url.appending(path: "static/clip.wav"))
        return folder
    }

    /// GETs (or HEADs) `/clip.wav` with these header fields.
    func clip(_ server: ServeProcess, method: String = "GET", _ headers: [String: String] = [:]) async throws -> RawResponse {
        try await RawResponse.get("/clip.wav", port: server.port, method: method, headers: headers)
    }

    @Test func eachFormOfOneRangeGetsExactlyItsBytes() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let whole = try await clip(server)
        #expect(whole.status == 200)
        #expect(whole.bodyBytes == Self.clip)
        #expect(whole.headers["accept-ranges"] == "bytes", "a browser seeks only in a file that says it can")
        #expect(whole.headers["content-range"] == nil)
        let tag = try #require(whole.headers["etag"])

        let ranges: [(String, ClosedRange<Int>)] = [
            ("bytes=1000-1999", 1000...1999),
            ("bytes=4000-", 4000...4999),
            ("bytes=-300", 4700...4999),
            ("bytes=0-0", 0...0),
            ("bytes=4999-4999", 4999...4999),
            // A last byte past the end is the end; a suffix longer than the file is all of it.
            ("bytes=4990-99999", 4990...4999),
            ("bytes=-99999", 0...4999),
            // Range units are case-insensitive; an empty list element is ignored.
            ("Bytes=10-19", 10...19),
            ("bytes=10-19,", 10...19),
        ]
        for (header, part) in ranges {
            let response = try await clip(server, ["Range": header])
            #expect(response.status == 206, "\(header)")
            #expect(response.headers["content-range"] == "bytes \(part.lowerBound)-\(part.upperBound)/5000", "\(header)")
            #expect(response.headers["content-length"] == "\(part.count)", "\(header)")
            #expect(response.headers["accept-ranges"] == "bytes", "\(header)")
            #expect(response.headers["etag"] == tag, "\(header): a part carries the whole file's ETag")
            #expect(response.headers["content-type"] == "audio/wav", "\(header)")
            #expect(response.bodyBytes == Array(Self.clip[part]), "\(header)")
        }

        // Any file that is not a page, such as what the build writes itself.
        let data = Array(try Data(contentsOf: folder.url.appending(path: ".gallery-cache/preview/albums.json")))
        let part = try await RawResponse.get("/albums.json", port: server.port, headers: ["Range": "bytes=0-9"])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 0-9/\(data.count)")
        #expect(part.bodyBytes == Array(data[0...9]))
    }

    @Test func aRangeThatStartsPastTheEndIs416WithTheSize() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        for header in ["bytes=5000-", "bytes=5000-5999", "bytes=99999-", "bytes=-0", "bytes=123456789012345678901234567890-"] {
            let response = try await clip(server, ["Range": header])
            #expect(response.status == 416, "\(header)")
            #expect(response.headers["content-range"] == "bytes */5000", "\(header)")
            #expect(response.headers["accept-ranges"] == "bytes", "\(header)")
            #expect(response.body == "416 Range Not Satisfiable: this file has 5000 bytes; ask for a range that starts below byte 5000 (bytes=0-4999 is the whole file).\n", "\(header)")
        }
        // An empty file has no byte to start at; a suffix of it is the whole, empty file.
        let empty = try await RawResponse.get("/empty.wav", port: server.port, headers: ["Range": "bytes=0-"])
        #expect(empty.status == 416)
        #expect(empty.headers["content-range"] == "bytes */0")
        let suffix = try await RawResponse.get("/empty.wav", port: server.port, headers: ["Range": "bytes=-10"])
        #expect(suffix.status == 200)
        #expect(suffix.headers["content-length"] == "0")
        #expect(suffix.headers["content-range"] == nil)
    }

    /// Several ranges (which would need a multipart body), another unit, or a header that is no
    /// range at all: ignored, as a server may, and the whole file sent.
    @Test func aRangeItDoesNotServeGetsTheWholeFile() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let headers = [
            "bytes=0-1,5-6", "bytes=0-1, 4999-", "bytes=abc", "bytes=5-2", "bytes=-", "bytes=",
            "bytes=+1-2", "bytes=1-+2", "bytes=0x10-20", "bytes=1 -2", "items=0-5", "bytes 0-5", "0-5",
        ]
        for header in headers {
            let response = try await clip(server, ["Range": header])
            #expect(response.status == 200, "\(header) gave \(response.status)")
            #expect(response.headers["content-range"] == nil, "\(header)")
            #expect(response.headers["content-length"] == "5000", "\(header)")
            #expect(response.headers["accept-ranges"] == "bytes", "\(header)")
            #expect(response.bodyBytes == Self.clip, "\(header)")
        }
    }

    /// A client resuming a download sends the ETag of the bytes it has: it gets the rest only if
    /// the file is still those bytes, and else the whole file as it is now.
    @Test func ifRangeSendsThePartOnlyForTheCurrentETag() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let tag = try #require(try await clip(server).headers["etag"])

        let part = try await clip(server, ["Range": "bytes=100-199", "If-Range": tag])
        #expect(part.status == 206)
        #expect(part.headers["content-range"] == "bytes 100-199/5000")
        #expect(part.bodyBytes == Array(Self.clip[100...199]))

        // Another tag, the same one weak (If-Range compares strongly), or a date (no
        // Last-Modified is sent to compare it with): the whole file, even for a range past its end.
        for ifRange in ["\"0000000000000000\"", "W/" + tag, "Tue, 15 Nov 1994 08:12:31 GMT"] {
            for range in ["bytes=100-199", "bytes=9999-"] {
                let response = try await clip(server, ["Range": range, "If-Range": ifRange])
                #expect(response.status == 200, "If-Range: \(ifRange), Range: \(range)")
                #expect(response.headers["content-range"] == nil, "If-Range: \(ifRange), Range: \(range)")
                #expect(response.bodyBytes == Self.clip, "If-Range: \(ifRange), Range: \(range)")
            }
        }

        // The clip replaced while serving: the old tag now gets the new file, whole.
        let replaced = Self.clip.reversed() as [UInt8]
        try Data(replaced).write(to: folder.url.appending(path: "static/clip.wav"), options: .atomic)
        let deadline = Date().addingTimeInterval(30)
        while try await clip(server).headers["etag"] == tag, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let resumed = try await clip(server, ["Range": "bytes=100-199", "If-Range": tag])
        #expect(resumed.status == 200, "\(server.stderr.value)")
        #expect(resumed.bodyBytes == replaced)
        let current = try #require(resumed.headers["etag"])
        #expect(current != tag)
        #expect(try await clip(server, ["Range": "bytes=100-199", "If-Range": current]).bodyBytes == Array(replaced[100...199]))
    }

    /// HEAD gets what GET would, range and all, without the body.
    @Test func headWithARangeGetsTheHeadersOfTheGet() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let cases: [([String: String], Int)] = [
            (["Range": "bytes=1000-1999"], 206),
            (["Range": "bytes=-10"], 206),
            (["Range": "bytes=5000-"], 416),
            (["Range": "bytes=0-1,5-6"], 200),
            ([:], 200),
        ]
        for (headers, status) in cases {
            let get = try await clip(server, headers)
            let head = try await clip(server, method: "HEAD", headers)
            #expect(get.status == status, "\(headers)")
            #expect(head.status == status, "\(headers)")
            for name in ["content-range", "content-length", "accept-ranges", "etag", "content-type"] {
                #expect(head.headers[name] == get.headers[name], "\(headers): \(name)")
            }
            #expect(head.bodyBytes.isEmpty, "\(headers)")
        }
        #expect(try await clip(server, method: "HEAD", ["Range": "bytes=1000-1999"]).headers["content-length"] == "1000")
    }

    /// A page is sent with the reload script, which changes with every build: a range of it could
    /// be joined with a part of another build's page, so none is handed out and none advertised.
    @Test func aPageAskedForInPartIsSentWhole() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let page = try await RawResponse.get("/", port: server.port)
        #expect(page.status == 200)
        #expect(page.headers["accept-ranges"] == "none")
        let tag = try #require(page.headers["etag"])
        for headers in [["Range": "bytes=0-99"], ["Range": "bytes=-10"], ["Range": "bytes=99999999-"], ["Range": "bytes=0-99", "If-Range": tag]] {
            let response = try await RawResponse.get("/", port: server.port, headers: headers)
            #expect(response.status == 200, "\(headers) gave \(response.status)")
            #expect(response.headers["content-range"] == nil, "\(headers)")
            #expect(response.headers["accept-ranges"] == "none", "\(headers)")
            #expect(response.bodyBytes == page.bodyBytes, "\(headers)")
            #expect(response.body.contains("src=\"/__gallery/reload.js\""), "\(headers)")
        }
        // The site's 404 page too.
        let missing = try await RawResponse.get("/no/such/clip.wav", port: server.port, headers: ["Range": "bytes=0-9"])
        #expect(missing.status == 404)
        #expect(missing.headers["content-range"] == nil)
        #expect(missing.body.contains("src=\"/__gallery/reload.js\""))
    }

    /// `If-None-Match` comes first: a file the browser has is 304, whatever range it asks for.
    @Test func aCachedFileIsStill304WithARange() async throws {
        let folder = try site()
        let server = try await ServeProcess(in: folder.url)
        let tag = try #require(try await clip(server).headers["etag"])
        for range in ["bytes=0-9", "bytes=9999-"] {
            let cached = try await clip(server, ["Range": range, "If-None-Match": tag])
            #expect(cached.status == 304, "\(range)")
            #expect(cached.headers["etag"] == tag, "\(range)")
            #expect(cached.headers["content-range"] == nil, "\(range)")
            #expect(cached.bodyBytes.isEmpty, "\(range)")
        }
        let other = try await clip(server, ["Range": "bytes=0-9", "If-None-Match": "\"0000000000000000\""])
        #expect(other.status == 206)
        #expect(other.bodyBytes == Array(Self.clip[0...9]))
    }
}
