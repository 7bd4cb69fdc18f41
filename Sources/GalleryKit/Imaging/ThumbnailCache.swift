import Foundation

/// The thumbnails made so far, on disk, so that an unchanged cover is never encoded twice.
///
/// A thumbnail is keyed by what decides its bytes: the cover's content hash, the size, the fit,
/// the format, the quality, the shim's version and, for one resized from a larger thumbnail
/// rather than made from the cover, that one's size. (The thumbnailer makes a cover's sizes from
/// one decode: the largest from the cover, the others from the largest, but an SVG's, each drawn
/// from the vector; see ``Thumbnailer/chains(of:from:)``.) The key is the file name, under
/// `.gallery-cache/thumbnails/`: `ab/abcdef…-300-crop-q80-v4.webp` for the largest,
/// `ab/abcdef…-200-of300-crop-q80-v4.webp` for a 200 resized from it. So a lookup is one file
/// read and needs no index, and a name holds the same bytes whichever build made it (with the
/// same libvips): a missing thumbnail is made with the rest of its chain, as in a cold cache,
/// so a build's thumbnails never depend on what the cache held before.
///
/// Files are written to a temporary file in their folder and renamed into place, so a killed
/// build leaves whole thumbnails or none; a file that is not a whole image of its format (a torn
/// write after a power cut), or whose bytes are not those stored (the cover's size file keeps a
/// hash of each), is made again.
///
/// Only the encoding needs the cover's bytes: a warm build reads no cover and decodes nothing.
/// The pixel limit applies to cached thumbnails too, so a build gives the same site whether the
/// cache is warm or cold: beside a cover's thumbnails the cache keeps its size as its header
/// claims it (`ab/abcdef….size`, "600 600", then a hash of each thumbnail stored), and checks
/// that against the limit. A thumbnail the size file does not list (a cache from before these
/// files, or one whose size file was lost) is made again with its chain, which writes one.
public struct ThumbnailCache: Sendable {
    /// The cache folder.
    public let folder: URL
    /// What makes the thumbnails the cache does not hold yet.
    public let thumbnailer: Thumbnailer

    /// Opens (or prepares to create) the cache in `folder`.
    public init(folder: URL, thumbnailer: Thumbnailer) {
        self.folder = folder.standardizedFileURL
        self.thumbnailer = thumbnailer
    }

    /// A thumbnail from the cache or just made: its bytes and where the cache keeps them.
    public struct Entry: Sendable, Hashable {
        /// The encoded thumbnail.
        public var bytes: [UInt8]
        /// The cache file holding the bytes; `nil` if it could not be written (the bytes are
        /// still good).
        public var file: URL?
        /// Whether it was encoded by this call rather than found in the cache.
        public var wasMade: Bool
    }

    /// The file that records the size of the cover with `contentHash` as its header claims it.
    public func sizeFile(forCover contentHash: String) -> URL {
        folder.appending(path: "\(contentHash.prefix(2))/\(contentHash).size")
    }

    /// Removes every file of the cache but those in `used` (standardized paths), and the shard
    /// folders left empty; files whose names start with a dot (a write under way) are left.
    ///
    /// - Returns: How many files were removed.
    public func removeAll(but used: Set<String>) -> Int {
        ShardedFolder.removeAll(in: folder.path, but: used)
    }

    /// The files that hold (or will hold) the thumbnails of the cover with `contentHash`, of
    /// `kind`, one per spec, as ``thumbnails(of:as:)`` makes them: one that the thumbnailer resizes
    /// from a larger one of the list names that one's size too (`…-140-of300-crop-q80-v4.webp`),
    /// since its bytes depend on it; an SVG's are all drawn from the vector. (A spec given twice
    /// has one file.)
    public func files(forCover contentHash: String, kind: ImageKind, as specs: [ThumbnailSpec]) -> [URL] {
        zip(specs, Thumbnailer.resizedFrom(in: specs, from: kind)).map { spec, source in
            let size = source.map { "\(spec.size)-of\($0)" } ?? "\(spec.size)"
            let name = "\(contentHash)-\(size)-\(spec.fit.rawValue)-q\(spec.quality)-v\(Thumbnailer.shimVersion).\(spec.format.fileExtension)"
            return folder.appending(path: "\(contentHash.prefix(2))/\(name)")
        }
    }

