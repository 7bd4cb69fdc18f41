import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A folder where a build puts validated files until every check has passed.
///
/// Nothing reaches the output folder before ``commit(into:)``, so a failed build leaves the
/// previous site untouched. When there is no output folder yet, the staging folder sits beside
/// where it will be (`.public.staging`), and committing is a single `rename`. When there is one,
/// the staging folder is a hidden folder inside it (``insideName``), so each staged file is
/// renamed into place within one file system: the output may be a mount point (a container's
/// volume), or a link to a folder elsewhere, and it keeps its own owner, mode and group.
public final class StagingArea: Sendable {
    /// The hidden folder's name inside an existing output folder. Checks, `--clean-destination`
    /// and the search for files no build made leave it alone, and the next build clears what a
    /// killed one left there.
    public static let insideName = ".gallery-staging"

    /// The staging folder.
    public let folder: URL
    let root: String
    /// Whether the staging folder is inside the output folder (which existed when it was made).
    private let inside: Bool
    private let staged = Mutex<Set<String>>([])
    /// The staging folder, open: pages are written and their folders made relative to it
    /// (`openat`, `mkdirat`), so the kernel walks `albums/x/index.html` rather than the whole
    /// path for each of a site's files. -1 if it could not be opened (paths are used then).
    private let descriptor: Int32

