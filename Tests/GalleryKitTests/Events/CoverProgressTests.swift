import Testing

@testable import GalleryKit

@Suite struct CoverProgressTests {
    @Test func countsEachWayACoverSettlesOnce() {
        var progress = CoverProgress(total: 5, start: 0)
        let queued = progress.record(.queued(url: "a"))
        #expect(queued == false)
        let downloading = progress.record(.downloading(url: "a", received: 400, expected: 1000))
        #expect(downloading)
        #expect(progress.bytes == 400)
        _ = progress.record(.downloaded(url: "a", bytes: 1000))
        _ = progress.record(.fromCache(url: "b"))
        _ = progress.record(.revalidated(url: "c"))
        _ = progress.record(.failed(url: "d", reason: "HTTP 404"))
        let thumbnailed = progress.record(.thumbnailed(url: "a", made: 3, cached: 0))
        #expect(thumbnailed == false)
        #expect(progress.settled == 4)
        #expect(progress.failed == 1)
        // The finished download replaces its running count instead of adding to it.
        #expect(progress.bytes == 1000)
        #expect(!progress.isComplete)
        _ = progress.record(.downloaded(url: "e", bytes: 500))
        #expect(progress.isComplete)
    }

    @Test func thumbnailsAreCountedApartFromDownloads() {
        var thumbnails = CoverProgress(total: 3, start: 0, stage: .thumbnailing)
        // Cover events belong to the fetch, not to this count.
        let downloaded = thumbnails.record(.downloaded(url: "a", bytes: 10))
        let failedDownload = thumbnails.record(.failed(url: "a", reason: "HTTP 404"))
        #expect(!downloaded && !failedDownload)
        let made = thumbnails.settleThumbnail(failed: false)
        let failed = thumbnails.settleThumbnail(failed: true)
        #expect(made && failed)
        #expect(thumbnails.line(at: 1, barWidth: 6) == "thumbnails [####..] 2/3 · ETA 0:01 · 1 failed")
        _ = thumbnails.settleThumbnail(failed: false)
        #expect(thumbnails.isComplete)
        #expect(thumbnails.plainLine() == "thumbnails: 3/3 (100%), 1 failed")
        // Some from the cache, some made: said, so one new cover does not read as 121 made.
        var rebuild = CoverProgress(total: 121, start: 0, stage: .thumbnailing)
        _ = rebuild.settleThumbnail(failed: false, made: true)
        for _ in 1...120 { _ = rebuild.settleThumbnail(failed: false, made: false) }
        #expect(rebuild.plainLine() == "thumbnails: 121/121 (100%), 1 cover made, 120 from the cache")
        #expect(rebuild.line(at: 1, barWidth: 4) == "thumbnails [####] 121/121 · 1 cover made, 120 from the cache")
        var covers = CoverProgress(total: 1, start: 0)
        let counted = covers.settleThumbnail(failed: false)
        #expect(!counted && covers.settled == 0)
    }

    @Test func liveLineShowsBarCountsBytesRateAndTimeLeft() {
        var progress = CoverProgress(total: 4, start: 10)
        _ = progress.record(.downloaded(url: "a", bytes: 1_500_000))
        // 1 of 4 after 2 s: 1.5 MB, 750 kB/s, 6 s left for the other 3.
        #expect(progress.line(at: 12, barWidth: 8) == "covers [##......] 1/4 · 1.5 MB · 750.0 kB/s · ETA 0:06")
        _ = progress.record(.failed(url: "b", reason: "HTTP 500"))
        #expect(progress.line(at: 14, barWidth: 8) == "covers [####....] 2/4 · 1.5 MB · 375.0 kB/s · ETA 0:04 · 1 failed")
    }

    @Test func liveLineLeavesOutWhatItCannotKnowYet() {
        var progress = CoverProgress(total: 3, start: 0)
        #expect(progress.line(at: 0.1, barWidth: 6) == "covers [......] 0/3")
        _ = progress.record(.fromCache(url: "a"))
        // Nothing downloaded: no size or rate; too early for an estimate.
        #expect(progress.line(at: 0.2, barWidth: 6) == "covers [##....] 1/3")
        _ = progress.record(.fromCache(url: "b"))
        _ = progress.record(.fromCache(url: "c"))
        #expect(progress.line(at: 9, barWidth: 6) == "covers [######] 3/3")
    }

    @Test func plainLineForLogs() {
        var progress = CoverProgress(total: 8, start: 0)
        _ = progress.record(.downloaded(url: "a", bytes: 2048))
        _ = progress.record(.failed(url: "b", reason: "timed out"))
        #expect(progress.plainLine() == "covers: 2/8 (25%), 2.0 kB, 1 failed")
    }

    @Test(arguments: [
        (0, "0 B"), (999, "999 B"), (1000, "1.0 kB"), (1_234_567, "1.2 MB"), (999_990, "1.0 MB"), (3_500_000_000, "3.5 GB"),
    ])
    func sizesInDecimalUnits(bytes: Int, text: String) {
        #expect(CoverProgress.size(bytes) == text)
    }

    @Test(arguments: [(0.2, "0:01"), (59, "0:59"), (61, "1:01"), (3725, "1:02:05")])
    func durations(seconds: Double, text: String) {
        #expect(CoverProgress.duration(seconds) == text)
    }
}
