import CVipsShim
import Foundation
import Testing
@testable import GalleryKit

/// Thumbnails made on several threads at once, as the build makes them.
@Suite struct ThumbnailThreadTests {
    /// orc frees and splits its code memory outside its lock, so libvips's orc paths corrupt the
    /// heap when two threads build and dispose of resize operations at once.
    /// (libvips 8.15 and later have no orc; their vector code, Highway's, stays on.)
    @Test func libvipsRunsNoOrcCode() throws {
        #expect(Thumbnailer.libraryProblem == nil)
        #expect(Thumbnailer.libraryVersion >= 80000)
        #expect(Thumbnailer.runsVectorCode == (Thumbnailer.libraryVersion >= 81500))
    }

    /// A libvips that cannot be loaded is installed only when it is missing: under `ulimit -v`
    /// it is there but cannot be mapped, and "install it" sent the user looking for a package
    /// they had. (dlerror()'s own words, as glibc writes them.)
    @Test func aLibvipsThatCannotBeMappedIsNotToldToBeInstalled() {
        let advice = { (reason: String) in String(cString: gallery_vips_load_advice(reason)) }
        #expect(advice("libvips.so.42: cannot open shared object file: No such file or directory") == "install it (apt-get install libvips42)")
        #expect(advice("libcrypto.so.3: failed to map segment from shared object") == "the process is out of memory or address space (a ulimit -v, or a container's memory limit): raise the limit")
        #expect(advice("libvips.so.42: cannot allocate memory in static TLS block").hasPrefix("reinstall it"))
    }

    /// Under `ulimit -u` (a container's pids limit) GLib cannot start libvips's threads: that
    /// was called a damaged cover, and the site published with placeholders. It fails the build
    /// instead, saying what to raise; a cover's own damage is still the cover's.
    @Test func aRefusedThreadIsNoDamagedCover() {
        let refused = ThumbnailError.decoding("glib: Error creating thread: Resource temporarily unavailable")
        #expect(refused.reason == .systemLimit("glib: Error creating thread: Resource temporarily unavailable"))
        #expect(refused.description.hasPrefix("the system refused libvips a thread or memory (glib: Error creating thread"))
        #expect(refused.description.hasSuffix("raise the limit (ulimit -u and ulimit -v, or a container's pids and memory limits) and build again"))
        #expect(ThumbnailError.decoding("pngload: libpng read error").reason == .corrupt("pngload: libpng read error"))
    }

    /// Many small covers on four threads: with orc on, 3,000 such covers crashed the process every
    /// time and this many about one time in five; each building and disposing of libvips's resize
    /// operations many times a second.
    @Test func smallCoversOnFourThreadsAtOnceAllComeOut() async throws {
        let covers = try (0..<12).map { index in
            try Thumbnailer.pattern(width: 41 + 13 * index, height: 37 + 7 * index, kind: index % 3 == 0 ? .jpeg : .png)
        }
        let specs = [ThumbnailSpec(size: 10, format: .jpeg), ThumbnailSpec(size: 20, format: .jpeg), ThumbnailSpec(size: 30, format: .jpeg)]
        let thumbnailer = Thumbnailer(maxPixels: 1_000_000)
        let made = await Parallel.onThreads(count: 1_200, threads: 4, finished: Thumbnailer.threadFinished) { index -> [Int]? in
            guard let images = try? thumbnailer.thumbnails(of: covers[index % covers.count], as: specs) else { return nil }
            return images.compactMap { try? Thumbnailer.dimensions(of: $0).width }
        }
        #expect(made.allSatisfy { $0 == [10, 20, 30] })
    }

    /// libvips has one error buffer for the whole process. Damaged covers failing on four
    /// threads at once each get their own decoder's message: without the shim's retry alone, one
    /// would come out with "libvips gave no details" and another with two messages.
    @Test func damagedCoversOnFourThreadsEachGetTheirOwnError() async throws {
        let png = try Thumbnailer.pattern(width: 300, height: 300, kind: .png)
        let jpeg = try Thumbnailer.pattern(width: 300, height: 300, kind: .jpeg)
        let damaged = [Array(png.prefix(png.count / 2)), Array(jpeg.prefix(jpeg.count / 2))]
        let thumbnailer = Thumbnailer(maxPixels: 1_000_000)
        let errors = await Parallel.onThreads(count: 200, threads: 4, finished: Thumbnailer.threadFinished) { index -> String in
            do throws(ThumbnailError) {
                _ = try thumbnailer.thumbnails(of: damaged[index % 2], as: [ThumbnailSpec(size: 50), ThumbnailSpec(size: 100)])
                return "no error"
            } catch {
                return error.description
            }
        }
        for (index, error) in errors.enumerated() {
            let own = index % 2 == 0 ? "png" : "jpeg"
            let other = index % 2 == 0 ? "jpeg" : "png"
            #expect(error.lowercased().contains(own) && !error.lowercased().contains(other), "cover \(index): \(error)")
            #expect(!error.contains("; ") && !error.contains("no details"), "cover \(index): \(error)")
        }
    }
}
