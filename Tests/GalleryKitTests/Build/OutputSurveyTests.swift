import Foundation
import Testing
@testable import GalleryKit

/// The survey pairs each record of the previous manifest with what is at its path now, and the
/// ledger then reads the record from the survey rather than from the manifest: a record paired
/// with another path's file would leave a stale page in place, or rewrite one that is fine.
@Suite struct OutputSurveyTests {
    /// 2,500 outputs (more than one of the survey's chunks) of 1 to 1,000 bytes; every third
    /// missing and every fifth another size than recorded.
    @Test func eachRecordIsPairedWithItsOwnFile() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "output-survey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appending(path: "albums"), withIntermediateDirectories: true)
        var manifest = BuildManifest()
        for index in 0..<2500 {
            let path = "albums/page-\(index).html"
            let size = index % 1000 + 1
            let bytes = [UInt8](repeating: 0x61, count: size)
            manifest.entries[path] = .init(inputKey: UInt64(index), size: size, outputHash: FastHash.contentHash(bytes))
            guard index % 3 != 0 else { continue }
            let written = index % 5 == 0 ? size + 1 : size
            try Data(repeating: 0x61, count: written).write(to: root.appending(path: path))
        }
        let survey = await OutputSurvey.take(of: manifest, root: root.path)
        #expect(survey.files.count == 2500)
        for index in 0..<2500 {
            let path = "albums/page-\(index).html"
            let found = try #require(survey.files[path])
            #expect(found.entry == manifest.entries[path])
            let written = index % 3 == 0 ? -1 : (index % 5 == 0 ? index % 1000 + 2 : index % 1000 + 1)
            #expect(found.size == written, "\(path)")
        }

        // The ledger's answer from the survey is the answer a `stat` of each gives (the manifest
        // has no time it was written, so each file found at its size is read and hashed).
        let surveyed = OutputLedger(previous: manifest, root: root.path, survey: survey)
        let statted = OutputLedger(previous: manifest, root: root.path)
        for index in stride(from: 0, to: 2500, by: 7) {
            let path = "albums/page-\(index).html"
            #expect(surveyed.inPlace(path, key: UInt64(index)) == statted.inPlace(path, key: UInt64(index)), "\(path)")
            #expect(surveyed.inPlace(path, key: UInt64(index) + 1) == nil)
        }
        #expect(surveyed.inPlace("albums/page-4.html", key: 4) == manifest.entries["albums/page-4.html"])
        #expect(surveyed.inPlace("albums/page-3.html", key: 3) == nil)
        #expect(surveyed.inPlace("albums/page-5.html", key: 5) == nil)
    }
}
