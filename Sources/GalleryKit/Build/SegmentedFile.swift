import Foundation

/// A file made from every album as a head, one segment per album and a tail: the SVG strip and
/// the data file, each a few megabytes at 10k albums, in which a retitled album changes one line.
///
/// Made in full, it also gives where each album's segment lies (a ``SegmentMap``, kept in the
/// cache). With the previous build's map and the file it describes, a build after an edit copies
/// the unchanged albums' segments from the file in place and makes only the others; the strip
/// is then checked as its head, its remade tiles and its tail, as the rest passed the checks
/// when it was written.
struct SegmentedFile: Sendable {
    /// How many segments (albums) it has.
    let count: Int
    /// About how many bytes it takes, to make room for them at once.
    let capacity: Int
    /// Makes the head.
    let head: @Sendable () -> [UInt8]
    /// Writes segment `index` (with any separator before it).
    let segment: @Sendable (_ index: Int, _ writer: inout ByteWriter) -> Void
    /// The tail.
    let tail: [UInt8]

    /// The whole file, and each segment's length.
    func render() -> (bytes: [UInt8], head: Int, lengths: [UInt32]) {
        var writer = ByteWriter(capacity: capacity)
        writer.write(bytes: head())
        let head = writer.count
        var lengths: [UInt32] = []
        lengths.reserveCapacity(count)
        for index in 0..<count {
            let start = writer.count
            segment(index, &writer)
            lengths.append(UInt32(writer.count - start))
        }
        writer.write(bytes: tail)
        return (writer.bytes, head, lengths)
    }

    /// The file made again from `old`, the bytes `map` describes, with the segments whose key is
    /// unchanged copied from it.
    struct Splice {
        /// The new file.
        var bytes: [UInt8]
        /// Each segment's length in it.
        var lengths: [UInt32]
        /// The head, the segments made again and the tail: what a check needs to see.
        var remade: [UInt8]
        /// How many segments were made again.
        var remadeCount: Int
    }

    /// The file spliced from `old`, or `nil` when `map` does not describe `old` with this head,
    /// tail and number of segments (then it is made in full).
    func splice(old: [UInt8], map: SegmentMap, keys: [UInt64]) -> Splice? {
        head(fitting: old, map: map, keys: keys).map { copied(old, head: $0, map: map, keys: keys) }
    }

    /// The splice of `old`, which `map` was found to describe, into new memory.
    private func copied(_ old: [UInt8], head newHead: [UInt8], map: SegmentMap, keys: [UInt64]) -> Splice {
        var writer = ByteWriter(capacity: old.count + 1024)
        var remade = ByteWriter(capacity: 4096)
        writer.write(bytes: newHead)
        remade.write(bytes: newHead)
        var lengths = map.lengths
        var remadeCount = 0
        var offset = map.head
        old.withUnsafeBufferPointer { old in
            for index in 0..<count {
                let length = Int(map.lengths[index])
                if keys[index] == map.keys[index] {
                    writer.write(bytes: UnsafeBufferPointer(rebasing: old[offset..<(offset + length)]))
                } else {
                    let start = remade.count
                    segment(index, &remade)
                    writer.write(bytes: remade.bytes[start...])
                    lengths[index] = UInt32(remade.count - start)
                    remadeCount += 1
                }
                offset += length
            }
        }
        writer.write(bytes: tail)
        remade.write(bytes: tail)
        return Splice(bytes: writer.bytes, lengths: lengths, remade: remade.bytes, remadeCount: remadeCount)
    }

    /// At most this many segments made again are put into the old file's own bytes; more, and
    /// the file is copied as ``splice(old:map:keys:)`` does (each put moves the rest of the file).
    static let segmentsSplicedInPlace = 16

