import Foundation

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
    }

    /// The format's first line; a file without it is ignored (a full build follows).
    static let header = "gallery-manifest 1"

    /// The records by output path.
    public var entries: [String: Entry] = [:]

    /// An empty manifest.
    public init() {}

    /// The manifest file for an output folder, in the cache folder.
    public static func file(for output: URL, cache: URL) -> URL {
        let name = FastHash.hash(output.standardizedFileURL.path).hex16
        return cache.appending(path: "builds/\(name).manifest")
    }

    /// Reads a manifest; a missing, foreign or damaged file gives an empty one.
    public static func load(from url: URL) -> BuildManifest {
        guard let data = try? Data(contentsOf: url) else { return BuildManifest() }
        var manifest = BuildManifest()
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: true).makeIterator()
        guard let first = lines.next(), String(decoding: first, as: UTF8.self) == header else { return manifest }
        while let line = lines.next() {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 4,
                  let key = UInt64(String(decoding: fields[1], as: UTF8.self), radix: 16),
                  let size = Int(String(decoding: fields[2], as: UTF8.self)),
                  let hash = UInt64(String(decoding: fields[3], as: UTF8.self), radix: 16)
            else { return BuildManifest() }
            manifest.entries[String(decoding: fields[0], as: UTF8.self)] = Entry(inputKey: key, size: size, outputHash: hash)
        }
        return manifest
    }

    /// Writes the manifest atomically, in path order (so it diffs and compresses well).
    public func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var text = Self.header + "\n"
        text.reserveCapacity(entries.count * 80)
        for path in entries.keys.sorted() {
            guard let entry = entries[path] else { continue }
            text += "\(path)\t\(entry.inputKey.hex16)\t\(entry.size)\t\(entry.outputHash.hex16)\n"
        }
        try AtomicFile.write(Array(text.utf8), to: url, sync: false)
    }
}
