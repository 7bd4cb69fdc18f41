import Foundation
import GalleryKit
import Testing

/// `gallery env`: what a bug report or a CI log needs to know of the machine.
@Suite struct EnvCommandTests {
    /// The `key="value"` lines of a report, by key.
    func facts(_ output: String) -> [String: String] {
        var facts: [String: String] = [:]
        for line in output.split(separator: "\n").dropFirst() {
            guard let equals = line.firstIndex(of: "="), line.hasSuffix("\"") else { continue }
            let value = line[line.index(equals, offsetBy: 2)..<line.index(before: line.endIndex)]
            facts[String(line[..<equals])] = value.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return facts
    }

    @Test func namesTheVersionAndTheLibrariesInUse() async throws {
        let folder = try TemporaryFolder()
        let run = try await GalleryBinary.run(["env"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("gallery \(GalleryVersion.current) linux/"), "\(run.stdout)")
        let facts = facts(run.stdout)
        #expect(facts["cores"] == String(ProcessInfo.processInfo.activeProcessorCount))
        let version = try #require(facts["libvips"]).split(separator: ".").compactMap { Int($0) }
        #expect(version.count == 3 && version[0] == 8, "\(run.stdout)")
        let file = try #require(facts["libvips_file"])
        #expect(FileManager.default.fileExists(atPath: file), "\(file)")
        // orc, libvips's vector code before 8.15, is turned off; Highway's, since, stays on.
        let vector = try #require(facts["libvips_vector"])
        #expect(vector.hasPrefix(version[1] < 15 ? "off" : "on"), "\(vector)")
        #expect(try #require(facts["thumbnail_formats"]).hasPrefix("webp jpeg png"))
        #expect(try #require(facts["libxml2"]).hasPrefix("2."), "\(run.stdout)")
    }

    @Test func saysWhyLibvipsCannotBeLoadedAndStillReportsTheRest() async throws {
        let folder = try TemporaryFolder()
        let process = Process()
        process.executableURL = GalleryBinary.url
        process.arguments = ["env"]
        process.currentDirectoryURL = folder.url
        var environment = ProcessInfo.processInfo.environment
        environment["GALLERY_LIBVIPS"] = folder.url.appending(path: "no-such-libvips.so").path
        process.environment = environment
        let run = try await GalleryBinary.captured(process)
        #expect(run.status == 0, "\(run.stderr)")
        let facts = facts(run.stdout)
        let libvips = try #require(facts["libvips"])
        #expect(libvips.hasPrefix("not loaded: cannot load libvips from GALLERY_LIBVIPS (\(folder.url.path)/no-such-libvips.so)"), "\(libvips)")
        #expect(libvips.hasSuffix("point it at a libvips.so, or unset it to use the system's"), "\(libvips)")
        #expect(facts["libvips_file"] == nil)
        #expect(facts["libxml2"] != nil)
    }

    /// A closed standard output or error is no reason to stop: the work is done and the status
    /// stands (Foundation's writes trapped, and `add` crashed after saving its album).
    @Test func closedStreamsStopNoCommand() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        let shell = URL(fileURLWithPath: "/bin/sh")
        for command in ["\"$0\" env >&-", "\"$0\" build --site site 2>&-", "\"$0\" build --site site --log-format json >&- 2>&-",
                        "\"$0\" add --site site --title Z --artist Y --genre Pop --year 2000 --cover covers/z.jpg >&- 2>&-"] {
            let run = try await GalleryBinary.run(["-c", command, GalleryBinary.url.path], in: folder.url, binary: shell)
            #expect(run.status == 0, "\(command): \(run.status) \(run.stderr.prefix(300))")
        }
        #expect(try folder.read("site/content/albums.json").components(separatedBy: "\"title\": \"Z\"").count == 2, "added once")
        // With standard output closed, the log went to whatever file took its number.
        for file in ["site/content/albums.json", "site/public/index.html", "site/public/albums.json"] {
            #expect(try !folder.read(file).contains("\"event\":"), "\(file)")
        }
    }

    /// A reader that leaves (`| head -1`) no longer kills a build at its next line with SIGPIPE,
    /// leaving the site as it was behind a green pipeline; and a log that cannot be written (a
    /// full disk) is an error, where the build exited 0 with the log empty.
    @Test func aReaderThatLeavesStopsNoBuildAndALostLogIsAnError() async throws {
        let folder = try TemporaryFolder()
        #expect(try await GalleryBinary.run(["init", "site"], in: folder.url).status == 0)
        #expect(try await GalleryBinary.run(["build", "--site", "site", "-q"], in: folder.url).status == 0)
        let archive = try folder.read("site/content/albums.json")
        try folder.write(archive.replacingOccurrences(of: "\"genre\": \"Pop\"", with: "\"genre\": \"Synth-pop\""), to: "site/content/albums.json")
        let bash = URL(fileURLWithPath: "/bin/bash")
        let piped = try await GalleryBinary.run(["-c", "\"$0\" build --site site --log-format json | head -c 1 >/dev/null; exit ${PIPESTATUS[0]}", GalleryBinary.url.path], in: folder.url, binary: bash)
        #expect(piped.status == 0, "\(piped.status) \(piped.stderr)")
        #expect(try folder.read("site/public/index.html").contains("Synth-pop"))
        #expect(try await GalleryBinary.run(["list", "--site", "site"], in: folder.url).status == 0)

        let full = try await GalleryBinary.run(["-c", "\"$0\" build --site site --clean --log-format json > /dev/full", GalleryBinary.url.path], in: folder.url, binary: bash)
        #expect(full.status == 1)
        #expect(full.stderr.hasSuffix("error: some output to standard output was lost (No space left on device)\n"), "\(full.stderr)")
        #expect(try folder.read("site/public/index.html").contains("Synth-pop"), "the site is built all the same")
        let check = try await GalleryBinary.run(["-c", "\"$0\" check site/public > /dev/full", GalleryBinary.url.path], in: folder.url, binary: bash)
        #expect(check.status == 1, "\(check.stderr)")
        // Help and the version too: they exited 0 with the text lost. Written once, as before.
        for asked in ["--help", "--version", "build --help"] {
            let lost = try await GalleryBinary.run(["-c", "\"$0\" \(asked) > /dev/full", GalleryBinary.url.path], in: folder.url, binary: bash)
            #expect(lost.status == 1, "\(asked): \(lost.stderr)")
            let shown = try await GalleryBinary.run(["-c", "\"$0\" \(asked)", GalleryBinary.url.path], in: folder.url, binary: bash)
            let once = asked == "--version" ? shown.stdout.split(separator: "\n").count == 1 : shown.stdout.components(separatedBy: "USAGE:").count == 2
            #expect(shown.status == 0 && once, "\(asked): \(shown.stdout)")
        }
        // Standard error's own loss has nowhere to be told, and fails nothing.
        #expect(try await GalleryBinary.run(["-c", "\"$0\" build --site site 2> /dev/full", GalleryBinary.url.path], in: folder.url, binary: bash).status == 0)
    }

    /// A standard output its parent left non-blocking (a pipe drained slowly) is waited on, as a
    /// blocking one is: past 64 KB the writes failed with EAGAIN, and the rest was lost.
    @Test func aNonBlockingOutputIsWaitedOnNotCutShort() async throws {
        let folder = try Fixture.site((0..<1500).map { Fixture.album(String(format: "A title long enough to fill a pipe %04d", $0), "Artist") })
        let script = """
            import fcntl, os, subprocess, sys, time
            r, w = os.pipe()
            fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)
            p = subprocess.Popen([sys.argv[1], "list"], stdout=w)
            os.close(w)
            time.sleep(1)
            data = b""
            while chunk := os.read(r, 65536):
                data += chunk
            print(p.wait(), len(data))
            """
        let python = try await GalleryBinary.run(["python3", "-c", script, GalleryBinary.url.path], in: folder.url, binary: URL(fileURLWithPath: "/usr/bin/env"))
        let plain = try await GalleryBinary.run(["list"], in: folder.url)
        #expect(plain.stdout.utf8.count > 100_000)
        #expect(python.stdout == "0 \(plain.stdout.utf8.count)\n", "\(python.stdout) \(python.stderr)")
    }
}
