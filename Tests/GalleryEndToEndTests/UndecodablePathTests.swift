import Foundation
import Testing

/// A path that is not UTF-8 (a folder from a Latin-1 disk or archive) is refused, named: Swift
/// reads its bytes as U+FFFD, so `gallery build --site caf\xe9` looked for another folder and
/// said the site did not exist, and `gallery init caf\xe9` made a folder of another name.
@Suite struct UndecodablePathTests {
    @Test func aPathThatIsNotUTF8IsRefusedNotReadAsAnother() async throws {
        let folder = try TemporaryFolder()
        let shell = URL(fileURLWithPath: "/bin/sh")
        let given = try await GalleryBinary.run(["-c", "\"$0\" init \"$(printf 'caf\\351')\"", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(given.status == 64)
        #expect(given.stderr == "error: 'caf\u{FFFD}' is not UTF-8 text; gallery reads it as UTF-8, and would take another name for it; rename it to UTF-8 (convmv -f latin1 -t utf8 --notest NAME)\n", "\(given.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "a folder was made")

        let inside = try await GalleryBinary.run(["-c", "mkdir \"$(printf 'd\\351p')\" && cd \"$(printf 'd\\351p')\" && \"$0\" build", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(inside.status == 64)
        #expect(inside.stderr.contains("error: the current folder's path ("), "\(inside.stderr)")
        #expect(inside.stderr.contains("d\u{FFFD}p) is not UTF-8 text;"), "\(inside.stderr)")
        #expect(inside.stderr.hasSuffix(", or run gallery from another folder with --site\n"), "\(inside.stderr)")
        // Help still answers there.
        let help = try await GalleryBinary.run(["-c", "cd \"$(printf 'd\\351p')\" && \"$0\" --help", GalleryBinary.url.path], in: folder.url, binary: shell)
        #expect(help.status == 0)
    }
}
