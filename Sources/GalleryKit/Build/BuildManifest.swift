import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the last build wrote into an output folder: for each file, a key of everything it was
/// made from (by content, never by modification time) and the size and hash of its bytes.
///
/// The next build skips rendering an output whose key is unchanged and whose file is still in
/// place, leaves alone a file whose new bytes hash the same, and deletes the outputs of albums
/// that are gone. It lives in the cache (`.gallery-cache/builds/`), one per output folder, so a
/// CI job that restores the cache and the previous output rebuilds only what changed.
public struct BuildManifest: Sendable, Hashable {
    /// One output's record.
    public struct Entry: Sendable, Hashable {
        /// The hash of everything the output was made from.
        public var inputKey: UInt64
        /// The size of its bytes.
        public var size: Int
        /// The hash of its bytes.
        public var outputHash: UInt64

        /// The record of an output a build was changing when it stopped: no file has its size,
        /// so it is made and written again.
        static let untrusted = Entry(inputKey: 0, size: 999_999_999_999_999_999, outputHash: 0)
    }

    /// The format's first line; a file without it (or one of ``formerHeaders``) is ignored, and
    /// a full build follows. Entry lines end with their path (`KEY\tSIZE\tHASH\tPATH`), so a path
    /// may hold tabs: an asset's file name can.
    static let header = "gallery-manifest 3"
    /// The first lines of earlier formats, whose entry lines start with their path; their
    /// entries are read as they are (format 1 had no stamps).
    static let formerHeaders = ["gallery-manifest 2", "gallery-manifest 1"]

    /// The records by output path.
    public var entries: [String: Entry] = [:]
    /// What the build was made from, when it ended without findings.
    var stamp: BuildStamp?
    /// The paths in order, as the file read held them, when it held them sorted: a build whose
    /// outputs are the same paths (an edit) writes its lines in this order rather than sorting
    /// 20,000 paths again. A hint, not part of what the manifest says (`==` ignores it).
    var sortedPaths: [String] = []
    /// When the file read was last written, in nanoseconds since 1970 (`nil` for a manifest
    /// read from nowhere). Every output it records was in place by then: a file changed since
    /// (by hand, or by a build whose manifest this is not, as when CI restores an older cache
    /// over a newer output folder) is read again before it is trusted. Not part of what the
    /// manifest says (`==` ignores it).
    var writtenAt: Int?
    /// The entry lines of the file read, when they are as this build would write them (see
    /// ``ReadLines``). A hint, not part of what the manifest says (`==` ignores it).
    var readLines: ReadLines?

    /// An empty manifest.
    public init() {}

