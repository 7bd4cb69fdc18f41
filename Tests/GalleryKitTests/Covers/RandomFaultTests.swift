import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import GalleryKit

/// Covers fetched from a real server on 127.0.0.1 that answers each request with a fault drawn at
/// random (seeded): the faults `CoverFetcherFaultTests` tries one at a time, mixed, in turn on
/// the same kept-alive connections, behind redirects between the covers, and some it does not
/// (a `Content-Length` that is not a number, 304 to a request that asked for none, a
/// `Retry-After` that is no delay, no answer at all).
///
/// An answer longer than its `Content-Length` was in the mix, and found that its last bytes,
/// left on the connection, failed the next cover sent on it. Now that such a cover is sent again
/// (`bytesAnAnswerLeftOnTheConnectionDoNotFailTheNextCover`), it is out of the mix: with several
/// such answers at once, a cover whose every answer is whole could still meet more of those
/// connections in a row than it tries, and fail by chance.
///
/// Whatever happens, the fetcher must keep its promises:
/// - each cover ends in exactly one of downloaded or failed, and a failure says why;
/// - what it stores is a body the server framed whole, with a 200 or 203, that is an image:
///   never a body cut short, an error page or a body larger than the limit;
/// - every object in the cache is named by its own hash, and no temporary file is left;
/// - a cover whose every answer is whole is downloaded;
/// - an offline build afterwards finds the same covers, with no request.
@Suite struct RandomFaultTests {
    /// How one request is answered.
    enum Answer: CaseIterable {
        case whole, changed, chunked, slow, cutShort, lengthTooLong, lengthNotANumber
        case notFound, serverError, unavailable, tooManyRequests, notModified
        case redirect, redirectToItself, redirectNowhere, redirectToFTP
        case webPage, tooLarge, noAnswer
    }

    /// The covers' whole images, each its own.
    static func image(_ index: Int) -> [UInt8] {
        PNGBuilder(width: 40 + index, height: 30, colourType: 2, filters: [0, 1], seed: UInt32(index + 1)).bytes()
    }

    /// The steps of `answer` for cover `index` (of `count`), and the body it frames whole with a
    /// 200, if any.
    static func steps(_ answer: Answer, index: Int, count: Int, using generator: inout SeededGenerator) -> (steps: [FaultyHTTPServer.Step], framed: [UInt8]?) {
        let image = image(index)
        let other = "/covers/\(Int.random(in: 0..<count, using: &generator)).png"
        switch answer {
        case .whole:
            return ([FaultyHTTPServer.Step].response(.ok, [("Content-Type", "image/png"), ("ETag", "\"\(index)\"")], body: image), image)
        case .changed:
            let other = Self.image(index + 100)
            return ([FaultyHTTPServer.Step].response(.ok, [("Content-Type", "image/png"), ("ETag", "\"\(index)-2\"")], body: other), other)
        case .chunked:
            return ([.head(.ok, ["Content-Type": "image/png"]), .body(Array(image.prefix(100))), .body(Array(image.dropFirst(100))), .end], image)
        case .slow:
            return ([.head(.ok, ["Content-Length": "\(image.count)"]), .body(Array(image.prefix(50))), .pause(.milliseconds(30)), .body(Array(image.dropFirst(50))), .end], image)
        case .cutShort:
            return ([.head(.ok, ["Content-Length": "\(image.count)"]), .body(Array(image.prefix(image.count / 2))), .close], nil)
        case .lengthTooLong:
            return ([.head(.ok, ["Content-Length": "\(image.count + 100)"]), .body(image), .close], nil)
        case .lengthNotANumber:
            return ([.head(.ok, ["Content-Length": "lots"]), .body(image), .close], nil)
        case .notFound:
            return (FaultyHTTPServer.text(.notFound, "no such cover"), nil)
        case .serverError:
            return (FaultyHTTPServer.text(.internalServerError, String(repeating: "trace ", count: Int.random(in: 1...20_000, using: &generator))), nil)
        case .unavailable:
            return (FaultyHTTPServer.text(.serviceUnavailable, "later", [("Retry-After", ["0", "1", "soon", "-5"].randomElement(using: &generator)!)]), nil)
        case .tooManyRequests:
            return (FaultyHTTPServer.text(.tooManyRequests, "slow down", [("Retry-After", ["0", "3600", "Wed, 21 Oct 2015 07:28:00 GMT"].randomElement(using: &generator)!)]), nil)
        case .notModified:
            return ([.head(.notModified, ["ETag": "\"x\""]), .end], nil)
        case .redirect:
            let location = Bool.random(using: &generator) ? other : "http://127.0.0.1:{port}\(other)"
            return (FaultyHTTPServer.redirect(location, status: [.movedPermanently, .found, .temporaryRedirect].randomElement(using: &generator)!), nil)
        case .redirectToItself:
            return (FaultyHTTPServer.redirect("/covers/\(index).png"), nil)
        case .redirectNowhere:
            return (FaultyHTTPServer.redirect("http://[::nope"), nil)
        case .redirectToFTP:
            return (FaultyHTTPServer.redirect("ftp://127.0.0.1/cover.png"), nil)
        case .webPage:
            let page = Array("<!doctype html><title>Not here</title>".utf8) + Array(repeating: UInt8(ascii: " "), count: 2000)
            return ([FaultyHTTPServer.Step].response(.ok, [("Content-Type", "image/png")], body: page), nil)
        case .tooLarge:
            return ([.head(.ok, ["Content-Type": "image/png"]), .body(image), .stream(total: 200_000, chunk: 16_384, fill: 7), .end], nil)
        case .noAnswer:
            return ([.close], nil)
        }
    }

