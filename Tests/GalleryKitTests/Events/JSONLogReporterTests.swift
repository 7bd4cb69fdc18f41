import Foundation
import Synchronization
import Testing

@testable import GalleryKit

/// The JSON log: one event per line, for CI.
@Suite struct JSONLogReporterTests {
    /// A diagnostic about no file (a command line's value) has a `path` of null, not "", which
    /// a CI annotation step would take for a file's name; one about a file names it.
    @Test func aDiagnosticAboutNoFileHasANullPath() throws {
        let lines = Mutex<[String]>([])
        let reporter = JSONLogReporter(write: { line in lines.withLock { $0.append(line) } })
        reporter.receive(.diagnostic(Diagnostic(.error, path: "", message: "--base-url is empty")))
        reporter.receive(.diagnostic(Diagnostic(.warning, path: "content/albums.json", message: "a warning")))
        let events = try lines.withLock { $0 }.joined().split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == 2)
        #expect(events.first??["path"] is NSNull, "\(events)")
        #expect(events.last??["path"] as? String == "content/albums.json")
    }
}
