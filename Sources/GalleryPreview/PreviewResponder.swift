import Foundation
import GalleryKit
import Hummingbird

/// Answers the preview server's HTTP requests: the files of the output folder under the site's
/// base path, and the site's 404 page for anything else. (The live-reload WebSocket is upgraded
/// before a request gets here: see ``LiveReloadSocket``.)
///
/// HTML pages get the reload script (and, after a failed rebuild, the error overlay) as they are
/// sent. Every file carries a strong ETag (of the bytes sent, or of a large file's identity),
/// so a browser's `If-None-Match` gets `304 Not Modified` until the file, or the overlay,
/// changes. A file that is not a page can also be asked for in part (`Range: bytes=…`, see
/// ``RangeRequest``), which is how a browser seeks in audio and video from `static/`.
public struct PreviewResponder: HTTPResponder {
    /// The request context: Hummingbird's basic one; the preview needs nothing more.
    public typealias Context = BasicRequestContext

    /// The latest build's state.
    public let state: PreviewState
    /// The open pages.
    public let hub: LiveReloadHub
    /// Which host names are answered.
    public let origin: RequestOrigin

    /// A responder.
    public init(state: PreviewState, hub: LiveReloadHub, origin: RequestOrigin = RequestOrigin(loopbackOnly: true)) {
        self.state = state
        self.hub = hub
        self.origin = origin
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard origin.allows(host: request.head.authority) else {
            return Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: RequestOrigin.refusal(host: request.head.authority ?? ""))))
        }
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        // HEAD gets the header fields GET would, a range's included, as Go's file server
        // (Hugo's) gives them: RFC 9110 defines ranges for GET only, but asks a server to answer
        // HEAD with the fields it would send for GET.
        let response = try await respond(
            path: request.uri.path,
            query: request.uri.query,
            ifNoneMatch: request.headers[values: .ifNoneMatch],
            range: request.headers[values: .range],
            ifRange: request.headers[values: .ifRange]
        )
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The response to a GET of a raw request path, with the values of its `If-None-Match`,
    /// `Range` and `If-Range` header fields; a redirect keeps the query.
    func respond(path: String, query: String? = nil, ifNoneMatch: [String], range: [String] = [], ifRange: [String] = []) async throws -> Response {
        let query = query.map { $0.isEmpty ? "" : "?" + $0 } ?? ""
        if path == PageDecorator.scriptPath {
            return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"], body: ResponseBody(byteBuffer: ByteBuffer(string: PageDecorator.script)))
        }
        if path == PageDecorator.livePath {
            return Self.text("426 Upgrade Required: this is gallery serve's live-reload WebSocket.\n", status: .upgradeRequired)
        }
        if RequestPath.hasMalformedEscape(path) {
            return Self.text("400 Bad Request: bad percent-escape in the path: a % must be followed by two hexadecimal digits (a % in a file's name is sent as %25).\n", status: .badRequest)
        }
        if state.snapshot.output == nil { await state.firstBuild.wait() }
        await state.waitForOutput()
        let snapshot = state.snapshot
        guard let output = snapshot.output else { return try notFound(resolver: nil, snapshot) }
        let resolver = StaticFileResolver(root: output)
        // `//` (a doubled slash typed or joined by mistake) is the home page; sent there rather
        // than served, so the page's relative links resolve from `/`.
        if path.count > 1, path.allSatisfy({ $0 == "/" }) { return Self.redirect(to: snapshot.basePath + query) }
        var sitePath = path
        if snapshot.basePath != "/" {
            if path == "/" || path + "/" == snapshot.basePath { return Self.redirect(to: snapshot.basePath + query) }
            guard path.hasPrefix(snapshot.basePath) else {
                return try moved(path, query: query, resolver: resolver, snapshot) ?? notFound(resolver: resolver, snapshot)
            }
            sitePath = "/" + path.dropFirst(snapshot.basePath.count)
        }
        switch resolver.lookup(sitePath) {
        case .file(let file):
            // `If-None-Match` comes before `Range` (RFC 9110 §13.2.2): a cached file is a 304.
            let (response, tag) = try Self.file(file, status: .ok, snapshot, range: range, ifRange: ifRange)
            if Self.matches(ifNoneMatch, tag) {
                return Response(status: .notModified, headers: [.eTag: tag, .cacheControl: "no-cache"])
            }
            return response
        case .redirect:
            return Self.redirect(to: path + "/" + query)
        case .forbidden:
            return Self.text("403 Forbidden: this path is outside the site.\n", status: .forbidden)
        case .notFound:
            return try moved(path, query: query, resolver: resolver, snapshot) ?? notFound(resolver: resolver, snapshot)
        }
    }

    /// A redirect into the base path for a path that is not under it but names a file of the
    /// site, as pages open before `base_url` changed ask for: `/albums/x/` to `/sub/albums/x/`,
    /// and under the former base path, `/sub/albums/x/` to `/albums/x/`.
    func moved(_ path: String, query: String, resolver: StaticFileResolver, _ snapshot: PreviewState.Snapshot) -> Response? {
        var candidates: [String] = []
        if let former = snapshot.formerBasePath, former != snapshot.basePath, path.hasPrefix(former) {
            candidates.append("/" + path.dropFirst(former.count))
        }
        if snapshot.basePath != "/", !path.hasPrefix(snapshot.basePath) { candidates.append(path) }
        for candidate in candidates {
            switch resolver.lookup(candidate) {
            case .file, .redirect: return Self.redirect(to: snapshot.basePath + candidate.dropFirst() + query)
            case .notFound, .forbidden: continue
            }
        }
        // An album page renamed while serving: its old address, as a folder or its index.html.
        if path.hasPrefix(snapshot.basePath) {
            var folder = String(path.dropFirst(snapshot.basePath.count))
            if folder.hasSuffix("/index.html") { folder.removeLast("index.html".count) }
            if !folder.hasSuffix("/") { folder += "/" }
            if let to = snapshot.movedPages[folder], case .file = resolver.lookup("/" + to) {
                return Self.redirect(to: snapshot.basePath + to + query)
            }
        }
        return nil
    }

    /// The site's `404.html` with status 404, or a plain page when the build has not written one.
    func notFound(resolver: StaticFileResolver?, _ snapshot: PreviewState.Snapshot) throws -> Response {
        if let page = resolver?.notFoundPage() {
            return try Self.file(page, status: .notFound, snapshot).response
        }
        let page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>Not found</title></head><body><p>Not found.</p></body></html>\n"
        let bytes = PageDecorator.decorate(Array(page.utf8), build: snapshot.build, failure: snapshot.failure)
        return Response(status: .notFound, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A file's response, decorated for the state `snapshot` if it is a page, and its ETag.
    ///
    /// A file that is not a page, sent with 200, is sent in part when `range` (the values of the
    /// request's `Range` fields, with those of `If-Range`) asks for one: 206 with the part's
    /// bytes, or 416 for a range that starts past its end; a part carries the whole file's ETag
    /// and type. Pages are always sent whole, with `Accept-Ranges: none`: the script and overlay
    /// added to them change with the build, so a part of one could be joined with a part of
    /// another build's page; and a browser never asks for a page in parts.
    ///
    /// A file over a mebibyte that is not a page (a video) is a ``LargeFile``: only the bytes
    /// sent are read, as they are sent, and its ETag is of its identity. Others are read whole,
    /// with an ETag of their bytes (a page's as decorated).
    static func file(_ path: String, status: HTTPResponse.Status, _ snapshot: PreviewState.Snapshot, range: [String] = [], ifRange: [String] = []) throws -> (response: Response, tag: String) {
        let type = ContentType.forPath(path)
        let isPage = ContentType.isHTML(type)
        var headers: HTTPFields = [.contentType: type, .cacheControl: "no-cache", .acceptRanges: isPage ? "none" : "bytes"]
        // A browser shows an .svgz only when told it is gzipped, as web servers tell it.
        if path.lowercased().hasSuffix(".svgz") { headers[.contentEncoding] = "gzip" }
        let asked = { (size: Int, tag: String) in
            isPage || status != .ok ? RangeRequest.whole : RangeRequest(range: range, ifRange: ifRange, size: size, tag: tag)
        }
        if !isPage, let file = LargeFile(path: path) {
            let response = answer(asked(file.size, file.tag), size: file.size, tag: file.tag, status: status, headers: headers, body: file.body)
            return (response, file.tag)
        }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        if isPage { bytes = PageDecorator.decorate(bytes, build: snapshot.build, failure: snapshot.failure) }
        let tag = entityTag(bytes)
        let response = answer(asked(bytes.count, tag), size: bytes.count, tag: tag, status: status, headers: headers) { [bytes] part in
            ResponseBody(byteBuffer: ByteBuffer(bytes: bytes[part]))
        }
        return (response, tag)
    }

    /// The answer to what a request `asked` of a file of `size` bytes whose ETag is `tag`: the
    /// whole file with `status`, a part of it, or 416; `body` gives the bytes in a range.
    static func answer(_ asked: RangeRequest, size: Int, tag: String, status: HTTPResponse.Status, headers: HTTPFields, body: (Range<Int>) -> ResponseBody) -> Response {
        var headers = headers
        headers[.eTag] = tag
        switch asked {
        case .whole:
            return Response(status: status, headers: headers, body: body(0..<size))
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
            return Response(status: .partialContent, headers: headers, body: body(part.lowerBound..<(part.upperBound + 1)))
        case .unsatisfiable:
            var response = Self.text(Self.unsatisfiable(size: size), status: .rangeNotSatisfiable)
            response.headers[.contentRange] = "bytes */\(size)"
            response.headers[.acceptRanges] = "bytes"
            response.headers[.cacheControl] = "no-cache"
            return response
        }
    }

    /// The body of a 416: what the file holds, and what to ask for instead.
    static func unsatisfiable(size: Int) -> String {
        if size == 0 { return "416 Range Not Satisfiable: this file is empty; ask for it without a Range header.\n" }
        return "416 Range Not Satisfiable: this file has \(size) bytes; ask for a range that starts below byte \(size) (bytes=0-\(size - 1) is the whole file).\n"
    }

    /// A strong entity tag of the bytes sent.
    public static func entityTag(_ bytes: [UInt8]) -> String {
        "\"" + FastHash.hash(bytes).hex16 + "\""
    }

    /// Whether `If-None-Match` values name this tag (weak comparison, as RFC 9110 asks for
    /// `If-None-Match`), or are `*`.
    public static func matches(_ ifNoneMatch: [String], _ tag: String) -> Bool {
        for value in ifNoneMatch {
            for candidate in value.split(separator: ",") {
                var candidate = candidate.trimmingCharacters(in: .whitespaces)
                if candidate == "*" { return true }
                if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
                if candidate == tag { return true }
            }
        }
        return false
    }

    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-cache"])
    }

    static func text(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