    /// A cover's answers, one per request in turn (the last one again after them), each with the
    /// body it frames whole with a 200, if any.
    typealias Script = [(steps: [FaultyHTTPServer.Step], framed: [UInt8]?)]

    /// The bodies a cover may be stored as: those the scripts frame whole that sniff as images.
    static func framed(in scripts: [Script]) -> Set<[UInt8]> {
        Set(scripts.flatMap { $0.compactMap(\.framed) }.filter { ImageKind.sniff($0) != nil })
    }

    /// Serves cover `index`'s script at `/covers/<index>.png` on the rig's server, its redirects'
    /// `{port}` filled in, from the request after the `earlier` ones each cover already had.
    static func route(_ scripts: [Script], on rig: CoverTestRig, after earlier: Int = 0) {
        let port = rig.server.port
        for (index, script) in scripts.enumerated() {
            let answers = script.map { answer in
                answer.steps.map { step -> FaultyHTTPServer.Step in
                    guard case .head(let status, var headers) = step, let location = headers.first(name: "Location") else { return step }
                    headers.replaceOrAdd(name: "Location", value: location.replacingOccurrences(of: "{port}", with: "\(port)"))
                    return .head(status, headers)
                }
            }
            rig.server.route("/covers/\(index).png") { request in answers[min(request.number - earlier, answers.count) - 1] }
        }
    }

