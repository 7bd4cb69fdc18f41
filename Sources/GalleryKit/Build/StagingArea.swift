import Foundation
import Synchronization

/// A folder beside the output where a build puts validated files until every check has passed.
///
/// Nothing reaches the output folder before ``commit(into:)``, so a failed build leaves the
/// previous site untouched. The folder sits next to the output (`.public.staging`) so that
/// committing is a cheap `rename` on the same file system.
public final class StagingArea: Sendable {
    /// The staging folder.
    public let folder: URL
    private let entries = Mutex<(names: [String: String], counter: Int)>(([:], 0))

    /// Creates an empty staging folder for an output folder, replacing any left by a killed build.
    public init(for output: URL) throws {
        let parent = output.deletingLastPathComponent()
        folder = parent.appending(path: ".\(output.lastPathComponent).staging", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Stores the bytes of an output path. Safe to call from many tasks at once.
    ///
    /// Files are staged flat under a name derived from a counter, so staging needs no folders.
    public func stage(_ bytes: some Collection<UInt8>, as path: String) throws {
        let name = entries.withLock { entries in
            entries.counter += 1
            let name = String(entries.counter, radix: 36)
            entries.names[path] = name
            return name
        }
        try AtomicFile.writeInPlace(bytes, to: folder.appending(path: name).path)
    }

    /// The output paths staged so far.
    public var paths: [String] { entries.withLock { Array($0.names.keys) } }

    /// The file holding the staged bytes of an output path, if it was staged.
    public func file(for path: String) -> URL? {
        entries.withLock { $0.names[path] }.map { folder.appending(path: $0) }
    }

    /// Moves every staged file to its place in the output folder, creating folders as needed,
    /// then removes the staging folder.
    ///
    /// - Returns: The number of files moved.
    @discardableResult
    public func commit(into output: URL) throws -> Int {
        let staged = entries.withLock { $0.names }
        let outputPath = output.standardizedFileURL.path
        let stagingPath = folder.path
        try Self.makeFolders(outputPath)
        var created: Set<String> = [""]
        for path in staged.keys.sorted() {
            guard let name = staged[path] else { continue }
            let folderPath = path.split(separator: "/").dropLast().joined(separator: "/")
            if created.insert(folderPath).inserted {
                try Self.makeFolders(outputPath + "/" + folderPath)
            }
            let source = stagingPath + "/" + name
            let target = outputPath + "/" + path
            if rename(source, target) != 0 {
                throw AtomicFile.WriteError(path: target, reason: AtomicFile.systemError())
            }
        }
        discard()
        return staged.count
    }

    /// Creates a folder and any missing parents with `mkdir(2)` (Foundation's version costs ten
    /// times as much, which shows when a build creates ten thousand album folders).
    static func makeFolders(_ path: String) throws {
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT else { throw AtomicFile.WriteError(path: path, reason: AtomicFile.systemError()) }
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !parent.isEmpty, parent != path else { throw AtomicFile.WriteError(path: path, reason: AtomicFile.systemError()) }
        try makeFolders(parent)
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw AtomicFile.WriteError(path: path, reason: AtomicFile.systemError()) }
    }

    /// Deletes the staging folder and whatever is in it.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
    }
}
