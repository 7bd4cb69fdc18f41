import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import GalleryKit

/// Each fault a cover server can throw at the fetcher ends in its documented outcome, and leaves
/// no partial file in the cache.
@Suite struct CoverFetcherFaultTests {
    let image = TestImages.png(width: 16, height: 16)

    @Test func notFoundFailsAtOnceWithoutRetrying() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/missing.png") { _ in FaultyHTTPServer.text(.notFound, "nope") }
            let result = await rig.fetch("/missing.png")
            let reason = try #require(result.reason)
            #expect(reason.hasPrefix("HTTP 404 Not Found; check the URL"))
            #expect(rig.server.requests(to: "/missing.png") == 1)
            #expect(rig.observer.coverEvents.last == .failed(url: rig.server.url("/missing.png").absoluteString, reason: reason))
            rig.expectNothingStored()
        }
    }

    @Test func serverErrorThenSuccessIsRetried() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/flaky.png") { request in
                request.number == 1
                    ? FaultyHTTPServer.text(.internalServerError, "oops")
                    : .response(.ok, [("Content-Type", "image/png")], body: image)
            }
            let cover = try #require(await rig.fetch("/flaky.png").cover)
            #expect(try Data(contentsOf: cover.file) == Data(image))
            #expect(rig.server.requests(to: "/flaky.png") == 2)
        }
    }

    @Test func serverErrorsThatPersistGiveUpAfterTheRetries() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/down.png") { _ in FaultyHTTPServer.text(.serviceUnavailable, "later") }
            let reason = try #require(await rig.fetch("/down.png").reason)
            #expect(reason.hasPrefix("HTTP 503 Service Unavailable (gave up after 4 attempts)"))
            #expect(rig.server.requests(to: "/down.png") == 4)
            rig.expectNothingStored()
        }
    }

    /// A server that asks for an hour is not asked again in this build: waiting the 10 s cap
    /// three times (30 s on every build) would not honour it either.
    @Test func aRetryAfterBeyondTheCapGivesUpAtOnceAndSaysWhy() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/later.png") { _ in FaultyHTTPServer.text(.tooManyRequests, "come back in an hour", [("Retry-After", "3600")]) }
            let reason = try #require(await rig.fetch("/later.png").reason)
            #expect(reason == "HTTP 429 Too Many Requests (the server asks to wait 1 h); the server is busy or failing; try again later")
            #expect(rig.server.requests(to: "/later.png") == 1)
            rig.expectNothingStored()
        }
    }

    /// The wait is told from the cap by minutes, not by a wall-clock bound close to the 1 s: a
    /// machine stalled under a full parallel run stretched this 1 s wait to 18 s, 35 s, and once
    /// (in CI) to 102 s, past the 90 s bound this test had. The cap is kept to 400 s, so a
    /// fetcher that waited for it fails within minutes. A time limit does not stop such a wait
    /// sooner: with a one-hour cap and a fetcher made to wait for it, this test ran on for
    /// 17 minutes past a one-minute `.timeLimit`.
    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/busy.png") { request in
                request.number == 1
                    ? FaultyHTTPServer.text(.tooManyRequests, "slow down", [("Retry-After", "1")])
                    : .response(.ok, [("Content-Type", "image/png")], body: image)
            }
            var policy = CoverTestRig.fastPolicy
            policy.backoffCap = .seconds(400)
            let clock = ContinuousClock()
            let start = clock.now
            let result = await rig.fetch("/busy.png", policy: policy)
            let waited = clock.now - start
            #expect(result.cover != nil)
            #expect(rig.server.requests(to: "/busy.png") == 2)
            #expect(waited >= .milliseconds(950), "the fetcher retried after \(waited), not after the 1 s the server asked for")
            #expect(waited < .seconds(240), "the fetcher waited \(waited): for its 400 s cap, not the 1 s asked for?")
        }
    }

    @Test func responseSlowerThanTheReadTimeoutFails() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/slow.png") { _ in
                [.pause(.seconds(2))] + .response(.ok, [("Content-Type", "image/png")], body: image)
            }
            var policy = CoverTestRig.fastPolicy
            policy.readTimeout = .milliseconds(200)
            policy.retries = 1
            let reason = try #require(await rig.fetch("/slow.png", policy: policy).reason)
            #expect(reason.hasPrefix("timed out after 0.2 s without data (gave up after 2 attempts)"))
            #expect(await Self.caughtUp(to: 2) { rig.server.requests(to: "/slow.png") } == 2)
            rig.expectNothingStored()
        }
    }

    /// A silent server costs a whole timeout per attempt: a cover tries at most two that time
    /// out, whatever the retries allow (a stalled URL cost 4 × 30 s on every build), and one
    /// when it failed in a build before; a quick fault keeps every retry.
    @Test func timeoutsAreTriedTwiceAndOnceAfterAnEarlierBuildFailed() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/stall.png") { _ in [.pause(.seconds(2))] + .response(.ok, [("Content-Type", "image/png")], body: image) }
            var policy = CoverTestRig.fastPolicy
            policy.readTimeout = .milliseconds(200)
            policy.retries = 3
            let first = try #require(await rig.fetch("/stall.png", policy: policy).reason)
            #expect(first.hasPrefix("timed out after 0.2 s without data (gave up after 2 attempts)"), "\(first)")
            #expect(await Self.caughtUp(to: 2) { rig.server.requests(to: "/stall.png") } == 2)
            // The next build, whose cache remembers the failure, waits once.
            let second = try #require(await rig.fetch("/stall.png", policy: policy).reason)
            #expect(second.hasPrefix("timed out after 0.2 s without data;"), "\(second)")
            #expect(await Self.caughtUp(to: 3) { rig.server.requests(to: "/stall.png") } == 3)
            rig.expectNothingStored()
        }
    }

    /// A host that has stopped answering is given up after two of its covers in a row time out:
    /// its other covers fail at once, saying why, instead of costing minutes each (hours for a
    /// supplier's catalogue). The next build tries the host again.
    @Test func aHostThatStopsAnsweringIsSkippedAfterTwoCovers() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            for index in 0..<6 {
                rig.server.route("/slow/\(index).png") { _ in [.pause(.seconds(2))] + .response(.ok, [("Content-Type", "image/png")], body: image) }
            }
            rig.server.route("/fine.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: image) }
            var policy = CoverTestRig.fastPolicy
            policy.readTimeout = .milliseconds(200)
            policy.retries = 1
            policy.perHost = 1
            let reasons = await rig.withFetcher(policy) { fetcher in
                var reasons: [String] = []
                for index in 0..<6 {
                    reasons.append(await fetcher.cover(for: rig.server.url("/slow/\(index).png"), mode: .useCache).reason ?? "fetched")
                }
                return reasons
            }
            #expect(reasons.prefix(2).allSatisfy { $0.hasPrefix("timed out after 0.2 s without data (gave up after 2 attempts)") }, "\(reasons)")
            let host = rig.server.url("/").host ?? ""
            for reason in reasons.dropFirst(2) {
                #expect(reason == "not tried: \(host) did not answer in time for 2 other covers in a row in this build, so its remaining covers are skipped until the next build; check that the host is up, or raise [covers] timeout and read_timeout", "\(reason)")
            }
            _ = await Self.caughtUp(to: 4) { (0..<6).map { rig.server.requests(to: "/slow/\($0).png") }.reduce(0, +) }
            #expect((0..<6).map { rig.server.requests(to: "/slow/\($0).png") } == [2, 2, 0, 0, 0, 0])
            // A new build tries the host again (with the rig's long timeouts: a 200 ms one can
            // pass on a loaded machine before even a quick answer is read).
            #expect(await rig.fetch("/fine.png").cover?.size == image.count)
        }
    }

    /// The same with the covers asked for at once, one at a time to the host: the cover let in
    /// when the second gives up knows it did, so a third is not tried (it was, in about a third
    /// of builds, and cost a full timeout: the slot was given back before the timeout was
    /// counted). Ten builds, so that the race, were it back, would likely show.
    @Test func aHostThatStopsAnsweringIsSkippedAfterTwoCoversAskedForAtOnce() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            for round in 0..<10 {
                for index in 0..<5 {
                    rig.server.route("/slow/\(round)/\(index).png") { _ in [.pause(.seconds(2))] + .response(.ok, [("Content-Type", "image/png")], body: image) }
                }
                var policy = CoverTestRig.fastPolicy
                policy.readTimeout = .milliseconds(200)
                policy.retries = 0
                policy.perHost = 1
                let reasons = await rig.withFetcher(policy) { fetcher in
                    await withTaskGroup(of: String.self) { group in
                        for index in 0..<5 {
                            group.addTask { await fetcher.cover(for: rig.server.url("/slow/\(round)/\(index).png"), mode: .useCache).reason ?? "fetched" }
                        }
                        return await group.reduce(into: []) { $0.append($1) }
                    }
                }
                #expect(reasons.filter { $0.hasPrefix("timed out") }.count == 2, "build \(round): \(reasons)")
                #expect(reasons.filter { $0.hasPrefix("not tried: ") }.count == 3, "build \(round): \(reasons)")
                #expect(await Self.caughtUp(to: 2) { (0..<5).map { rig.server.requests(to: "/slow/\(round)/\($0).png") }.reduce(0, +) } == 2, "build \(round)")
            }
        }
    }

    /// A cover that was tried, and whose host was given up before its retry, says what its
    /// request met and why there was no other: it said "not tried: … (gave up after 2
    /// attempts)", though the server had its request (two QA passes). Three covers, one at a
    /// time to the host, one retry each: the first asked for is let in first and its retry
    /// waits behind the other two, so each is tried once before any is retried; the two that
    /// time out again give the host up, and the third is not retried.
    @Test func aCoverTriedBeforeItsHostWasGivenUpSaysWhatItMet() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            for index in 0..<3 {
                rig.server.route("/slow/\(index).png") { _ in [.pause(.seconds(3))] + .response(.ok, [("Content-Type", "image/png")], body: image) }
            }
            var policy = CoverTestRig.fastPolicy
            policy.readTimeout = .milliseconds(500)
            policy.retries = 1
            policy.perHost = 1
            let reasons = await rig.withFetcher(policy) { fetcher in
                await withTaskGroup(of: String.self) { group in
                    group.addTask { await fetcher.cover(for: rig.server.url("/slow/0.png"), mode: .useCache).reason ?? "fetched" }
                    _ = await Self.caughtUp(to: 1) { rig.server.requests(to: "/slow/0.png") }
                    for index in 1..<3 {
                        group.addTask { await fetcher.cover(for: rig.server.url("/slow/\(index).png"), mode: .useCache).reason ?? "fetched" }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            let host = rig.server.url("/").host ?? ""
            let advice = "check that the host is up, or raise [covers] timeout and read_timeout"
            #expect(reasons.filter { $0 == "timed out after 0.5 s without data (gave up after 2 attempts); the server is slow or unreachable; try again later" }.count == 2, "\(reasons)")
            #expect(reasons.filter { $0 == "timed out after 0.5 s without data; then \(host) did not answer in time for 2 other covers in a row in this build, so it was not tried again; \(advice)" }.count == 1, "\(reasons)")
            #expect(await Self.caughtUp(to: 5) { (0..<3).map { rig.server.requests(to: "/slow/\($0).png") }.reduce(0, +) } == 5)
        }
    }

    /// A server's count once it has caught up with the client: a request the client gave up on
    /// after 200 ms may not have been read yet by a server starved on a loaded machine (the suite
    /// runs in parallel on two cores; the count was 1 of 2 in about one run of three there).
    static func caughtUp(to expected: Int, _ count: () -> Int) async -> Int {
        // Long, for a loaded machine: it only bounds a count that never comes.
        let deadline = ContinuousClock.now + .seconds(30)
        while count() < expected, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return count()
    }

    @Test func bodyTricklingPastTheTotalTimeoutFails() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/trickle.png") { _ in
                var headers = HTTPHeaders([("Content-Type", "image/png")])
                headers.add(name: "Content-Length", value: String(image.count + 100))
                // Each byte comes well within the read timeout; all of them take 2 s.
                var steps: [FaultyHTTPServer.Step] = [.head(.ok, headers), .body(image)]
                for _ in 0..<100 { steps += [.pause(.milliseconds(20)), .body([0])] }
                return steps + [.end]
            }
            var policy = CoverTestRig.fastPolicy
            policy.totalTimeout = .milliseconds(500)
            policy.retries = 0
            let reason = try #require(await rig.fetch("/trickle.png", policy: policy).reason)
            #expect(reason.hasPrefix("timed out after 0.5 s (the whole download)"))
            rig.expectNothingStored()
        }
    }

    @Test func connectionClosedMidBodyFailsWithoutAPartialObject() async throws {
        try await CoverTestRig.run { rig in
            let image = TestImages.png(width: 256, height: 256)
            rig.server.route("/cut.png") { _ in
                var headers = HTTPHeaders([("Content-Type", "image/png")])
                headers.add(name: "Content-Length", value: "204800")
                return [.head(.ok, headers), .body(Array(image.prefix(51_200))), .pause(.milliseconds(20)), .close]
            }
            let reason = try #require(await rig.fetch("/cut.png").reason)
            #expect(reason.hasPrefix("the server closed the connection after 51 200 of 204 800 bytes (gave up after 4 attempts)"))
            #expect(rig.server.requests(to: "/cut.png") == 4)
            rig.expectNothingStored()
        }
    }

    @Test func connectionClosedMidBodyThenWholeBodySucceeds() async throws {
        try await CoverTestRig.run { rig in
            let image = TestImages.png(width: 64, height: 64)
            rig.server.route("/cut-once.png") { request in
                guard request.number == 1 else { return .response(.ok, [("Content-Type", "image/png")], body: image) }
                var headers = HTTPHeaders([("Content-Type", "image/png")])
                headers.add(name: "Content-Length", value: String(image.count))
                return [.head(.ok, headers), .body(Array(image.prefix(5000))), .pause(.milliseconds(20)), .close]
            }
            let cover = try #require(await rig.fetch("/cut-once.png").cover)
            #expect(cover.size == image.count)
            #expect(rig.server.requests(to: "/cut-once.png") == 2)
            #expect(rig.objects.count == 1)
        }
    }

    @Test func announcedBodyLargerThanTheLimitIsNotRead() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/huge.png") { _ in
                var headers = HTTPHeaders([("Content-Type", "image/png")])
                headers.add(name: "Content-Length", value: "64000000")
                return [.head(.ok, headers), .body(image), .stream(total: 64_000_000 - image.count, chunk: 65_536, fill: 0), .end]
            }
            let reason = try #require(await rig.fetch("/huge.png").reason)
            #expect(reason == "larger than the 1 MB limit (Content-Length: 64 000 000 bytes); use a smaller image, or raise [covers] max_bytes in gallery.toml", "\(reason)")
            #expect(rig.server.requests(to: "/huge.png") == 1)
            let stream = try await Self.waitForStream(on: rig.server, path: "/huge.png")
            #expect(stream.cutShort, "the server sent all \(stream.total) bytes: the client read them")
            rig.expectNothingStored()
        }
    }

    @Test func chunkedBodyGrowingPastTheLimitStopsEarly() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/endless.png") { _ in
                // No Content-Length: the body is chunked and its size unknown until it ends.
                [.head(.ok, HTTPHeaders([("Content-Type", "image/png")])), .body(image), .stream(total: 64_000_000, chunk: 65_536, fill: 0), .end]
            }
            let reason = try #require(await rig.fetch("/endless.png").reason)
            #expect(reason == "larger than the 1 MB limit; use a smaller image, or raise [covers] max_bytes in gallery.toml", "\(reason)")
            let stream = try await Self.waitForStream(on: rig.server, path: "/endless.png")
            #expect(stream.cutShort)
            #expect(stream.sent < 32_000_000, "the server sent \(stream.sent) bytes before the client stopped")
            rig.expectNothingStored()
        }
    }

    @Test func imageBytesWithAWrongContentTypeAreAccepted() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/mislabelled") { _ in .response(.ok, [("Content-Type", "text/html")], body: image) }
            let cover = try #require(await rig.fetch("/mislabelled").cover)
            #expect(cover.kind == .png)
            #expect(cover.file.pathExtension == "png")
            #expect(!rig.observer.coverEvents.contains { if case .failed = $0 { true } else { false } })
            #expect(rig.observer.diagnostics.isEmpty)
        }
    }

    /// An empty body is named so, with advice for a URL: a local file's ("copy or download the
    /// cover again") was given.
    @Test func anEmptyBodyIsNamedWithAdviceForAURL() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/empty.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: []) }
            let reason = try #require(await rig.fetch("/empty.png").reason)
            #expect(reason.contains("empty (0 bytes)") && reason.hasSuffix("; the server sent no bytes for it; check the URL in a browser, or try again later"), "\(reason)")
            rig.expectNothingStored()
        }
    }

    @Test func htmlWithAnImageContentTypeFails() async throws {
        try await CoverTestRig.run { rig in
            let page = Array("<!DOCTYPE html>\n<html><head><title>Cover</title></head><body>Log in to see this image</body></html>\n".utf8)
            rig.server.route("/page.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: page) }
            let reason = try #require(await rig.fetch("/page.png").reason)
            #expect(reason.hasPrefix("a web page, not an image; point cover_url at the image itself"), "\(reason)")
            #expect(rig.server.requests(to: "/page.png") == 1)
            rig.expectNothingStored()
        }
    }

    /// An image of a format gallery does not read is named, with what to do: a scanner's TIFF
    /// used to be "not an image … not a web page".
    @Test func anImageOfAnotherFormatIsNamed() async throws {
        try await CoverTestRig.run { rig in
            let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00] + Array(repeating: 0, count: 64)
            rig.server.route("/scan.tiff") { _ in .response(.ok, [("Content-Type", "image/tiff")], body: tiff) }
            let reason = try #require(await rig.fetch("/scan.tiff").reason)
            #expect(reason == "a TIFF image (a scanner's usual format), which gallery does not read as a cover; export it as JPEG or PNG", "\(reason)")
            rig.expectNothingStored()
        }
    }

    @Test func redirectsAreFollowed() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/old.png") { _ in FaultyHTTPServer.redirect("/new.png", status: .movedPermanently) }
            rig.server.route("/new.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: image) }
            #expect(await rig.fetch("/old.png").cover?.size == image.count)
            #expect(rig.server.requests(to: "/new.png") == 1)
        }
    }

    /// A server that closes each kept-alive connection once it answered, without saying so,
    /// closed it as the redirect's request went out on it: every attempt followed the redirect
    /// on the connection that brought it, and the cover failed ("the server closed the
    /// connection after 0 bytes (gave up after 4 attempts)"). The request is sent again at once
    /// on a new connection, as browsers and curl do.
    @Test func aRequestOnAConnectionTheServerClosedIsSentAgainAtOnce() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/moved.png") { _ in FaultyHTTPServer.redirect("/final.png") + [.closeOnNextRequest] }
            rig.server.route("/final.png") { _ in [FaultyHTTPServer.Step].response(.ok, [("Content-Type", "image/png")], body: image) + [.closeOnNextRequest] }
            #expect(await rig.fetch("/moved.png").cover?.size == image.count)
            #expect(rig.server.requests(to: "/moved.png") == 1, "the redirect was tried again")
            #expect(rig.server.requests(to: "/final.png") == 1)
            // The next cover from the host goes out on the connection closed under it, too.
            rig.server.route("/next.png") { _ in [FaultyHTTPServer.Step].response(.ok, [("Content-Type", "image/png")], body: image) }
            #expect(await rig.fetch("/next.png").cover?.size == image.count)
            #expect(rig.server.requests(to: "/next.png") == 1)
            #expect(rig.observer.coverEvents.allSatisfy { if case .failed = $0 { false } else { true } }, "\(rig.observer.coverEvents)")
        }
    }

    /// An answer that runs past its `Content-Length` leaves its last bytes on the kept-alive
    /// connection, where they begin the next cover's answer: that cover failed as "not valid HTTP
    /// (it does not start like an HTTP response)", with advice to check its port, and was not
    /// tried again (`RandomFaultTests` found it). It is sent again at once, on another connection.
    /// A server that is not HTTP at all still fails, with the same message, after a few requests.
    @Test func bytesAnAnswerLeftOnTheConnectionDoNotFailTheNextCover() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            let framed = Array(image.prefix(image.count - 10))
            // The rest only once the next request came on the connection, as a server writing its
            // file in pieces may send it; that request's answer waits until after them. (Sent at
            // once, the rest reached the idle connection first, which the client then closed.)
            let server = rig.server
            rig.server.route("/long.png") { _ in
                [.head(.ok, ["Content-Length": "\(framed.count)"]), .body(framed), .end,
                 .hold(until: { server.requests(to: "/next.png") > 0 }, limit: .seconds(30)), .raw(Array(image.suffix(10)))]
            }
            rig.server.route("/next.png") { request in
                (request.number == 1 ? [.pause(.milliseconds(200))] : []) + .response(.ok, [("Content-Type", "image/png")], body: image)
            }
            rig.server.route("/garbage.png") { _ in [.raw(Array("SSH-2.0-OpenSSH_9.2\r\n".utf8)), .close] }
            var policy = CoverTestRig.fastPolicy
            policy.perHost = 1
            let (long, next, garbage) = await rig.withFetcher(policy) { fetcher in
                let long = await fetcher.cover(for: rig.server.url("/long.png"))
                let next = await fetcher.cover(for: rig.server.url("/next.png"))
                return (long, next, await fetcher.cover(for: rig.server.url("/garbage.png")))
            }
            // What the server framed is what it said the cover is: the client cannot tell.
            #expect(long.cover?.size == framed.count)
            #expect(next.cover?.size == image.count, "\(next.reason ?? "")")
            #expect(rig.server.requests(to: "/next.png") == 2)
            #expect(rig.server.log.holdsThatTimedOut == 0)
            #expect(garbage.reason == "the server sent a response that is not valid HTTP (it does not start like an HTTP response); check that the URL's scheme and port are those of a web server")
            #expect(rig.server.requests(to: "/garbage.png") == policy.perHost + 2)
        }
    }

    @Test func endlessRedirectsStopAfterFive() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/chain") { request in FaultyHTTPServer.redirect("/chain?hop=\(request.number)") }
            let reason = try #require(await rig.fetch("/chain").reason)
            #expect(reason.hasPrefix("too many redirects (more than 5); point cover_url at the image's final address"))
            #expect(rig.server.requests(to: "/chain") == 6)
            rig.expectNothingStored()
        }
    }

    /// A cover URL that names a link-local address (a cloud's credentials service) is never
    /// fetched, nor is a redirect to one; with `private_hosts = "refuse"`, loopback is refused
    /// too, before any request reaches it, and a server elsewhere cannot send the build inward.
    /// A failure at the address a cover's URL redirected to names that address, and its advice
    /// is not about the URL as written: a 404 there, or a TLS handshake with a server that speaks
    /// plain HTTP, was told as the URL's own ("write the URL with http://", for a URL that was
    /// http:// already; a QA pass).
    @Test func aFailureAfterARedirectNamesWhereItWasSent() async throws {
        try await CoverTestRig.run { rig in
            let port = rig.server.url("/").port ?? 0
            rig.server.route("/moved.png") { _ in FaultyHTTPServer.redirect("/gone.png") }
            rig.server.route("/secure.png") { _ in FaultyHTTPServer.redirect("https://127.0.0.1:\(port)/x.png") }
            let gone = try #require(await rig.fetch("/moved.png").reason)
            #expect(gone == "HTTP 404 Not Found (redirected to http://127.0.0.1:\(port)/gone.png); check the URL, or save the image under content/ and point cover_url at it", "\(gone)")
            let secure = try #require(await rig.fetch("/secure.png").reason)
            #expect(secure.contains("(redirected to https://127.0.0.1:\(port)/x.png); the server the URL redirects to cannot be reached as it says; point cover_url at an address of the image that works"), "\(secure)")
            #expect(!secure.contains("write the URL with http://"), "\(secure)")
            // The URL's own failure is told as before.
            let direct = try #require(await rig.fetch("/gone.png").reason)
            #expect(direct.hasPrefix("HTTP 404 Not Found; "), "\(direct)")
        }
    }

    @Test func linkLocalAddressesAndOnRequestPrivateOnesAreNeverFetched() async throws {
        try await CoverTestRig.run { rig in
            let image = self.image
            rig.server.route("/inward") { _ in FaultyHTTPServer.redirect("http://169.254.169.254/latest/meta-data/") }
            rig.server.route("/ok.png") { _ in .response(.ok, [("Content-Type", "image/png")], body: image) }
            let redirected = try #require(await rig.fetch("/inward").reason)
            #expect(redirected.hasPrefix("not fetched: its address 169.254.169.254 is link-local (where cloud machines are served their credentials), which is never fetched (redirected to http://169.254.169.254/latest/meta-data/); point cover_url at a public copy"), "\(redirected)")
            #expect(rig.server.requests(to: "/inward") == 1, "not retried")
            for url in ["http://169.254.169.254/x.png", "http://[fe80::1]/x.png", "http://[::ffff:a9fe:a9fe]/x.png", "http://0.0.0.0:\(rig.server.url("/").port ?? 0)/ok.png"] {
                let result = await rig.withFetcher { await $0.cover(for: URL(string: url)!, mode: .useCache) }
                #expect(result.reason?.hasPrefix("not fetched: its address") == true, "\(url): \(result.reason ?? "fetched")")
            }
            #expect(rig.server.requests(to: "/ok.png") == 0)
            #expect(await rig.fetch("/ok.png").cover?.size == image.count, "loopback is allowed by default")
            var refusing = CoverTestRig.fastPolicy
            refusing.privateHosts = .refuse
            let refused = try #require(await rig.fetch("/other.png", policy: refusing).reason)
            #expect(refused.hasPrefix("not fetched: its address 127.0.0.1 is this machine's loopback, which [covers] private_hosts = \"refuse\" keeps from fetching"), "\(refused)")
            #expect(rig.server.requests(to: "/other.png") == 0, "no request reached the server")
            // A name is resolved first, and each of its addresses looked at.
            let named = URL(string: "http://localhost:\(rig.server.url("/").port ?? 0)/named.png")!
            let byName = await rig.withFetcher(refusing) { await $0.cover(for: named, mode: .useCache) }
            #expect(byName.reason?.contains("localhost has the address ") == true && byName.reason?.contains("which [covers] private_hosts = \"refuse\"") == true, "\(byName.reason ?? "fetched")")
            #expect(rig.server.requests(to: "/named.png") == 0)
        }
    }

    @Test func addressesAreClassedByTheirNetwork() {
        let cases: [(String, CoverAddress)] = [
            ("169.254.169.254", .linkLocal), ("0.0.0.0", .unspecified), ("127.0.0.1", .loopback), ("127.9.9.9", .loopback),
            ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.1", .publicAddress),
            ("192.168.0.10", .privateNetwork), ("100.64.0.1", .privateNetwork), ("8.8.8.8", .publicAddress), ("::", .unspecified),
            ("::1", .loopback), ("fe80::1", .linkLocal), ("fd00:ec2::254", .privateNetwork), ("::ffff:10.0.0.1", .privateNetwork),
            ("::ffff:169.254.169.254", .linkLocal), ("2001:db8::1", .publicAddress),
        ]
        for (text, kind) in cases { #expect(CoverAddress(numeric: text) == kind, "\(text)") }
        #expect(CoverAddress(numeric: "example.com") == nil)
    }

    @Test func redirectLoopFailsAsSoonAsItCloses() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/loop-a") { _ in FaultyHTTPServer.redirect("/loop-b") }
            rig.server.route("/loop-b") { _ in FaultyHTTPServer.redirect("/loop-a") }
            let reason = try #require(await rig.fetch("/loop-a").reason)
            #expect(reason.hasPrefix("redirect loop (back to \(rig.server.url("/loop-a").absoluteString))"))
            #expect(rig.server.requests(to: "/loop-a") == 1)
            #expect(rig.server.requests(to: "/loop-b") == 1)
            rig.expectNothingStored()
        }
    }

    @Test func redirectToFTPIsRefused() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/ftp") { _ in FaultyHTTPServer.redirect("ftp://127.0.0.1/cover.png") }
            let reason = try #require(await rig.fetch("/ftp").reason)
            #expect(reason.hasPrefix("redirect to a non-HTTP scheme (ftp:); only http and https are followed"))
            #expect(rig.server.requests(to: "/ftp") == 1)
            rig.expectNothingStored()
        }
    }

    /// A port beyond 65535 made SwiftNIO trap and took the whole build down; a server could
    /// send one in a redirect. It fails the cover, with nothing fetched from it.
    @Test func aPortThatDoesNotExistFailsTheCoverNotTheBuild() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/far") { _ in FaultyHTTPServer.redirect("http://127.0.0.1:99999/cover.png") }
            let redirected = try #require(await rig.fetch("/far").reason)
            #expect(redirected.hasPrefix("redirect to http://127.0.0.1:99999/cover.png, whose port 99999 does not exist (ports run from 1 to 65535); point cover_url at the image's final address"), "\(redirected)")
            #expect(rig.server.requests(to: "/far") == 1)
            let direct = await rig.withFetcher { await $0.cover(for: URL(string: "http://127.0.0.1:65536/cover.png")!, mode: .useCache) }
            #expect(direct.reason?.hasPrefix("port 65536 does not exist (ports run from 1 to 65535)") == true, "\(direct.reason ?? "fetched")")
            rig.expectNothingStored()
        }
    }

    /// An https URL at a plain-HTTP port: said in words, once, not BoringSSL's error stack
    /// (with the path it was built at) after four attempts.
    @Test func anHTTPSURLAtAPlainPortSaysSoOnce() async throws {
        try await CoverTestRig.run { rig in
            var parts = try #require(URLComponents(url: rig.server.url("/cover.png"), resolvingAgainstBaseURL: false))
            parts.scheme = "https"
            let url = try #require(parts.url)
            let reason = try #require(await rig.withFetcher { await $0.cover(for: url, mode: .useCache) }.reason)
            #expect(reason == "the TLS handshake failed: the server does not speak TLS on this port; if the server serves plain HTTP, write the URL with http://")
            rig.expectNothingStored()
        }
    }

    /// A port that takes the connection but never answers the TLS handshake is a timeout, as a
    /// plain-HTTP one that never answers is: tried twice, not four times as a connection error
    /// (41 s a cover with the default timeouts), and counted towards the host's skip.
    @Test func aTLSHandshakeThatNeverEndsIsATimeout() async throws {
        // A socket that listens but never accepts: the kernel completes the TCP handshake.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        #expect(bound)
        let url = try #require(URL(string: "https://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/cover.png"))
        try await CoverTestRig.run { rig in
            var policy = CoverTestRig.fastPolicy
            policy.connectTimeout = .milliseconds(300)
            policy.retries = 3
            let reason = try #require(await rig.withFetcher(policy) { await $0.cover(for: url, mode: .useCache) }.reason)
            #expect(reason.hasPrefix("could not connect within 0.3 s (gave up after 2 attempts); the server is slow or unreachable"), "\(reason)")
            rig.expectNothingStored()
        }
    }

    /// A server that gzips what gallery never asked it to compress: named as such, not as a
    /// web page.
    @Test func aGzippedBodyIsNamed() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/zipped.png") { _ in .response(.ok, [("Content-Type", "image/png"), ("Content-Encoding", "gzip")], body: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03] + Array(repeating: 0x55, count: 100)) }
            let reason = try #require(await rig.fetch("/zipped.png").reason)
            #expect(reason == "gzip-compressed data, not an image as it is; point cover_url at an uncompressed copy (a server that sends Content-Encoding: gzip unasked is misconfigured), or gunzip the file")
            rig.expectNothingStored()
        }
    }

    /// A URL no request can carry (a control character in its host) fails once, not after four
    /// identical attempts.
    @Test func aURLNoRequestCanCarryIsTriedOnce() async throws {
        try await CoverTestRig.run { rig in
            let url = try #require(URL(string: "http://%7f.0.0.1:\(rig.server.url("/").port ?? 80)/cover.png"))
            let reason = try #require(await rig.withFetcher { await $0.cover(for: url, mode: .useCache) }.reason)
            #expect(reason == "this URL cannot be requested (invalid header field values); check the URL for stray characters, such as a percent-encoded control character in the host")
            rig.expectNothingStored()
        }
    }

    /// Headers no client would read to the end are a broken server, not a passing fault: one
    /// attempt, and advice that fits.
    @Test func headersTooLargeAreNotRetried() async throws {
        try await CoverTestRig.run { rig in
            rig.server.route("/loud.png") { _ in .response(.ok, [("X-Padding", String(repeating: "a", count: 200_000))], body: self.image) }
            let reason = try #require(await rig.fetch("/loud.png").reason)
            #expect(reason == "the server sent a response that is not valid HTTP (its headers are too large); check that the URL's scheme and port are those of a web server")
            #expect(rig.server.requests(to: "/loud.png") == 1)
            rig.expectNothingStored()
        }
    }

    @Test func refusedConnectionFailsAfterRetries() async throws {
        let closed = try await FaultyHTTPServer.start()
        let url = closed.url("/cover.png")
        try await closed.stop()
        try await CoverTestRig.run { rig in
            let result = await rig.withFetcher { await $0.cover(for: url, mode: .useCache) }
            let reason = try #require(result.reason)
            #expect(reason.hasPrefix("connection refused (gave up after 4 attempts); check the URL's host and port"))
            rig.expectNothingStored()
        }
    }

    /// The record of the body streamed for `path`, once the server has finished with it.
    static func waitForStream(on server: FaultyHTTPServer, path: String) async throws -> FaultyHTTPServer.StreamRecord {
        for _ in 0..<200 {
            if let stream = server.streams(to: path).first { return stream }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw FaultyHTTPServer.ServerError(reason: "the server never finished streaming \(path)")
    }
}