    public static func == (left: BuildManifest, right: BuildManifest) -> Bool {
        left.entries == right.entries && left.stamp == right.stamp
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries)
        hasher.combine(stamp)
    }

    /// The journal of a build that is changing the output folder: the outputs it touches, one
    /// path a line, beside the manifest (`HASH.journal`); removed once the manifest is written.
    static func journal(of manifest: URL) -> URL {
        manifest.deletingPathExtension().appendingPathExtension("journal")
    }

    /// Writes a journal of `paths` (those that cannot be kept on one line are left out: a
    /// manifest does not keep them either).
    static func writeJournal(_ paths: Set<String>, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lines = paths.filter { !hasLineFeed($0) }.sorted().joined(separator: "\n")
        try AtomicFile.write(Array((lines + "\n").utf8), to: url, sync: false)
    }

    /// Reads the manifest of an output folder, with what a build that stopped while writing
    /// left in its journal taken into account: each output it names is untrusted (made and
    /// written again, or removed when no longer made), and the stamp is void.
    public static func load(for output: URL, cache: URL) -> BuildManifest {
        let file = file(for: output, cache: cache)
        var manifest = load(from: file)
        guard let journal = try? Data(contentsOf: journal(of: file)) else { return manifest }
        manifest.stamp = nil
        // The lines read no longer say what the entries do.
        manifest.readLines = nil
        for line in Array(journal).split(separator: 0x0A) where Array(line).withUnsafeBufferPointer({ isOutputPath($0) }) {
            manifest.entries[String(decoding: line, as: UTF8.self)] = .untrusted
        }
        return manifest
    }

    /// The real path of a folder that may not exist yet: its nearest existing ancestor's, with
    /// every symbolic link resolved, and the rest of the path after it.
    static func realPath(_ folder: URL) -> String {
        var existing = folder.standardizedFileURL.path
        var rest: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                return rest.isEmpty ? base : (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            guard existing != "/", let slash = existing.lastIndex(of: "/") else { return folder.standardizedFileURL.path }
            rest.append(String(existing[existing.index(after: slash)...]))
            existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
        }
    }

    /// Whether a manifest's path names a file inside the output folder: relative, with no `..`,
    /// `.` or empty segment, and no NUL. A manifest that holds any other is not trusted (the
    /// cache may come from elsewhere, as CI restores it): removing its "outputs" would delete
    /// files outside the folder.
    static func isOutputPath(_ path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !path.isEmpty else { return false }
        // Segment by segment over the bytes in place: a split made an array a line, about a fifth
        // of reading a 10k-line manifest (perf). `start` is where the current segment began.
        var start = 0
        for index in 0...path.count {
            let byte = index < path.count ? path[index] : UInt8(ascii: "/")
            if byte == 0 { return false }
            guard byte == UInt8(ascii: "/") else { continue }
            let length = index - start
            if length == 0 || (path[start] == UInt8(ascii: ".") && (length == 1 || (length == 2 && path[start + 1] == UInt8(ascii: ".")))) { return false }
            start = index + 1
        }
        return true
    }

    /// The base URL the last good build into `output` wrote its pages for (`--base-url`, or
    /// `gallery.toml`'s `base_url`), kept beside its manifest, so `gallery check` resolves links
    /// that start with `/` as that build wrote them; `nil` if no build recorded one.
    public static func recordedBaseURL(for output: URL, cache: URL) -> String? {
        let file = baseURLFile(for: output, cache: cache)
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let line = text.trimmingCharacters(in: .newlines)
        return line.isEmpty || line.contains("\n") ? nil : line
    }

    /// Records the base URL of a good build into `output` (written only when it changed).
    static func recordBaseURL(_ baseURL: String, for output: URL, cache: URL) throws {
        guard recordedBaseURL(for: output, cache: cache) != baseURL else { return }
        try AtomicFile.write(Data((baseURL + "\n").utf8), to: baseURLFile(for: output, cache: cache))
    }

    private static func baseURLFile(for output: URL, cache: URL) -> URL {
        file(for: output, cache: cache).deletingPathExtension().appendingPathExtension("base-url")
    }

    /// Reads a manifest; a missing, foreign or damaged file gives an empty one.
    ///
    /// Parsed byte by byte: at 10k albums a no-op rebuild reads 10k lines, and splitting them
    /// into strings took a tenth of its time.
    public static func load(from url: URL) -> BuildManifest {
        // The time before the bytes: a manifest replaced in between is taken for older than it
        // is, which only makes more outputs read again.
        let written = FileStamp.of(url.path)?.modified
        guard let bytes = FileBytes.contents(of: url.path), var manifest = parse(bytes) else { return BuildManifest() }
        manifest.writtenAt = written
        return manifest
    }

    /// The inputs digest of a manifest file's stamp, from its first line after the header
    /// alone; `nil` when it has none. What a build that may stop at the stamp reads first: when
    /// its inputs differ, it reads the whole manifest while it decodes the albums.
    static func stampInputs(in url: URL) -> UInt64? {
        let prefix = Array((header + "\n/stamp\t").utf8)
        // Read as every record is, so a named pipe in its place is no record rather than a wait.
        guard let bytes = FileBytes.contents(of: url.path, upTo: prefix.count + 17) else { return nil }
        guard bytes.count == prefix.count + 17, bytes.starts(with: prefix), bytes.last == 0x09 else { return nil }
        return bytes[prefix.count..<(prefix.count + 16)].withContiguousStorageIfAvailable { number($0, radix: 16) } ?? nil
    }

    /// Parses a manifest's bytes; `nil` when they are not one.
    ///
    /// Entry lines start with a hex key, so lines that start with `/` can say other things:
    /// `/stamp` (the digest and counts of a ``BuildStamp``) and `/watch` (one watched file's
    /// stamp).
    static func parse(_ bytes: [UInt8]) -> BuildManifest? {
        bytes.withUnsafeBufferPointer { buffer -> BuildManifest? in
            guard let format = ([header] + formerHeaders).first(where: {
                let line = Array(($0 + "\n").utf8)
                return buffer.count >= line.count && buffer.prefix(line.count).elementsEqual(line)
            }) else { return nil }
            let pathFirst = format != header
            var manifest = BuildManifest()
            var watched: [String: FileStamp] = [:]
            manifest.entries.reserveCapacity(buffer.count / 64)
            var index = format.utf8.count + 1
            var inOrder = true
            manifest.sortedPaths.reserveCapacity(buffer.count / 64)
            // Where each entry line starts, while each is as `entryLines()` writes it, follows
            // the one before and the paths are in order.
            var lineStarts: [Int]? = pathFirst ? nil : []
            lineStarts?.reserveCapacity(buffer.count / 64 + 1)
            var linesEnd = 0
            /// The bytes up to the next `terminator`, which is consumed; `nil` at a line's end.
            func field(until terminator: UInt8) -> UnsafeBufferPointer<UInt8>? {
                let start = index
                while index < buffer.count, buffer[index] != terminator {
                    if buffer[index] == 0x0A { return nil }
                    index += 1
                }
                guard index < buffer.count else { return nil }
                defer { index += 1 }
                return UnsafeBufferPointer(rebasing: buffer[start..<index])
            }
            func hex(until terminator: UInt8 = 0x09) -> UInt64? { field(until: terminator).flatMap { number($0, radix: 16) } }
            func decimal(until terminator: UInt8 = 0x09) -> Int? { field(until: terminator).flatMap { number($0, radix: 10) }.map(Int.init) }
            while index < buffer.count {
                if buffer[index] == 0x0A { index += 1; continue }
                if buffer[index] == UInt8(ascii: "/") {
                    guard let kind = field(until: 0x09) else { return nil }
                    switch String(decoding: kind, as: UTF8.self) {
                    case "/stamp":
                        guard manifest.stamp == nil, let inputs = hex(), let albums = decimal(), let pages = decimal(),
                              let local = decimal(), let remote = decimal(), let thumbnails = decimal(until: 0x0A)
                        else { return nil }
                        let counts = BuildStamp.Counts(albums: albums, pages: pages, coversLocal: local, coversRemote: remote, thumbnails: thumbnails)
                        manifest.stamp = BuildStamp(inputs: inputs, watched: [:], counts: counts)
                    case "/watch":
                        guard let size = decimal(), let modified = hex(), let changed = hex(), let inode = hex(),
                              let path = field(until: 0x0A), !path.isEmpty
                        else { return nil }
                        watched[String(decoding: path, as: UTF8.self)] = FileStamp(
                            size: size, modified: Int(bitPattern: UInt(modified)), changed: Int(bitPattern: UInt(changed)), inode: inode
                        )
                    default:
                        return nil
                    }
                    continue
                }
                let lineStart = index
                let line: (path: UnsafeBufferPointer<UInt8>, entry: Entry)?
                if pathFirst {
                    line = field(until: 0x09).flatMap { path in
                        guard let key = hex(), let size = decimal(), let hash = hex(until: 0x0A) else { return nil }
                        return (path, Entry(inputKey: key, size: size, outputHash: hash))
                    }
                } else if let key = hex(), let size = decimal(), let hash = hex(), let path = field(until: 0x0A) {
                    line = (path, Entry(inputKey: key, size: size, outputHash: hash))
                } else {
                    line = nil
                }
                guard let line, isOutputPath(line.path) else { return nil }
                let path = String(decoding: line.path, as: UTF8.self)
                manifest.entries[path] = line.entry
                if inOrder {
                    // Kept only while each path sorts after the one before (as `save` writes them).
                    if let last = manifest.sortedPaths.last, !(last < path) {
                        inOrder = false
                        manifest.sortedPaths = []
                        lineStarts = nil
                    } else {
                        manifest.sortedPaths.append(path)
                    }
                }
                if lineStarts != nil {
                    if lineStarts?.isEmpty == true || lineStart == linesEnd, lineStarts?.count == manifest.sortedPaths.count - 1,
                       ReadLines.isAsWritten(buffer, from: lineStart, to: index, size: line.entry.size, pathLength: line.path.count) {
                        lineStarts?.append(lineStart)
                        linesEnd = index
                    } else {
                        lineStarts = nil
                    }
                }
            }
            if manifest.sortedPaths.count != manifest.entries.count { manifest.sortedPaths = [] }
            if lineStarts?.isEmpty == false, linesEnd == buffer.count, lineStarts?.count == manifest.sortedPaths.count {
                lineStarts?.append(linesEnd)
                manifest.readLines = lineStarts.map { ReadLines(bytes: bytes, starts: $0) }
            }
            // Watched files without a stamp line mean nothing; a stamp keeps only its own.
            manifest.stamp?.watched = watched
            return manifest
        }
    }

    /// An unsigned number of 1 to 16 digits, or `nil`.
    private static func number(_ digits: UnsafeBufferPointer<UInt8>, radix: UInt64) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 16 || (radix == 10 && digits.count <= 18) else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            value = value * radix + digit
        }
        return value
    }

    /// Writes the manifest atomically, in path order (so it diffs and compresses well); with
    /// `lines`, its ``EntryLines`` made beforehand.
    public func save(to url: URL) throws {
        try save(to: url, lines: entryLines())
    }

    func save(to url: URL, lines: EntryLines) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(encoded(lines: lines), to: url, sync: false)
    }

    /// The entries' lines, in path order: most of the file, and all of it that depends on the
    /// entries alone, so a build can make them while it moves its files into place.
    struct EntryLines: Sendable {
        var bytes: [UInt8]
        /// Whether every path could be kept on one line (otherwise no stamp is kept).
        var everyPathKept: Bool
    }

    /// The file's bytes, written directly rather than through string interpolation: at 10 000
    /// albums it has 20 000 lines, and every build saves it.
    ///
    /// A path that cannot be kept on one line is left out: its output is simply written again
    /// by the next build. Then no stamp is kept either, since a stamp vouches for every output
    /// (and every watched file) being in place.
    func encoded() -> [UInt8] {
        encoded(lines: entryLines())
    }

    private func encoded(lines: EntryLines) -> [UInt8] {
        var file = ByteWriter(capacity: lines.bytes.count + 64 + (stamp?.watched.count ?? 0) * 100)
        file.write(Self.header)
        file.write("\n")
        if let stamp, lines.everyPathKept, !stamp.watched.keys.contains(where: Self.hasLineFeed) {
            let counts = stamp.counts
            file.write("/stamp\t")
            file.writeHex16(stamp.inputs)
            for number in [counts.albums, counts.pages, counts.coversLocal, counts.coversRemote, counts.thumbnails] {
                file.write("\t")
                file.write(number)
            }
            file.write("\n")
            for (path, watched) in stamp.watched.sorted(by: { $0.key < $1.key }) {
                file.write("/watch\t")
                file.write(watched.size)
                file.write("\t")
                file.writeHex16(UInt64(bitPattern: Int64(watched.modified)))
                file.write("\t")
                file.writeHex16(UInt64(bitPattern: Int64(watched.changed)))
                file.write("\t")
                file.writeHex16(watched.inode)
                file.write("\t")
                file.write(path)
                file.write("\n")
            }
        }
        file.write(bytes: lines.bytes)
        return file.bytes
    }

    /// Whether a path holds a line feed, and so cannot end a line of the file. Over the
    /// contiguous bytes: `utf8.contains` took 20 ms for 100,000 paths.
    static func hasLineFeed(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { $0.contains(0x0A) }
    }
}
