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
    }
}
