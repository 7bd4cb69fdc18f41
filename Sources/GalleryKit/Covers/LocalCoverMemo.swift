import Foundation
import Synchronization

/// What the last build learnt of each local cover file: its kind and content hash, under the
/// file's ``FileStamp``, so an untouched file is not read and hashed again (as `git` keeps its
/// index); a fresh checkout has new stamps and simply hashes everything once.
///
/// Kept in `local-covers.tsv` in the cache folder: one tab-separated line per file, written
/// atomically after the covers step. A damaged or missing file is an empty memo.
public final class LocalCoverMemo: Sendable {
    struct Known: Hashable {
        var stamp: FileStamp
        var kind: ImageKind
        var contentHash: String
    }

    /// The memo file.
    public let file: URL
    private let previous: [String: Known]
    private let current = Mutex([String: Known]())

    static let header = "# gallery local covers v1: path, size, mtime ns, ctime ns, inode, kind, sha256"

    /// Loads the memo kept in `file`, if there is one.
    public init(file: URL) {
        self.file = file
        var known: [String: Known] = [:]
        if let text = try? String(contentsOf: file, encoding: .utf8), text.hasPrefix(Self.header + "\n") {
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count == 7, let size = Int(fields[1]), let modified = Int(fields[2]), let changed = Int(fields[3]),
                      let inode = UInt64(fields[4]), let kind = ImageKind(rawValue: String(fields[5])), fields[6].count == 64
                else { continue }
                known[String(fields[0])] = Known(stamp: FileStamp(size: size, modified: modified, changed: changed, inode: inode), kind: kind, contentHash: String(fields[6]))
            }
        }
        previous = known
    }

    /// The memo for a site's cache folder.
    public convenience init(cacheFolder: URL) {
        self.init(file: cacheFolder.appending(path: "local-covers.tsv"))
    }

    /// The cover a file was last time, if it has not been touched since.
    func cover(at file: URL) -> Cover? {
        let path = file.path
        guard let known = previous[path], let stamp = FileStamp.of(path), stamp == known.stamp else { return nil }
        current.withLock { $0[path] = known }
        return Cover(file: file, kind: known.kind, contentHash: known.contentHash, size: stamp.size)
    }

    /// Records a cover just read and hashed; `stamp` is the file's, taken before it was read.
    func record(_ cover: Cover, stamp: FileStamp?) {
        guard let stamp, stamp.size == cover.size else { return }
        current.withLock { $0[cover.file.path] = Known(stamp: stamp, kind: cover.kind, contentHash: cover.contentHash) }
    }

    /// The stamps this build took of these files (each before it was read), or `nil` if it
    /// has none for one of them (one changed while it was read).
    func stamps(of paths: some Sequence<String>) -> [String: FileStamp]? {
        let known = current.withLock { $0 }
        var stamps: [String: FileStamp] = [:]
        for path in paths {
            guard let entry = known[path] else { return nil }
            stamps[path] = entry.stamp
        }
        return stamps
    }

    /// Writes what this build saw (and only that), atomically; failures only cost a rehash.
    public func save() {
        let known = current.withLock { $0 }
        // A warm build that met every cover as before leaves the file as it is.
        guard known != previous else { return }
        let lines = known.sorted { $0.key < $1.key }.compactMap { path, entry -> String? in
            guard !path.contains("\t"), !path.contains("\n") else { return nil }
            let s = entry.stamp
            return "\(path)\t\(s.size)\t\(s.modified)\t\(s.changed)\t\(s.inode)\t\(entry.kind.rawValue)\t\(entry.contentHash)"
        }
        let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Array(text.utf8), to: file, sync: false)
    }
}
