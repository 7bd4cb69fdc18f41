import AsyncHTTPClient
import Foundation
import NIOCore

/// Gets remote covers into the ``CoverCache``: the seed's `HTTPClient.downloadImage`, made to
/// survive thousands of albums and unreliable servers.
///
/// - Downloads run under a global and a per-host limit (``CoverFetchPolicy``), and a URL is
///   downloaded once however many albums ask for it at the same time: later callers await the
///   first one's result.
/// - Redirects are followed by the fetcher itself, only to `http:`/`https:`, at most
///   ``CoverFetchPolicy/maxRedirects`` times; a redirect back to an address already visited is a
///   loop and fails at once.
/// - The body is streamed and dropped as soon as it passes ``CoverFetchPolicy/maxBodyBytes``.
/// - **The bytes decide, not the `Content-Type`.** A body that sniffs as JPEG, PNG, WebP, GIF or
///   SVG is accepted whatever type the server claims (servers often say
///   `application/octet-stream` or even `text/html` for images), without a warning, since the
///   cover works and the user could not fix the header anyway. A body that is not an image fails,
///   even with `Content-Type: image/png`. Sniffing happens after the first kilobyte, so a web
///   page is rejected without downloading all of it.
/// - Failed attempts are retried for timeouts, connection errors, 429 and 5xx, with back-off
///   and the server's `Retry-After`; the slot is given back while waiting. A cover gives up
///   after two attempts that timed out (one, when it failed in a build before). A redirect to
///   another host keeps the slot of the host the cover URL names.
///
/// Every fetch of a URL publishes `.cover` events to the observer, ending in exactly one of
/// `.downloaded`, `.fromCache`, `.revalidated` or `.failed`; callers that join a running fetch
/// add no events. With ``FetchMode/refresh``, a cover whose revalidation fails (server down, 404,
/// …) keeps its cached copy: the fetch succeeds, ends in `.fromCache` and publishes a warning
/// ``Diagnostic`` whose path is the URL. Call ``shutdown()`` when done (or use ``withFetcher(cache:policy:observer:isolation:_:)``):
/// it writes the cache index and closes the HTTP client's connections (AsyncHTTPClient stops a
/// debug build whose client is released without being shut down).
public final class CoverFetcher: CoverFetching {
    /// Where covers are kept.
    public let cache: CoverCache
    /// The limits in force (sanitised: counts at least 1, durations positive).
    public let policy: CoverFetchPolicy
    /// Receives the `.cover` events (and the rare warning).
    let observer: any BuildObserving
    /// The one HTTP client: redirects off (the fetcher follows them), no decompression.
    let client: HTTPClient
    /// The global and per-host download limits.
    let gate: CoverFetchGate
    /// The fetches under way, one per URL.
    let running = SharedCoverFetches()