    /// ``splice(old:map:keys:)`` made in `old`'s own storage when few segments change, as a
    /// one-album edit changes one: the file is not copied into new memory, a few megabytes of
    /// pages the system must find and clear first (at 10k albums the strip and the data file
    /// are 5.5 MB; their copies were a third of the render step's work in an edit). `old` is
    /// left holding the new file, so it should have room to grow (``FileBytes``' `spare`).
    func splice(reusing old: inout [UInt8], map: SegmentMap, keys: [UInt64]) -> Splice? {
        guard let newHead = head(fitting: old, map: map, keys: keys) else { return nil }
        var changed: [Int] = []
        for index in 0..<count where keys[index] != map.keys[index] {
            guard changed.count < Self.segmentsSplicedInPlace else { return copied(old, head: newHead, map: map, keys: keys) }
            changed.append(index)
        }
        var remade = ByteWriter(capacity: 4096)
        remade.write(bytes: newHead)
        var lengths = map.lengths
        // Where each changed segment starts in `old`, and where it was made in `remade`.
        var starts: [Int] = []
        var made: [Range<Int>] = []
        var offset = map.head
        var next = 0
        for index in 0..<count where next < changed.count {
            if changed[next] == index {
                starts.append(offset)
                let start = remade.count
                segment(index, &remade)
                made.append(start..<remade.count)
                lengths[index] = UInt32(remade.count - start)
                next += 1
            }
            offset += Int(map.lengths[index])
        }
        remade.write(bytes: tail)
        let remadeBytes = remade.bytes
        // The last first, so the places of those before it hold.
        for (k, index) in changed.enumerated().reversed() {
            old.replaceSubrange(starts[k]..<(starts[k] + Int(map.lengths[index])), with: remadeBytes[made[k]])
        }
        return Splice(bytes: old, lengths: lengths, remade: remadeBytes, remadeCount: changed.count)
    }

    /// The head, when `map` describes `old` as a file of this head, tail and number of segments
    /// and `keys` has a key for each; `nil` otherwise.
    private func head(fitting old: [UInt8], map: SegmentMap, keys: [UInt64]) -> [UInt8]? {
        guard keys.count == count, map.keys.count == count, map.lengths.count == count,
              map.head >= 0, map.head <= old.count, map.tail == tail.count, map.tail <= old.count - map.head,
              old[(old.count - map.tail)...].elementsEqual(tail) else { return nil }
        let newHead = head()
        guard newHead.count == map.head, old[..<map.head].elementsEqual(newHead) else { return nil }
        var total = map.head + map.tail
        for length in map.lengths { total += Int(length) }
        guard total == old.count else { return nil }
        return newHead
    }
}

/// Where each album's segment lies in a ``SegmentedFile`` as a build wrote it, and the key of
/// what each segment shows.
struct SegmentMap: Sendable, Equatable {
    /// The hash of the bytes it describes (``FastHash``), as the build manifest records it.
    var outputHash: UInt64
    /// The key of everything but the albums' own values (settings, count, layout): a map of
    /// another context is not used.
    var context: UInt64
    /// The head's length.
    var head: Int
    /// The tail's length.
    var tail: Int
    /// Each album's key.
    var keys: [UInt64]
    /// Each album's segment length.
    var lengths: [UInt32]
}

/// Where each tile lies in an index page as a build wrote it (see ``FragmentSplice``): the next
/// build copies the tiles whose key is unchanged.
struct FragmentMap: Sendable, Equatable {
    /// The hash of the page it describes (``FastHash``), as the build manifest records it.
    var outputHash: UInt64
    /// The key of everything but the tiles' own values: a map of another context is not used.
    var context: UInt64
    /// The hash of every output path of the build that checked the page: its copied tiles'
    /// links resolved among those files.
    var outputs: UInt64
    /// Each tile's key, offset and length.
    var keys: [UInt64]
    var offsets: [UInt32]
    var lengths: [UInt32]
    /// Each tile's signature, the place it passed the page's check in (``FragmentChecks``); 0
    /// for one that was not checked so, which the next check does not leave out.
    var signatures: [UInt64]

    /// The fragments it records, for a ``FragmentSplice``.
    var fragments: [FragmentSplice.Fragment] {
        (0..<keys.count).map { FragmentSplice.Fragment(key: keys[$0], offset: Int(offsets[$0]), length: Int(lengths[$0])) }
    }
}

/// The segment maps of an output folder's segmented files, and the fragment maps of its index
/// pages, by path, kept beside its build manifest (`builds/HASH.segments`): a binary file, as
/// at 10k albums each map holds 10,000 keys and lengths, and any doubt about it (a foreign or
/// cut file) leaves it unused.
struct SegmentMaps: Sendable, Equatable {
    var maps: [String: SegmentMap] = [:]
    var pages: [String: FragmentMap] = [:]

    /// The format's first line. 2: index pages' fragment maps; 3: with the hash of the build's
    /// output files; 4: with each tile's signature instead of the skeleton's hash. A file of
    /// another format is not read (the next build is a full one).
    static let magic = Array("gallery-segments 4\n".utf8)

    /// The file beside a build manifest.
    static func file(for manifest: URL) -> URL {
        manifest.deletingPathExtension().appendingPathExtension("segments")
    }

