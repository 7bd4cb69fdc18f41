import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// What one successful attempt brought back.
enum CoverResponse: Sendable {
    /// `304 Not Modified` to a conditional request, with any new validators.
    case notModified(etag: String?, lastModified: String?)
    /// A whole image body, sniffed, with the headers the cache records.
    case image(bytes: [UInt8], kind: ImageKind, etag: String?, lastModified: String?, contentType: String?)
}

extension CoverFetcher {
    /// The `Accept` header: the formats a cover may be, then anything (the bytes decide).
    static let accept = "image/webp,image/png,image/jpeg,image/gif,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
    /// The statuses whose `Location` is followed.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// One attempt at `url`, following redirects, within the total timeout (one deadline for
    /// every request of the attempt, body included).
    func attempt(_ url: URL, revalidating cached: CoverCacheEntry?) async -> Result<CoverResponse, CoverDownloadError> {
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        let deadline = NIODeadline.now() + policy.totalTimeout.timeAmount
        // A failure at an address the URL redirected to names it: a 404 or a TLS failure there
        // was told as the URL's own, with advice about the URL as written (a QA pass).
        func failure(_ error: CoverDownloadError) -> Result<CoverResponse, CoverDownloadError> {
            .failure(current == url ? error : .redirected(to: current.absoluteString, error))
        }
        while true {
            let response: CoverResponseCollector.Collected
            switch await get(current, revalidating: cached, deadline: deadline, reportingAs: url.absoluteString) {
            case .success(let collected): response = collected
            case .failure(.cancelled): return .failure(.cancelled)
            case .failure(let error): return failure(error)
            }
            let status = response.status
            if Self.redirectStatuses.contains(status) {
                let location = response.headers.first(name: "Location")
                guard let location, let target = URL(string: location, relativeTo: current)?.absoluteURL, target.scheme != nil else {
                    return .failure(.redirectWithoutTarget(status: status, location: location))
                }
                let scheme = target.scheme?.lowercased() ?? ""
                guard scheme == "http" || scheme == "https" else { return .failure(.redirectScheme(scheme)) }
                if let port = target.port, !CoverLocator.ports.contains(port) {
                    return .failure(.badPort(port, redirect: target.absoluteString))
                }
                redirects += 1
                guard redirects <= policy.maxRedirects else { return .failure(.tooManyRedirects(limit: policy.maxRedirects)) }
                guard visited.insert(target.absoluteString).inserted else { return .failure(.redirectLoop(target.absoluteString)) }
                current = target
                continue
            }
            if status == 304, cached != nil {
                return .success(.notModified(etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified")))
            }
            guard let body = response.body else {
                let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.delay(from: $0) }
                return failure(.status(status, retryAfter: retryAfter))
            }
            guard let kind = response.kind else { return failure(.notAnImage(head: Array(body.readableBytesView.prefix(64)))) }
            return .success(.image(
                bytes: Array(body.readableBytesView), kind: kind,
                etag: response.headers.first(name: "ETag"),
                lastModified: response.headers.first(name: "Last-Modified"),
                contentType: response.headers.first(name: "Content-Type")
            ))
        }
    }

    /// One GET, its response read by a ``CoverResponseCollector``; sent again at once when the
    /// connection closed, or began with bytes that are not HTTP, before any answer came.
    ///
    /// A server that closes a kept-alive connection without saying so (no `Connection: close`)
    /// may close it just as the next request goes out on it: that request never reached the
    /// server. Browsers and curl send it again on a new connection, and so does this, once,
    /// without counting an attempt or waiting. Counted as a failed attempt, it failed a cover
    /// behind a redirect on every attempt, as each one followed the redirect on the connection
    /// that brought it.
    ///
    /// A server whose answer ran past its `Content-Length` left those bytes on the connection,
    /// where they began the next cover's answer, which failed as "not valid HTTP" with advice to
    /// check the URL's port, and was not tried again. The connection is closed on that error, so
    /// the request is sent again, as many times as there may be such connections to the host and
    /// one more: a server that is not HTTP at all fails every time, with the same message. (Only
    /// for an answer that does not start like HTTP: headers too large are the server's own.)
    private func get(
        _ url: URL, revalidating cached: CoverCacheEntry?, deadline: NIODeadline, reportingAs cover: String
    ) async -> Result<CoverResponseCollector.Collected, CoverDownloadError> {
        var (result, answered) = await getOnce(url, revalidating: cached, deadline: deadline, reportingAs: cover)
        if case .failure(.closed) = result, !answered, NIODeadline.now() < deadline {
            return await getOnce(url, revalidating: cached, deadline: deadline, reportingAs: cover).result
        }
        var resent = 0
        while case .failure(let error) = result, error.startsUnlikeHTTP, !answered, resent <= policy.perHost, NIODeadline.now() < deadline {
            resent += 1
            (result, answered) = await getOnce(url, revalidating: cached, deadline: deadline, reportingAs: cover)
        }
        return result
    }

    /// One GET, and whether any of an answer (its head) arrived.
    private func getOnce(
        _ url: URL, revalidating cached: CoverCacheEntry?, deadline: NIODeadline, reportingAs cover: String
    ) async -> (result: Result<CoverResponseCollector.Collected, CoverDownloadError>, answered: Bool) {
        // SwiftNIO traps on a port that does not fit in 16 bits (`attempt` checks redirects').
        if let port = url.port, !CoverLocator.ports.contains(port) { return (.failure(.badPort(port, redirect: nil)), false) }
        // Before every request, a redirect's too: a public host may send the build inward.
        if let why = await gate.addressRefusal(for: url, rule: policy.privateHosts) { return (.failure(.forbiddenAddress(why)), false) }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: policy.userAgent)
        headers.add(name: "Accept", value: Self.accept)
        if let etag = cached?.etag { headers.add(name: "If-None-Match", value: etag) }
        if let date = cached?.lastModified { headers.add(name: "If-Modified-Since", value: date) }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: headers)
        } catch {
            return (.failure(CoverDownloadError(error, policy: policy)), false)
        }
        let collector = CoverResponseCollector(
            url: cover, limit: policy.maxBodyBytes, progressInterval: policy.progressInterval.timeAmount, observer: observer
        )
        let task = client.execute(request: request, delegate: collector, deadline: deadline)
        do {
            let collected = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
            return (.success(collected), true)
        } catch CoverDownloadError.drainLimitReached {
            // An error page or redirect with a long body: its head is all we need.
            guard let head = collector.head else { return (.failure(.cancelled), false) }
            return (.success(head), true)
        } catch {
            let (received, expected) = collector.progress
            return (.failure(CoverDownloadError(error, policy: policy, received: received, expected: expected)), collector.head != nil)
        }
    }
}