    /// A fetcher storing into `cache` and publishing to `observer`.
    public init(cache: CoverCache, policy: CoverFetchPolicy = CoverFetchPolicy(), observer: any BuildObserving = SilentObserver()) {
        let policy = policy.sanitised
        self.cache = cache
        self.policy = policy
        self.observer = observer
        self.gate = CoverFetchGate(limit: policy.concurrency, perHost: policy.perHost)
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = policy.perHost
        // Our own retries handle refused connections, with back-off and a message; the pool's
        // would retry silently until the connect timeout.
        pool.retryConnectionEstablishment = false
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: policy.connectTimeout.timeAmount, read: policy.readTimeout.timeAmount),
            connectionPool: pool,
            decompression: .disabled
        )
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Runs `body` with a new fetcher and shuts it down afterwards, whether `body` returns or throws.
    public static func withFetcher<T>(
        cache: CoverCache,
        policy: CoverFetchPolicy = CoverFetchPolicy(),
        observer: any BuildObserving = SilentObserver(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (CoverFetcher) async throws -> T
    ) async rethrows -> T {
        let fetcher = CoverFetcher(cache: cache, policy: policy, observer: observer)
        do {
            let result = try await body(fetcher)
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    /// The cover at `url`, from the cache or the network as `mode` allows, or why there is none.
    public func cover(for url: URL, mode: FetchMode) async -> Result<Cover, CoverFailure> {
        await running.result(for: url.absoluteString) { [self] in
            await resolve(url, mode: mode)
        }
    }

    /// Writes the cache index and closes every connection. Running fetches fail as cancelled.
    /// Safe to call more than once.
    ///
    /// A cache index that cannot be written is reported as a warning: the covers are on disk,
    /// but the next build downloads them again.
    public func shutdown() async {
        do throws(CoverCacheError) {
            try await cache.flush()
        } catch {
            observer.receive(.diagnostic(Diagnostic(.warning, path: error.path, message: "\(error.description); the next build downloads the covers again")))
        }
        try? await client.shutdown()
    }

    private func resolve(_ url: URL, mode: FetchMode) async -> Result<Cover, CoverFailure> {
        let key = url.absoluteString
        switch mode {
        case .offline:
            if let cover = await cache.cover(for: url) {
                observer.receive(.cover(.fromCache(url: key)))
                return .success(cover)
            }
            if let last = await cache.lastFailure(for: url) {
                // Downloading it again would not help: say why it failed online.
                return failure(key, "not in the cover cache, and the build is offline; the builds online since \(last.since) could not download it: \(last.reason)")
            }
            return failure(key, "not in the cover cache, and the build is offline; run the build once online (without --offline) to download it")
        case .useCache:
            if let cover = await cache.cover(for: url) {
                observer.receive(.cover(.fromCache(url: key)))
                return .success(cover)
            }
            return await download(url, revalidating: nil)
        case .refresh:
            return await download(url, revalidating: await cache.entry(for: url))
        }
    }

    /// Downloads `url`, retrying what may pass, and stores the result. With `cached`, the request
    /// is conditional and a 304 keeps the cached copy.
    private func download(_ url: URL, revalidating cached: CoverCacheEntry?) async -> Result<Cover, CoverFailure> {
        let key = url.absoluteString
        let host = url.host?.lowercased() ?? ""
        observer.receive(.cover(.queued(url: key)))
        var attempts = 0
        // A silent server costs a whole timeout per attempt (30 s by default): a cover tries at
        // most two that time out, and one when it failed in a build before, so a stalled URL no
        // longer adds two minutes to every build. Other faults that may pass (a 503, a refused
        // or dropped connection) answer at once and keep every retry.
        var timeouts = 0
        let failedBefore = await cache.lastFailure(for: url) != nil
        let timeoutLimit = cached == nil && failedBefore ? 1 : 2
        // A server that asks to wait longer than gallery ever waits (`Retry-After: 3600`) is
        // taken at its word: another attempt sooner would only be refused again, and cost the
        // build its back-off on every run.
        func willRetry(_ error: CoverDownloadError) -> Bool {
            error.isRetryable && attempts <= policy.retries && !(error.isTimeout && timeouts >= timeoutLimit)
                && !(error.retryAfter.map { $0 > policy.backoffCap } ?? false)
        }
        // What the last request made for this cover failed with: a cover whose host is given up
        // between its attempts says what happened to it, not that it was never tried.
        var earlier: CoverDownloadError?
        while true {
            await gate.acquire(host: host)
            let outcome: Result<CoverResponse, CoverDownloadError>
            if let count = await gate.unresponsive(host) {
                outcome = .failure(.hostUnresponsive(host: host, covers: count))
            } else {
                outcome = await attempt(url, revalidating: cached)
                attempts += 1
                if case .failure(let error) = outcome { earlier = error }
            }
            if case .failure(let error) = outcome, error.isTimeout { timeouts += 1 }
            // How the cover ended, for the host's count: not an attempt that is tried again, nor
            // a skip, which says nothing new of the host. Told before the slot is given back, so
            // the cover admitted to it knows (it was let in first, and tried a third cover).
            switch outcome {
            case .success:
                await gate.settled(host, timedOut: false)
            case .failure(.hostUnresponsive):
                break
            case .failure(let error) where !willRetry(error):
                await gate.settled(host, timedOut: error.isTimeout)
            case .failure:
                break
            }
            await gate.release(host: host)
            switch outcome {
            case .success(let response):
                return await store(response, for: url, replacing: cached)
            case .failure(let error):
                guard willRetry(error), !Task.isCancelled else {
                    let reason = error.reason(attempts: attempts, after: earlier)
                    if let cached, let cover = await cache.cover(for: url) {
                        return keep(cover, of: cached, because: reason)
                    }
                    // Remembered for an offline build, which cannot find out for itself.
                    if !Task.isCancelled { await cache.recordFailure(url, reason: reason) }
                    return failure(key, reason)
                }
                try? await Task.sleep(for: policy.delay(beforeRetry: attempts - 1, retryAfter: error.retryAfter))
            }
        }
    }

    private func store(_ response: CoverResponse, for url: URL, replacing cached: CoverCacheEntry?) async -> Result<Cover, CoverFailure> {
        let key = url.absoluteString
        switch response {
        case .notModified(let etag, let lastModified):
            guard let cover = await cache.confirm(url, etag: etag, lastModified: lastModified) else {
                return failure(key, "the server said the cached copy is current, but the cache no longer holds it; run the build again")
            }
            observer.receive(.cover(.revalidated(url: key)))
            return .success(cover)
        case .image(let bytes, let kind, let etag, let lastModified, let contentType):
            let cover: Cover
            do throws(CoverCacheError) {
                cover = try await cache.store(bytes, kind: kind, for: url, etag: etag, lastModified: lastModified, contentType: contentType)
            } catch {
                return failure(key, "downloaded, but \(error.description); check the cache folder's permissions and free space")
            }
            // New artwork at the address of a cached cover was downloaded, in the events as in
            // the counts: "revalidated" is kept for those the server confirmed, so a CI log
            // tells new artwork from none.
            if let cached, cached.contentHash == cover.contentHash {
                observer.receive(.cover(.revalidated(url: key)))
            } else {
                observer.receive(.cover(.downloaded(url: key, bytes: bytes.count)))
            }
            return .success(cover)
        }
    }

    /// A `--refresh` that failed keeps the cached copy, with a warning: the server being down
    /// today should not turn yesterday's cover into a placeholder.
    private func keep(_ cover: Cover, of cached: CoverCacheEntry, because reason: String) -> Result<Cover, CoverFailure> {
        let message = "could not revalidate the cached cover (\(reason)); using the copy fetched \(cached.fetchedAt)"
        observer.receive(.diagnostic(Diagnostic(.warning, path: cached.url, message: message)))
        observer.receive(.cover(.fromCache(url: cached.url)))
        return .success(cover)
    }

    private func failure(_ url: String, _ reason: String) -> Result<Cover, CoverFailure> {
        observer.receive(.cover(.failed(url: url, reason: reason)))
        return .failure(CoverFailure(url: url, reason: reason))
    }
}

extension CoverFetching {
    /// The cover at `url`, using the cache when it has it.
    public func cover(for url: URL) async -> Result<Cover, CoverFailure> {
        await cover(for: url, mode: .useCache)
    }
}

extension Duration {
    /// The duration as SwiftNIO's `TimeAmount`.
    public var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