    /// The maps in a file; none when it is missing or not one.
    static func load(from url: URL) -> SegmentMaps {
        guard let bytes = FileBytes.contents(of: url.path) else { return SegmentMaps() }
        return parse(bytes) ?? SegmentMaps()
    }

    /// The file's bytes: the magic line; the number of segment maps, then per map (sorted by
    /// path) the path's length and bytes, the output hash, the context, head and tail lengths,
    /// the count, the keys and the lengths; the number of fragment maps, then per map (sorted by
    /// path) the path, the output hash, the context, the outputs' hash, the count, the keys,
    /// offsets, lengths and signatures; and last the hash of everything before it; little-endian.
    func encoded() -> [UInt8] {
        var bytes = Self.magic
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func append(path: String) {
            let name = Array(path.utf8)
            append(UInt32(name.count))
            bytes += name
        }
        append(UInt32(maps.count))
        for (path, map) in maps.sorted(by: { $0.key < $1.key }) {
            append(path: path)
            append(map.outputHash)
            append(map.context)
            append(UInt64(map.head))
            append(UInt64(map.tail))
            append(UInt64(map.keys.count))
            map.keys.forEach { append($0) }
            map.lengths.forEach { append($0) }
        }
        append(UInt32(pages.count))
        for (path, map) in pages.sorted(by: { $0.key < $1.key }) {
            append(path: path)
            append(map.outputHash)
            append(map.context)
            append(map.outputs)
            append(UInt64(map.keys.count))
            map.keys.forEach { append($0) }
            map.offsets.forEach { append($0) }
            map.lengths.forEach { append($0) }
            map.signatures.forEach { append($0) }
        }
        // Last, the hash of all before it: a damaged map could otherwise cut a file at the wrong places.
        append(FastHash.hash(bytes))
        return bytes
    }

    /// Reads `encoded()`'s bytes; `nil` for anything else.
    static func parse(_ file: [UInt8]) -> SegmentMaps? {
        guard file.starts(with: magic), file.count >= magic.count + 8 else { return nil }
        let bytes = Array(file.dropLast(8))
        let check = file.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: file.count - 8, as: UInt64.self)) }
        guard FastHash.hash(bytes) == check else { return nil }
        var offset = magic.count
        func read<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            let value = bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
            offset += MemoryLayout<T>.size
            return value
        }
        func path() -> String? {
            guard let nameLength = read(UInt32.self), offset + Int(nameLength) <= bytes.count else { return nil }
            defer { offset += Int(nameLength) }
            return String(decoding: bytes[offset..<(offset + Int(nameLength))], as: UTF8.self)
        }
        func values<T: FixedWidthInteger>(_: T.Type, count: UInt64) -> [T]? {
            var values: [T] = []
            values.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let value = read(T.self) else { return nil }
                values.append(value)
            }
            return values
        }
        var result = SegmentMaps()
        guard let segmentCount = read(UInt32.self) else { return nil }
        for _ in 0..<segmentCount {
            guard let path = path(), let outputHash = read(UInt64.self), let context = read(UInt64.self),
                  let head = read(UInt64.self).flatMap(Int.init(exactly:)), let tail = read(UInt64.self).flatMap(Int.init(exactly:)),
                  let count = read(UInt64.self), count <= UInt64((bytes.count - offset) / 12),
                  let keys = values(UInt64.self, count: count), let lengths = values(UInt32.self, count: count) else { return nil }
            result.maps[path] = SegmentMap(outputHash: outputHash, context: context, head: head, tail: tail, keys: keys, lengths: lengths)
        }
        guard let pageCount = read(UInt32.self) else { return nil }
        for _ in 0..<pageCount {
            guard let path = path(), let outputHash = read(UInt64.self), let context = read(UInt64.self),
                  let outputs = read(UInt64.self), let count = read(UInt64.self), count <= UInt64((bytes.count - offset) / 24),
                  let keys = values(UInt64.self, count: count), let offsets = values(UInt32.self, count: count),
                  let lengths = values(UInt32.self, count: count), let signatures = values(UInt64.self, count: count) else { return nil }
            result.pages[path] = FragmentMap(outputHash: outputHash, context: context, outputs: outputs, keys: keys, offsets: offsets, lengths: lengths, signatures: signatures)
        }
        guard offset == bytes.count else { return nil }
        return result
    }

    /// Writes the maps atomically (made again by a full render if lost).
    func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(encoded(), to: url, sync: false)
    }
}
