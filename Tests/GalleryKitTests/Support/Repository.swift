import Foundation

/// Files of this repository that tests hold the code to: the README, the templates.
enum Repository {
    /// The repository's top folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of the README between the line `heading` and the next `until` after it.
    static func readme(from heading: String, until end: String) throws -> Substring {
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        guard let start = readme.range(of: heading),
              let stop = readme.range(of: end, range: start.upperBound..<readme.endIndex)
        else { throw MissingSection(heading: heading) }
        return readme[start.upperBound..<stop.lowerBound]
    }

    struct MissingSection: Error {
        var heading: String
    }
}