    /// The thumbnails of a cover, one per spec, from the cache where it has them and made (and
    /// stored) where it has not. The cover's file is read, and decoded, at most once, and only if
    /// one is missing.
    ///
    /// A missing thumbnail is made with the whole of its chain (``Thumbnailer/chains(of:from:)``),
    /// not on its own: resized from the largest of the chain as it would be in a cold cache, so the
    /// bytes under a name never depend on what the cache held. The others of the chain are made
    /// again with it (the decode is the cost, not the resizes) but the cached files are kept:
    /// their bytes are the same.
    /// - Throws: ``ThumbnailError`` if the cover cannot be read or decoded.
    public func thumbnails(of cover: Cover, as specs: [ThumbnailSpec]) throws(ThumbnailError) -> [Entry] {
        let sizeFile = sizeFile(forCover: cover.contentHash)
        var (size, sums) = Self.readRecord(sizeFile)
        var source: [UInt8]?
        func read() throws(ThumbnailError) -> [UInt8] {
            if let source { return source }
            do { source = try [UInt8](Data(contentsOf: cover.file)) } catch {
                throw ThumbnailError(.corrupt("cannot read \(cover.file.path): \(error.localizedDescription)"))
            }
            return source ?? []
        }
        let files = files(forCover: cover.contentHash, kind: cover.kind, as: specs)
        var entries: [Entry?] = []
        for (spec, file) in zip(specs, files) {
            // Whole, and the bytes stored: a cache file damaged where its format has no check
            // (a flipped byte, a block of zeros after a crash) is made again too.
            if let cached = try? [UInt8](Data(contentsOf: file)), Self.isWhole(cached, format: spec.format),
               sums[file.lastPathComponent] == FastHash.hash(cached) {
                entries.append(Entry(bytes: cached, file: file, wasMade: false))
            } else {
                entries.append(nil)
            }
        }
        let wanted = Thumbnailer.chains(of: specs, from: cover.kind).filter { $0.contains { entries[$0] == nil } }.flatMap { $0 }.sorted()
        if let recorded = size {
            do throws(ThumbnailError) {
                try thumbnailer.check(width: recorded.width, height: recorded.height, for: specs)
            } catch {
                // A refusal on the record's word alone is checked against the cover's header: a
                // damaged record must not refuse a good cover on every build.
                guard Thumbnailer.libraryProblem == nil, let real = try? Thumbnailer.dimensions(of: read()),
                      real.width != recorded.width || real.height != recorded.height else { throw error }
                size = real
                _ = Self.store(Self.record(size: real, sums: sums), at: sizeFile)
                try thumbnailer.check(width: real.width, height: real.height, for: specs)
            }
        }
        if !wanted.isEmpty {
            let source = try read()
            let made = try thumbnailer.thumbnails(of: source, as: wanted.map { specs[$0] })
            if size == nil { size = try? Thumbnailer.dimensions(of: source) }
            var stored: [URL: Bool] = [:]
            for (index, bytes) in zip(wanted, made) where entries[index] == nil {
                let file = files[index]
                let isStored = stored[file] ?? Self.store(bytes, at: file)
                stored[file] = isStored
                if isStored { sums[file.lastPathComponent] = FastHash.hash(bytes) }
                entries[index] = Entry(bytes: bytes, file: isStored ? file : nil, wasMade: true)
            }
            if let size { _ = Self.store(Self.record(size: size, sums: sums), at: sizeFile) }
        }
        return entries.compactMap { $0 }
    }

    /// What a size file records: the width and height of the cover as its header claims them
    /// (`nil` when there is no file, or it is damaged), and a hash of each thumbnail of it stored,
    /// by file name, one a line after the size (`abcdef…-300-crop-q80-v6.webp 1f2e…`).
    private static func readRecord(_ file: URL) -> (size: (width: Int, height: Int)?, sums: [String: UInt64]) {
        guard let data = try? Data(contentsOf: file) else { return (nil, [:]) }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let first = lines.first else { return (nil, [:]) }
        let numbers = first.split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2, numbers.allSatisfy({ $0 > 0 }) else { return (nil, [:]) }
        var sums: [String: UInt64] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: " ")
            if fields.count == 2, let sum = UInt64(fields[1], radix: 16) { sums[String(fields[0])] = sum }
        }
        return ((numbers[0], numbers[1]), sums)
    }

    /// A size file's bytes, its lines in a stable order.
    private static func record(size: (width: Int, height: Int), sums: [String: UInt64]) -> [UInt8] {
        Array(("\(size.width) \(size.height)\n" + sums.sorted { $0.key < $1.key }.map { "\($0.key) \(String($0.value, radix: 16))\n" }.joined()).utf8)
    }

    /// Writes a thumbnail atomically, creating its shard folder when needed; false if it cannot
    /// be written (the build goes on with the bytes in memory, and makes it again next time).
    private static func store(_ bytes: [UInt8], at file: URL) -> Bool {
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(bytes, to: file, sync: false)
            return true
        } catch {}
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(bytes, to: file, sync: false)
            return true
        } catch {
            return false
        }
    }

    /// Whether bytes are a whole image of the format: a WebP whose RIFF size matches its length,
    /// a JPEG that starts with SOI and ends with EOI, a PNG that ends with its IEND chunk, an AVIF
    /// whose top-level boxes, starting with `ftyp`, add up to its length.
    static func isWhole(_ bytes: [UInt8], format: ThumbnailFormat) -> Bool {
        switch format {
        case .webp:
            guard bytes.count >= 12, ImageKind.sniff(bytes) == .webp else { return false }
            let size = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
            return size + 8 == bytes.count
        case .jpeg:
            return bytes.count >= 4 && ImageKind.sniff(bytes) == .jpeg && bytes.suffix(2).elementsEqual([0xFF, 0xD9])
        case .png:
            let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
            return bytes.count > 8 + end.count && ImageKind.sniff(bytes) == .png && bytes.suffix(end.count).elementsEqual(end)
        case .avif:
            guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return false }
            var offset = 0
            while offset + 8 <= bytes.count {
                let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
                // Size 0 (to the end) and 1 (64-bit) are legal, but libheif writes neither.
                guard size >= 8 else { return false }
                offset += size
            }
            return offset == bytes.count
        }
    }
}
