import Foundation
import Testing

@testable import GalleryKit

/// The fetch policy's defaults, back-off and `Retry-After`.
@Suite struct CoverFetchPolicyTests {
    @Test func defaultsAreTheDocumentedOnes() {
        let policy = CoverFetchPolicy()
        #expect(policy.concurrency == 8)
        #expect(policy.perHost == 4)
        #expect(policy.connectTimeout == .seconds(10))
        #expect(policy.readTimeout == .seconds(30))
        #expect(policy.totalTimeout == .seconds(60))
        #expect(policy.maxRedirects == 5)
        #expect(policy.maxBodyBytes == 20_000_000)
        #expect(policy.retries == 3)
        #expect(policy.backoffBase == .milliseconds(500))
        #expect(policy.backoffCap == .seconds(10))
        #expect(policy.userAgent == "gallery/\(GalleryVersion.current) (+https://github.com/gallery-ssg/gallery)")
    }

    @Test func backOffIsFullJitterUnderADoublingCeiling() {
        let policy = CoverFetchPolicy()
        for (retry, ceiling) in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (5, 10.0), (40, 10.0)] {
            let delays = (0..<200).map { _ in policy.delay(beforeRetry: retry).seconds }
            #expect(delays.allSatisfy { $0 >= 0 && $0 <= ceiling }, "retry \(retry): \(delays.max() ?? 0) > \(ceiling)")
            // Full jitter spreads the delays over the whole range.
            #expect(delays.contains { $0 < ceiling / 4 } && delays.contains { $0 > ceiling * 3 / 4 })
        }
    }

    @Test func retryAfterIsHonouredUpToTheCap() {
        let policy = CoverFetchPolicy()
        #expect(policy.delay(beforeRetry: 0, retryAfter: .seconds(3)) == .seconds(3))
        #expect(policy.delay(beforeRetry: 0, retryAfter: .seconds(3600)) == .seconds(10))
    }

    @Test func longWaitsAreSaidRoughly() {
        #expect(Duration.seconds(45).roughly == "45 s")
        #expect(Duration.seconds(119).roughly == "119 s")
        #expect(Duration.seconds(1200).roughly == "20 min")
        #expect(Duration.seconds(3600).roughly == "1 h")
        #expect(Duration.seconds(7200).roughly == "2 h")
        #expect(Duration.seconds(86_400).roughly == "24 h")
        #expect(Duration.seconds(9 * 86_400).roughly == "9 days")
        #expect(Duration.seconds(Int.max).roughly == "more than a year")
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() throws {
        let now = try #require(RetryAfter.httpDate("Wed, 21 Oct 2015 07:28:00 GMT"))
        #expect(RetryAfter.delay(from: "120", now: now) == .seconds(120))
        #expect(RetryAfter.delay(from: " 0 ", now: now) == .zero)
        #expect(RetryAfter.delay(from: "Wed, 21 Oct 2015 07:28:05 GMT", now: now) == .seconds(5))
        #expect(RetryAfter.delay(from: "Wednesday, 21-Oct-15 07:28:07 GMT", now: now) == .seconds(7))
        #expect(RetryAfter.delay(from: "Wed Oct 21 07:28:09 2015", now: now) == .seconds(9))
        #expect(RetryAfter.delay(from: "Tue, 20 Oct 2015 07:28:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay(from: "soon", now: now) == nil)
        #expect(RetryAfter.delay(from: "-5", now: now) == nil)
        // More seconds than an Int holds: a wait longer than any, not no header (retried at once).
        #expect(RetryAfter.delay(from: "999999999999999999999999", now: now) == .seconds(Int.max))
    }

    @Test func messagesGroupDigitsAndSpeakDurations() {
        #expect(CoverDownloadError.count(51_200) == "51 200")
        #expect(CoverDownloadError.count(204_800) == "204 800")
        #expect(CoverDownloadError.count(999) == "999")
        #expect(CoverDownloadError.size(20_000_000) == "20 MB")
        #expect(Duration.seconds(30).spoken == "30 s")
        #expect(Duration.milliseconds(250).spoken == "0.25 s")
        #expect(CoverDownloadError.quote(Array("\n  <!DOCTYPE html>\n<html>".utf8)) == "\"<!DOCTYPE html\"")
        #expect(CoverDownloadError.quote([0, 1, 2, 0xFF]) == "bytes 00 01 02 FF")
    }
}