    /// Creates an empty staging folder for an output folder, replacing any left by a killed build,
    /// with `folders` (paths inside it, parents first) made in it.
    ///
    /// A cold build makes its ten thousand album folders here, ahead, while its covers are
    /// thumbnailed (``BuildStep/stageAhead(_:)``): made later, one a page, by the threads that
    /// render, they cost a tenth of the render step, the threads taking turns at the lock of the
    /// one folder that holds them.
    public init(for output: URL, folders: [String] = []) throws {
        var isFolder: ObjCBool = false
        inside = FileManager.default.fileExists(atPath: output.path, isDirectory: &isFolder) && isFolder.boolValue
        if inside {
            folder = output.appending(path: Self.insideName, directoryHint: .isDirectory)
        } else {
            folder = output.deletingLastPathComponent().appending(path: ".\(output.lastPathComponent).staging", directoryHint: .isDirectory)
        }
        root = folder.standardizedFileURL.path
        try? FileManager.default.removeItem(at: folder)
        // What a build from before the staging folder moved inside left beside the output.
        if inside { try? FileManager.default.removeItem(at: output.deletingLastPathComponent().appending(path: ".\(output.lastPathComponent).staging")) }
        try Self.makeFolders(root)
        descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        _ = noteUnderWay(committing: false)
        // Relative to the folder's descriptor only: a build stopped meanwhile removes the folder
        // (``abandonAll()``), and its path would make it again. (Without one, the pages make
        // their folders as they are staged.) Not one more once the build is stopping: a folder
        // made while the stop removes the others keeps their parent from going.
        if descriptor >= 0 {
            do {
                for folder in folders {
                    try refuseWhenStopping(folder)
                    try Self.makeFolders(folder, in: descriptor, named: root)
                }
            } catch {
                // No one gets this staging folder to discard: it goes here.
                discard()
                throw error
            }
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Stores the bytes of an output path (`albums/x/index.html`). Safe to call from many tasks.
    public func stage(_ bytes: some Collection<UInt8>, as path: String) throws {
        guard descriptor >= 0 else {
            try AtomicFile.writeInPlace(bytes, to: try prepare(path))
            return
        }
        try refuseWhenStopping(path)
        staged.withLock { _ = $0.insert(path) }
        // Opened first: a page's folder is there already, made ahead or by an earlier page, but
        // for one of each folder.
        try AtomicFile.writeInPlace(bytes, at: path, in: descriptor, named: root) { [descriptor, root] in
            guard let slash = path.lastIndex(of: "/") else { return false }
            try Self.makeFolders(path[..<slash], in: descriptor, named: root)
            return true
        }
    }

    /// Stages a copy of a file, a piece at a time. With `linking`, for files of gallery's own
    /// cache (never changed in place, only replaced), a hard link when the file system allows
    /// one. With `hash`, the copy must have that ``FastHash/contentHash(_:)``.
    public func stage(copyOf source: URL, as path: String, linking: Bool = false, expecting hash: UInt64? = nil) throws {
        let target = try prepare(path)
        if linking, link(source.path, target) == 0 { return }
        try AtomicFile.copyInPlace(from: source.path, to: target, expecting: hash)
    }

    private func refuseWhenStopping(_ path: String) throws {
        if Self.stopping.load(ordering: .acquiring) {
            throw AtomicFile.WriteError(path: root + "/" + path, reason: "the build is stopping", refusedBeforeWriting: true)
        }
    }

    private func prepare(_ path: String) throws -> String {
        try refuseWhenStopping(path)
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
    /// Before anything moves, every folder the files go into is checked: one that is a symbolic
    /// link (planted in the output, or left there by hand) would take the files out of the output
    /// folder, so the commit stops with an error, and nothing is changed.
    ///
    /// An earlier build's output in the way is moved aside first, when it is one of `replacing`
    /// (the previous outputs this build no longer makes): a file where a folder now goes
    /// (`static/foo` became `static/foo/index.html`), or a folder where a file now goes, holding
    /// only such outputs (and back). A folder in the way that holds anything else stops the
    /// commit before anything changes.
    ///
    /// - Returns: The number of files moved, and the outputs of `replacing` it removed.
    @discardableResult
    public func commit(into output: URL, replacing gone: Set<String> = []) throws -> (moved: Int, removed: [String]) {
        let paths = self.paths
        let outputPath = output.standardizedFileURL.path
        guard noteUnderWay(committing: true) else {
            throw AtomicFile.WriteError(path: output.path, reason: "the build was stopped before its files were moved in", refusedBeforeWriting: true)
        }
        if !inside {
            try Self.makeFolders(String(outputPath[..<(outputPath.lastIndex(of: "/") ?? outputPath.endIndex)]))
            // Only where nothing is: rename(2) would also replace an empty folder, with its owner
            // and mode, made for the site beforehand.
            var info = stat()
            if lstat(outputPath, &info) != 0, errno == ENOENT, rename(root, outputPath) == 0 {
                noteGone()
                return (paths.count, [])
            }
        }
        var folders: Set<Substring> = []
        for path in paths {
            if let slash = path.lastIndex(of: "/") { folders.insert(path[..<slash]) }
        }
        let inTheWay = gone.isEmpty ? (files: [], folders: []) : try Self.outputsInTheWay(of: paths, folders: folders, gone: gone, under: outputPath)
        try Self.refuseLinks(in: folders, under: outputPath, besides: Set(inTheWay.files))
        var removed: [String] = []
        for path in inTheWay.files where unlink(outputPath + "/" + path) == 0 { removed.append(path) }
        // The emptied folders, deepest first.
        for folder in inTheWay.folders { rmdir(outputPath + "/" + folder) }
        for folder in folders.sorted() {
            try Self.makeFolders(outputPath + "/" + folder)
        }
        for path in paths.sorted() {
            if rename(root + "/" + path, outputPath + "/" + path) != 0 {
                throw AtomicFile.WriteError(path: outputPath + "/" + path, reason: AtomicFile.systemError())
            }
        }
        discard()
        return (paths.count, removed)
    }

    /// The earlier outputs (of `gone`) that stand where the staged `paths` go: a file where one
    /// of their `folders` goes, or the files of a folder where one of them goes; and such
    /// folders with the folders inside them, deepest first. Throws, before anything changes,
    /// when such a folder holds anything else.
    private static func outputsInTheWay(of paths: Set<String>, folders: Set<Substring>, gone: Set<String>, under output: String) throws -> (files: [String], folders: [String]) {
        var inTheWay: [String] = []
        var emptied: [String] = []
        // A file an earlier build wrote where a folder now goes.
        var prefixes: Set<Substring> = []
        for folder in folders {
            var prefix = folder
            while prefixes.insert(prefix).inserted {
                if gone.contains(String(prefix)) { inTheWay.append(String(prefix)) }
                guard let slash = prefix.lastIndex(of: "/") else { break }
                prefix = prefix[..<slash]
            }
        }
        // A folder of an earlier build's files where a file now goes.
        var goneFolders: Set<Substring> = []
        for path in gone {
            var prefix = Substring(path)
            while let slash = prefix.lastIndex(of: "/") {
                prefix = prefix[..<slash]
                guard goneFolders.insert(prefix).inserted else { break }
            }
        }
        for path in paths.sorted() where goneFolders.contains(Substring(path)) {
            var info = stat()
            guard lstat(output + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            guard let walker = FileManager.default.enumerator(atPath: output + "/" + path) else { continue }
            emptied.append(path)
            while let inner = walker.nextObject() as? String {
                let type = walker.fileAttributes?[.type] as? FileAttributeType
                let relative = path + "/" + inner
                if type == .typeDirectory {
                    emptied.append(relative)
                    continue
                }
                guard type == .typeRegular, gone.contains(relative) else {
                    throw AtomicFile.WriteError(path: output + "/" + path, reason: "this is a folder where the build writes a file, and it holds \(inner), which no build of this site made; move that elsewhere and remove the folder", refusedBeforeWriting: true)
                }
                inTheWay.append(relative)
            }
        }
        // A folder's path is longer than those of the folders it is in.
        return (inTheWay, emptied.sorted { $0.utf8.count > $1.utf8.count })
    }

    /// Throws when a folder of `folders` (relative to the output), or one above it, is a symbolic
    /// link or no folder (but one of `besides`, files the commit removes first); folders not
    /// there yet are fine (they are made).
    private static func refuseLinks(in folders: Set<Substring>, under output: String, besides: Set<String> = []) throws {
        var checked: Set<Substring> = []
        for folder in folders {
            var end = folder.endIndex
            var prefixes: [Substring] = []
            while true {
                let prefix = folder[..<end]
                guard checked.insert(prefix).inserted else { break }
                prefixes.append(prefix)
                guard let slash = prefix.lastIndex(of: "/") else { break }
                end = slash
            }
            for prefix in prefixes {
                var info = stat()
                guard lstat(output + "/" + prefix, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    continue
                case S_IFREG where besides.contains(String(prefix)):
                    continue
                case S_IFLNK:
                    throw AtomicFile.WriteError(path: output + "/" + prefix, reason: "this is a symbolic link, and files written through it would land outside the output folder; remove the link (the build makes the folder)", refusedBeforeWriting: true)
                default:
                    throw AtomicFile.WriteError(path: output + "/" + prefix, reason: "this is a file where the build makes a folder; remove it", refusedBeforeWriting: true)
                }
            }
        }
    }

    /// Creates a folder and any missing parents with `mkdir(2)` (Foundation's version costs ten
    /// times as much, which shows when a build creates ten thousand album folders). Their mode
    /// is 0777 less the umask.
    static func makeFolders(_ path: some StringProtocol) throws {
        try makeFolders(path, in: AT_FDCWD, named: nil)
    }

    /// ``makeFolders(_:)`` for `path` relative to the open folder `descriptor`, whose path is
    /// `folderPath` (for messages; `nil` when `path` stands for itself).
    static func makeFolders(_ path: some StringProtocol, in descriptor: Int32, named folderPath: String?) throws {
        let path = String(path)
        let failure = { AtomicFile.WriteError(path: folderPath.map { $0 + "/" + path } ?? path, reason: AtomicFile.systemError()) }
        if mkdirat(descriptor, path, 0o777) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, let slash = path.lastIndex(of: "/"), slash != path.startIndex else { throw failure() }
        try makeFolders(path[..<slash], in: descriptor, named: folderPath)
        if mkdirat(descriptor, path, 0o777) != 0, errno != EEXIST { throw failure() }
    }

    /// Deletes the staging folder and whatever is in it.
    public func discard() {
        try? FileManager.default.removeItem(at: folder)
        noteGone()
    }
}
