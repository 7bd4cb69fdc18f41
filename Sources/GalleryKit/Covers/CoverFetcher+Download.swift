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
    /// How much of an unwanted body (an error page, a redirect's) is read to keep the connection
    /// for the next request; a larger one closes the connection instead.
    static let drainLimit = 64 * 1024

    /// One attempt at `url` (redirects included), within the total timeout.
    func attempt(_ url: URL, revalidating cached: CoverCacheEntry?) async -> Result<CoverResponse, CoverDownloadError> {
        let total = policy.totalTimeout
        return await withTaskGroup(of: Result<CoverResponse, CoverDownloadError>?.self) { group in
            group.addTask { await self.request(url, revalidating: cached) }
            group.addTask {
                do { try await Task.sleep(for: total) } catch { return nil }
                return .failure(.totalTimeout(total))
            }
            // The first answer wins; cancelling the other ends a download cut off by the
            // timeout (AsyncHTTPClient closes its connection) or the now pointless timer.
            for await outcome in group {
                guard let outcome else { continue }
                group.cancelAll()
                return outcome
            }
            return .failure(.cancelled)
        }
    }

    /// Sends the request, follows redirects and reads the body.
    private func request(_ url: URL, revalidating cached: CoverCacheEntry?) async -> Result<CoverResponse, CoverDownloadError> {
        var current = url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        let deadline = NIODeadline.now() + policy.totalTimeout.timeAmount
        while true {
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: policy.userAgent)
            request.headers.add(name: "Accept", value: Self.accept)
            if let etag = cached?.etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let date = cached?.lastModified { request.headers.add(name: "If-Modified-Since", value: date) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, deadline: deadline)
            } catch {
                return .failure(CoverDownloadError(error, policy: policy))
            }
            let status = Int(response.status.code)
            if Self.redirectStatuses.contains(status) {
                await Self.drain(response.body)
                let location = response.headers.first(name: "Location")
                guard let location, let target = URL(string: location, relativeTo: current)?.absoluteURL, target.scheme != nil else {
                    return .failure(.redirectWithoutTarget(status: status, location: location))
                }
                let scheme = target.scheme?.lowercased() ?? ""
                guard scheme == "http" || scheme == "https" else { return .failure(.redirectScheme(scheme)) }
                redirects += 1
                guard redirects <= policy.maxRedirects else { return .failure(.tooManyRedirects(limit: policy.maxRedirects)) }
                guard visited.insert(target.absoluteString).inserted else { return .failure(.redirectLoop(target.absoluteString)) }
                current = target
                continue
            }
            if status == 304, cached != nil {
                await Self.drain(response.body)
                return .success(.notModified(etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified")))
            }
            guard status == 200 || status == 203 else {
                await Self.drain(response.body)
                let retryAfter = response.headers.first(name: "Retry-After").flatMap { RetryAfter.delay(from: $0) }
                return .failure(.status(status, retryAfter: retryAfter))
            }
            return await readImage(response, url: url.absoluteString)
        }
    }

    /// Streams the body into memory under the size limit, and checks it is an image.
    private func readImage(_ response: HTTPClientResponse, url: String) async -> Result<CoverResponse, CoverDownloadError> {
        let limit = policy.maxBodyBytes
        let expected = response.headers.first(name: "Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let expected, expected > limit {
            // Not reading the body cancels the request and closes its connection.
            return .failure(.tooLarge(limit: limit, announced: expected))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(expected ?? 256 * 1024, limit))
        var kind: ImageKind?
        let clock = ContinuousClock()
        var lastReport = clock.now
        observer.receive(.cover(.downloading(url: url, received: 0, expected: expected)))
        do {
            for try await chunk in response.body {
                bytes.append(contentsOf: chunk.readableBytesView)
                // Leaving the loop early drops the body, which cancels the request mid-stream.
                if bytes.count > limit { return .failure(.tooLarge(limit: limit, announced: nil)) }
                if kind == nil, bytes.count >= 1024 {
                    guard let sniffed = ImageKind.sniff(bytes) else { return .failure(.notAnImage(head: Array(bytes.prefix(64)))) }
                    kind = sniffed
                }
                if clock.now - lastReport >= policy.progressInterval {
                    lastReport = clock.now
                    observer.receive(.cover(.downloading(url: url, received: bytes.count, expected: expected)))
                }
            }
        } catch {
            return .failure(CoverDownloadError(error, policy: policy, received: bytes.count, expected: expected))
        }
        if let expected, bytes.count < expected {
            return .failure(.closed(received: bytes.count, expected: expected))
        }
        guard let kind = kind ?? ImageKind.sniff(bytes) else { return .failure(.notAnImage(head: Array(bytes.prefix(64)))) }
        return .success(.image(
            bytes: bytes, kind: kind,
            etag: response.headers.first(name: "ETag"),
            lastModified: response.headers.first(name: "Last-Modified"),
            contentType: response.headers.first(name: "Content-Type")
        ))
    }

    /// Reads and discards a small unwanted body so its connection can serve the next request.
    private static func drain(_ body: HTTPClientResponse.Body) async {
        var read = 0
        do {
            for try await chunk in body {
                read += chunk.readableBytes
                if read > drainLimit { return }
            }
        } catch {}
    }
}
