import Foundation
import GalleryKit
@testable import GalleryPreview
import Hummingbird
import Testing

@Suite struct PreviewResponderTests {
    @Test func entityTagsFollowTheBytes() {
        let tag = PreviewResponder.entityTag(Array("a".utf8))
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 18)
        #expect(tag == PreviewResponder.entityTag(Array("a".utf8)))
        #expect(tag != PreviewResponder.entityTag(Array("b".utf8)))
    }

    @Test func ifNoneMatchComparesWeaklyAndAcceptsLists() {
        let tag = PreviewResponder.entityTag(Array("a".utf8))
        #expect(PreviewResponder.matches([tag], tag))
        #expect(PreviewResponder.matches(["\"x\", W/\(tag)"], tag))
        #expect(PreviewResponder.matches(["*"], tag))
        #expect(!PreviewResponder.matches(["\"x\""], tag))
        #expect(!PreviewResponder.matches([], tag))
    }

    @Test func urlsBracketIPv6() {
        #expect(PreviewServer.url(host: "127.0.0.1", port: 1313, basePath: "/") == "http://127.0.0.1:1313/")
        #expect(PreviewServer.url(host: "::1", port: 8080, basePath: "/albums/") == "http://[::1]:8080/albums/")
    }
}

/// The responder on a real output folder: `index.html`, `style.css`, `404.html`.
@Suite final class PreviewResponderFileTests {
    let output: URL
    let state = PreviewState()
    let responder: PreviewResponder
    let page = "<!DOCTYPE html>\n<html><body><p>Albums</p></body></html>\n"
    let notFoundPage = "<!DOCTYPE html>\n<html><body><p>Lost</p></body></html>\n"
    let style = "body { color: red }\n"

    init() throws {
        output = FileManager.default.temporaryDirectory.appending(path: "gallery-responder-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data(page.utf8).write(to: output.appending(path: "index.html"))
        try Data(notFoundPage.utf8).write(to: output.appending(path: "404.html"))
        try Data(style.utf8).write(to: output.appending(path: "style.css"))
        let output = self.output
        state.update { $0.output = output }
        responder = PreviewResponder(state: state, hub: LiveReloadHub())
    }

    deinit {
        try? FileManager.default.removeItem(at: output)
    }

    func get(_ path: String, ifNoneMatch: [String] = []) async throws -> Response {
        try await responder.respond(path: path, ifNoneMatch: ifNoneMatch)
    }

    @Test func pagesGetTheScriptOnceAndOtherFilesAreSentAsWritten() async throws {
        // The ETag is a hash of the bytes sent, so it tells exactly what was sent.
        let index = try await get("/")
        #expect(index.status == .ok)
        #expect(index.headers[.contentType] == "text/html; charset=utf-8")
        #expect(index.headers[.eTag] == PreviewResponder.entityTag(PageDecorator.decorate(Array(page.utf8))))
        let css = try await get("/style.css")
        #expect(css.headers[.contentType] == "text/css; charset=utf-8")
        #expect(css.headers[.eTag] == PreviewResponder.entityTag(Array(style.utf8)))
        #expect(try String(contentsOf: output.appending(path: "index.html"), encoding: .utf8) == page)
        // The script the pages link, served by gallery, not from the site.
        let script = try await get(PageDecorator.scriptPath)
        #expect(script.status == .ok)
        #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(script.headers[.cacheControl] == "no-cache")
    }

    /// A gzipped SVG is an SVG to the browser only with its encoding said (it was sent as
    /// `application/octet-stream`, and downloaded).
    @Test func aGzippedSVGIsSentAsAnSVGWithItsEncoding() async throws {
        try Data([0x1F, 0x8B, 0x08, 0x00]).write(to: output.appending(path: "logo.svgz"))
        let svgz = try await get("/logo.svgz")
        #expect(svgz.status == .ok)
        #expect(svgz.headers[.contentType] == "image/svg+xml")
        #expect(svgz.headers[.contentEncoding] == "gzip")
        #expect(try await get("/style.css").headers[.contentEncoding] == nil)
    }

    @Test func aMatchingETagGets304AndAnOtherOneTheFile() async throws {
        let tag = try #require(try await get("/style.css").headers[.eTag])
        let again = try await get("/style.css", ifNoneMatch: [tag])
        #expect(again.status == .notModified)
        #expect(again.headers[.eTag] == tag)
        #expect(try await get("/style.css", ifNoneMatch: ["\"0000000000000000\""]).status == .ok)
    }

    @Test func aFailedBuildChangesThePagesAndTheirTags() async throws {
        let good = try #require(try await get("/").headers[.eTag])
        let failure = [Diagnostic.error("album 3 has no title", path: "content/albums.json")]
        state.update { $0.failure = failure }
        let broken = try await get("/", ifNoneMatch: [good])
        #expect(broken.status == .ok, "a cached good page must not hide the overlay")
        #expect(broken.headers[.eTag] == PreviewResponder.entityTag(PageDecorator.decorate(Array(page.utf8), failure: failure)))
    }

    @Test func missingFilesGetTheSitesOwn404Page() async throws {
        let missing = try await get("/no/such/page.html")
        #expect(missing.status == .notFound)
        #expect(missing.headers[.eTag] == PreviewResponder.entityTag(PageDecorator.decorate(Array(notFoundPage.utf8))))
    }

    @Test func aBadPercentEscapeIsABadRequest() async throws {
        try Data("full".utf8).write(to: output.appending(path: "100%.txt"))
        for path in ["/100%.txt", "/%zz", "/%"] {
            #expect(try await get(path).status == .badRequest, "\(path)")
        }
        #expect(try await get("/100%25.txt").status == .ok)
    }

    @Test func traversalIsForbiddenAndFoldersAreRedirected() async throws {
        #expect(try await get("/../secret.txt").status == .forbidden)
        #expect(try await get("/%2e%2e/secret.txt").status == .forbidden)
        try FileManager.default.createDirectory(at: output.appending(path: "albums"), withIntermediateDirectories: true)
        let redirect = try await get("/albums")
        #expect(redirect.status == .found)
        #expect(redirect.headers[.location] == "/albums/")
    }

    /// The server listens before its first build: a request that comes meanwhile gets the page
    /// once it is built, not a 404.
    @Test func aRequestBeforeTheFirstBuildWaitsForIt() async throws {
        let unbuilt = PreviewState()
        let responder = PreviewResponder(state: unbuilt, hub: LiveReloadHub())
        let request = Task { try await responder.respond(path: "/style.css", ifNoneMatch: []) }
        try await Task.sleep(for: .milliseconds(200))
        let output = self.output
        unbuilt.update { $0.output = output }
        await unbuilt.firstBuild.open()
        #expect(try await request.value.status == .ok)
    }

    @Test func theSiteIsServedUnderItsBasePath() async throws {
        state.update { $0.basePath = "/project/" }
        #expect(try await get("/").headers[.location] == "/project/")
        #expect(try await get("/project/style.css").headers[.eTag] == PreviewResponder.entityTag(Array(style.utf8)))
        // A file of the site asked for outside the base path (a page open before base_url
        // changed) is sent under it; anything else outside it is not found.
        let outside = try await get("/style.css")
        #expect(outside.status == .found)
        #expect(outside.headers[.location] == "/project/style.css")
        #expect(try await get("/no-such.css").status == .notFound)
    }
}
