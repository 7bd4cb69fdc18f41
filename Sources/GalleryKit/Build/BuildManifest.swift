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
    ///
    /// Parsed byte by byte: at 10k albums a no-op rebuild reads 10k lines, and splitting them
    /// into strings took a tenth of its time.
    public static func load(from url: URL) -> BuildManifest {
        guard let data = try? Data(contentsOf: url) else { return BuildManifest() }
        return parse(Array(data)) ?? BuildManifest()
    }

    /// Parses a manifest's bytes; `nil` when they are not one.
    static func parse(_ bytes: [UInt8]) -> BuildManifest? {
        bytes.withUnsafeBufferPointer { buffer -> BuildManifest? in
            let headerBytes = Array((header + "\n").utf8)
            guard buffer.count >= headerBytes.count, buffer.prefix(headerBytes.count).elementsEqual(headerBytes) else { return nil }
            var manifest = BuildManifest()
            manifest.entries.reserveCapacity(buffer.count / 64)
            var index = headerBytes.count
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
            while index < buffer.count {
                if buffer[index] == 0x0A { index += 1; continue }
                guard let path = field(until: 0x09), !path.isEmpty,
                      let key = field(until: 0x09).flatMap({ number($0, radix: 16) }),
                      let size = field(until: 0x09).flatMap({ number($0, radix: 10) }),
                      let hash = field(until: 0x0A).flatMap({ number($0, radix: 16) })
                else { return nil }
                manifest.entries[String(decoding: path, as: UTF8.self)] = Entry(inputKey: key, size: Int(size), outputHash: hash)
            }
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
