import Foundation
import Testing

/// What gallery meets in the process it runs in: a shared temporary folder made by an older
/// gallery, a current folder that was deleted.
@Suite struct ProcessEnvironmentTests {
    /// The folder of output-folder locks in the temporary folder, made 0755 by an older gallery
    /// (which set 1777 only on a folder it made), kept every other user out of the lock for
    /// good: whoever owns it opens it up.
    @Test func aLockFolderAnOlderGalleryMadeIsOpenedUp() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let locks = folder.url.appending(path: "tmp/gallery-locks")
        try FileManager.default.createDirectory(at: locks, withIntermediateDirectories: true)
        chmod(locks.path, 0o755)
        let shell = URL(fileURLWithPath: "/bin/sh")
        let run = try await GalleryBinary.run(["-c", "TMPDIR=\"$PWD/tmp\" \"$0\" build -q --site site", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(run.status == 0, "\(run.stderr)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: locks.path)[.posixPermissions] as? Int)
        #expect(mode == 0o1777, "\(String(mode, radix: 8))")
    }

    /// Out of descriptors (`ulimit -n`, a preview with many connections open), the build fails
    /// with the system's reason and what to raise, not Foundation's "NSCocoaErrorDomain error
    /// 256".
    ///
    /// Which file meets the limit first depends on what libvips, loaded beside the load step,
    /// holds open at that moment: the settings, the archive, or (when the load step is done
    /// first) a cover and a staged page. A faster load step (stop 36) made the last one happen,
    /// whose error gave the reason without the advice. (Limits of 9 to 12 reach the later files
    /// on an idle machine; one CI run saw a build at 11 die of SIGILL in a library, which no
    /// run here has repeated, so the test keeps to 8.)
    @Test func tooFewDescriptorsAreSaidSo() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let shell = URL(fileURLWithPath: "/bin/sh")
        let run = try await GalleryBinary.run(["-c", "ulimit -n 8; \"$0\" build -q --site site", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(run.status != 0)
        let errors = run.stderr.split(separator: "\n").filter { $0.contains("error: ") }
        #expect(errors.contains { $0.contains("Too many open files (too many files are open at once; raise the limit with ulimit -n, or close some)") }, "\(run.stderr)")
        #expect(!run.stderr.contains("NSCocoaErrorDomain"), "\(run.stderr)")
    }

    /// In a current folder that was deleted, paths are shown whole: `gallery init /abs/site`
    /// said "Created dev/shm/…", its first slash lost.
    @Test func pathsAreShownWholeFromADeletedFolder() async throws {
        let folder = try TemporaryFolder()
        let shell = URL(fileURLWithPath: "/bin/sh")
        let target = folder.url.appending(path: "made").path
        let run = try await GalleryBinary.run(["-c", "mkdir gone && cd gone && rmdir ../gone && \"$0\" init \"$1\"", GalleryBinary.url.path, target], in: folder.url, binary: shell)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Created \(target) with"), "\(run.stdout)")
    }
}