    /// Every URL fetched at once by one fetcher, in `mode`: the results by index.
    static func fetchAll(_ urls: [URL], on rig: CoverTestRig, policy: CoverFetchPolicy, mode: FetchMode) async -> [Int: Result<Cover, CoverFailure>] {
        await rig.withFetcher(policy) { fetcher in
            await withTaskGroup(of: (Int, Result<Cover, CoverFailure>).self) { group in
                for (index, url) in urls.enumerated() {
                    group.addTask { (index, await fetcher.cover(for: url, mode: mode)) }
                }
                var results: [Int: Result<Cover, CoverFailure>] = [:]
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
    }

    /// The events among `events` that end a fetch of `url`.
    static func ends(of url: URL, in events: [CoverEvent]) -> [CoverEvent] {
        events.filter { event in
            switch event {
            case .downloaded(let of, _), .failed(let of, _), .fromCache(let of), .revalidated(let of): of == url.absoluteString
            default: false
            }
        }
    }

    @Test(arguments: (UInt64(1)...UInt64(10)).map { $0 })
    func faultsAtRandomKeepTheFetchersPromises(seed: UInt64) async throws {
        let count = 40
        var generator = SeededGenerator(seed: 0x5EED_5000 + seed)
        // Each cover's answers, one per request in turn (the last one again after them): mostly
        // faults, often a whole image at last, so that retries and redirects have something to find.
        var scripts: [Script] = []
        var allWhole: Set<Int> = []
        for index in 0..<count {
            let length = Int.random(in: 1...4, using: &generator)
            let answers = (0..<length).map { turn -> Answer in
                if index % 5 == 0 { return Bool.random(using: &generator) ? .whole : .chunked }
                return turn == length - 1 && Bool.random(using: &generator) ? .whole : Answer.allCases.randomElement(using: &generator)!
            }
            if answers.allSatisfy({ [.whole, .changed, .chunked, .slow].contains($0) }) { allWhole.insert(index) }
            scripts.append(answers.map { Self.steps($0, index: index, count: count, using: &generator) })
        }
        let framed = Self.framed(in: scripts)

        try await CoverTestRig.run { rig in
            Self.route(scripts, on: rig)
            var policy = CoverTestRig.fastPolicy
            policy.maxBodyBytes = 100_000
            let urls = (0..<count).map { rig.server.url("/covers/\($0).png") }
            let results = await Self.fetchAll(urls, on: rig, policy: policy, mode: .useCache)

            var downloaded = 0
            for index in 0..<count {
                let name = "seed \(seed), cover \(index)"
                let ends = Self.ends(of: urls[index], in: rig.observer.coverEvents)
                #expect(ends.count == 1, "\(name): \(ends)")
                switch results[index] {
                case .success(let cover):
                    downloaded += 1
                    let bytes = try [UInt8](Data(contentsOf: cover.file))
                    #expect(ContentHash.of(bytes) == cover.contentHash, "\(name): its object is not named by its hash")
                    #expect(framed.contains(bytes), "\(name): stored \(bytes.count) bytes the server never framed whole as an image")
                case .failure(let failure):
                    #expect(!failure.reason.isEmpty, "\(name)")
                    #expect(!allWhole.contains(index), "\(name): every answer was whole, yet \(failure.reason); requests \(rig.server.requests(to: "/covers/\(index).png"))")
                case nil:
                    Issue.record("\(name): no result")
                }
            }
            #expect(downloaded >= allWhole.count && downloaded < count, "\(downloaded) of \(count) downloaded")
            #expect(rig.cacheFiles.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left: \(rig.cacheFiles)")
            for object in rig.objects {
                let bytes = try [UInt8](Data(contentsOf: rig.folder.appending(path: object)))
                #expect(object.contains(ContentHash.of(bytes)), "\(object) holds other bytes")
            }

            // Offline, the same covers come from the cache and the others fail, with no request.
            let requests = rig.server.totalRequests
            let offline = await rig.withFetcher(policy) { fetcher in
                var again: [String?] = []
                for url in urls { again.append((await fetcher.cover(for: url, mode: .offline)).cover?.contentHash) }
                return again
            }
            for index in 0..<count {
                #expect(offline[index] == results[index]?.cover?.contentHash, "seed \(seed), cover \(index): offline")
            }
            #expect(rig.server.totalRequests == requests)
        }
    }

    /// `--refresh` with faults drawn at random: covers downloaded whole, then revalidated while the
    /// server answers 304, a changed image, the same one again, or any fault of the list above.
    /// A revalidation that fails keeps the cached copy (the server being down today must not
    /// turn yesterday's cover into a placeholder), so every cover comes back:
    /// - as the cached copy, or as a body the server framed whole as an image;
    /// - with one end event, revalidated or from the cache;
    /// - after a conditional request that named the cached copy's ETag;
    /// - unchanged when every answer was 304, and as the new image when every answer was it.
    @Test(arguments: (UInt64(1)...UInt64(6)).map { $0 })
    func refreshingThroughFaultsKeepsEveryCover(seed: UInt64) async throws {
        let count = 30
        var generator = SeededGenerator(seed: 0x5EED_6000 + seed)
        var scripts: [Script] = []
        var onlyNotModified: Set<Int> = []
        var onlyChanged: Set<Int> = []
        for index in 0..<count {
            let answers = (0..<Int.random(in: 1...3, using: &generator)).map { _ -> Answer in
                switch index % 6 {
                case 0, 3: .notModified
                case 1: .changed
                case 4: Bool.random(using: &generator) ? .changed : Answer.allCases.randomElement(using: &generator)!
                default: Answer.allCases.randomElement(using: &generator)!
                }
            }
            if answers.allSatisfy({ $0 == .notModified }) { onlyNotModified.insert(index) }
            if answers.allSatisfy({ $0 == .changed }) { onlyChanged.insert(index) }
            scripts.append(answers.map { Self.steps($0, index: index, count: count, using: &generator) })
        }
        let framed = Self.framed(in: scripts)

        try await CoverTestRig.run { rig in
            var policy = CoverTestRig.fastPolicy
            policy.maxBodyBytes = 100_000
            let urls = (0..<count).map { rig.server.url("/covers/\($0).png") }
            for index in 0..<count {
                let image = Self.image(index)
                rig.server.route("/covers/\(index).png") { _ in
                    .response(.ok, [("Content-Type", "image/png"), ("ETag", "\"\(index)\"")], body: image)
                }
            }
            let first = await rig.withFetcher(policy) { fetcher in
                var covers: [String?] = []
                for url in urls { covers.append(await fetcher.cover(for: url).cover?.contentHash) }
                return covers
            }
            #expect(first.allSatisfy { $0 != nil }, "the first build downloads every cover")
            let before = rig.observer.coverEvents.count

            // The first build made one request of each cover: this build's answers follow it.
            Self.route(scripts, on: rig, after: 1)
            let refreshed = await Self.fetchAll(urls, on: rig, policy: policy, mode: .refresh)

            let events = Array(rig.observer.coverEvents.dropFirst(before))
            for index in 0..<count {
                let name = "seed \(seed), cover \(index)"
                guard let cover = refreshed[index]?.cover else {
                    Issue.record("\(name): \(refreshed[index]?.reason ?? "no result"), though the cache held it")
                    continue
                }
                let bytes = try [UInt8](Data(contentsOf: cover.file))
                #expect(ContentHash.of(bytes) == cover.contentHash, "\(name): its object is not named by its hash")
                #expect(bytes == Self.image(index) || framed.contains(bytes), "\(name): \(bytes.count) bytes neither the cached copy nor framed whole")
                let ends = Self.ends(of: urls[index], in: events)
                #expect(ends.count == 1, "\(name): \(ends)")
                // (Another cover's redirect here carries that cover's validators, and may come first.)
                let requests = rig.server.headers(of: "/covers/\(index).png").dropFirst()
                #expect(requests.contains { $0.first(name: "If-None-Match") == "\"\(index)\"" }, "\(name): \(requests.map { $0.first(name: "If-None-Match") })")
                if onlyNotModified.contains(index) {
                    #expect(bytes == Self.image(index), "\(name): 304, yet changed")
                    #expect(ends.first.map { if case .revalidated = $0 { true } else { false } } == true, "\(name): \(ends)")
                }
                if onlyChanged.contains(index) {
                    #expect(bytes == Self.image(index + 100), "\(name): a new image, yet kept the old")
                    #expect(ends.first.map { if case .downloaded = $0 { true } else { false } } == true, "\(name): \(ends)")
                }
            }
            #expect(rig.cacheFiles.filter { $0.contains(".tmp-") }.isEmpty, "temporary files left: \(rig.cacheFiles)")
        }
    }
}
