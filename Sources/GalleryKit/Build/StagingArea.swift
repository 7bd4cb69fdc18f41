import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A folder beside the output where a build puts validated files until every check has passed.
///
/// Nothing reaches the output folder before ``commit(into:)``, so a failed build leaves the
/// previous site untouched. The folder sits next to the output (`.public.staging`), laid out as
/// the output will be: when there is no output folder yet, committing is a single `rename`;
/// otherwise each staged file is renamed into place.
public final class StagingArea: Sendable {
    /// The staging folder.
    public let folder: URL
    private let root: String
    private let staged = Mutex<Set<String>>([])

    /// Creates an empty staging folder for an output folder, replacing any left by a killed build.
    public init(for output: URL) throws {
        let parent = output.deletingLastPathComponent()
        folder = parent.appending(path: ".\(output.lastPathComponent).staging", directoryHint: .isDirectory)
        root = folder.standardizedFileURL.path
        try? FileManager.default.removeItem(at: folder)
        try Self.makeFolders(root)
    }

    /// Stores the bytes of an output path (`albums/x/index.html`). Safe to call from many tasks.
    public func stage(_ bytes: some Collection<UInt8>, as path: String) throws {
        let target = try prepare(path)
        try AtomicFile.writeInPlace(bytes, to: target)
    }

    /// Stages a copy of a file. With `linking`, for files of gallery's own cache (never changed
    /// in place, only replaced), a hard link when the file system allows one.
    public func stage(copyOf source: URL, as path: String, linking: Bool = false) throws {
        let target = try prepare(path)
        if linking, link(source.path, target) == 0 { return }
        try AtomicFile.writeInPlace(Array(try Data(contentsOf: source)), to: target)
    }

    private func prepare(_ path: String) throws -> String {
        staged.withLock { _ = $0.insert(path) }
        if let slash = path.lastIndex(of: "/") {
            try Self.makeFolders(root + "/" + path[..<slash])
        }
        return root + "/" + path
    }

    /// The output paths staged so far.
    public var paths: Set<String> { staged.withLock { $0 } }

    /// The file holding the staged bytes of an output path, if it was staged.
    public func file(for path: String) -> URL? {
        staged.withLock { $0.contains(path) } ? folder.appending(path: path) : nil
    }

    /// Moves every staged file to its place in the output folder, then removes the staging folder.
    ///
    /// - Returns: The number of files moved.
    @discardableResult
    public func commit(into output: URL) throws -> Int {
        let paths = self.paths
        let outputPath = output.standardizedFileURL.path
        try Self.makeFolders(String(outputPath[..<(outputPath.lastIndex(of: "/") ?? outputPath.endIndex)]))
        if rename(root, outputPath) == 0 { return paths.count }
        guard errno == EEXIST || errno == ENOTEMPTY else {
            throw AtomicFile.WriteError(path: outputPath, reason: AtomicFile.systemError())
        }
        var created: Set<Substring> = []
        for path in paths.sorted() {
            if let slash = path.lastIndex(of: "/"), created.insert(path[..<slash]).inserted {
                try Self.makeFolders(outputPath + "/" + path[..<slash])
            }
            if rename(root + "/" + path, outputPath + "/" + path) != 0 {
                throw AtomicFile.WriteError(path: outputPath + "/" + path, reason: AtomicFile.systemError())
            }
        }
        discard()
        return paths.count
    }

    /// Creates a folder and any missing parents with `mkdir(2)` (Foundation's version costs ten
    /// times as much, which shows when a build creates ten thousand album folders).
    static func makeFolders(_ path: some StringProtocol) throws {
        let path = String(path)
        if mkdir(path, 0o755) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else {
            throw AtomicFile.WriteError(path: path, reason: AtomicFile.systemError())
        }
        try makeFolders(path[..<slash])
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw AtomicFile.WriteError(path: path, reason: AtomicFile.systemError()) }
    }

    /// Deletes the staging folder and whatever is in it.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
    }
}
