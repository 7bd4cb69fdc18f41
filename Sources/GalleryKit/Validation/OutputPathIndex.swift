#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The output's file paths, looked up by their UTF-8 bytes without building a `String`.
///
/// Every page has dozens of references and a build checks 10 000 pages: resolving a reference
/// into a stack buffer and finding it here costs a hash of the bytes, a probe or two of an
/// open-addressing table and one `memcmp`, with no allocation, no SipHash and no reference
/// counting of a shared `String` (which two threads checking pages would fight over).
struct OutputPathIndex: Sendable {
    /// The paths, by id.
    private let paths: [String]
    /// Every path's bytes, one after another.
    private let storage: [UInt8]
    /// Where path `i` starts in `storage`; `paths.count + 1` entries.
    private let offsets: [Int]
    /// Each path's hash, by id, so most mismatched probes skip the `memcmp`.
    private let hashes: [UInt64]
    /// The table: an id + 1 per used slot, 0 when empty; a power of two at least twice `paths`.
    private let slots: [Int32]

    /// Indexes `paths` (relative to the output root, `/` separators).
    ///
    /// The ids follow the set's order, which differs from run to run: nothing but the lookups
    /// sees them. (Sorting 10k paths first was about 7 % of an edit's render step.)
    init(_ paths: Set<String>) {
        let paths = Array(paths)
        var storage: [UInt8] = []
        storage.reserveCapacity(paths.count * 32)
        var offsets: [Int] = [0]
        offsets.reserveCapacity(paths.count + 1)
        var hashes: [UInt64] = []
        hashes.reserveCapacity(paths.count)
        for path in paths {
            storage.append(contentsOf: path.utf8)
            offsets.append(storage.count)
            hashes.append(path.utf8.withContiguousStorageIfAvailable { Self.hash($0) } ?? Self.hash(Array(path.utf8)))
        }
        var capacity = 16
        while capacity < paths.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        for (id, hash) in hashes.enumerated() {
            var slot = Self.slot(hash) & (capacity - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(id + 1)
        }
        self.paths = paths
        self.storage = storage
        self.offsets = offsets
        self.hashes = hashes
        self.slots = slots
    }

    /// Whether the output has a file whose path is `bytes`.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        id(matching: bytes) != nil
    }

    /// The stored path equal to `bytes`, or `nil` when the output has no such file.
    func path(matching bytes: UnsafeBufferPointer<UInt8>) -> String? {
        id(matching: bytes).map { paths[$0] }
    }

    private func id(matching bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var slot = Self.slot(hash) & mask
        return storage.withUnsafeBufferPointer { stored in
            while slots[slot] != 0 {
                let id = Int(slots[slot]) - 1
                let start = offsets[id]
                if hashes[id] == hash, offsets[id + 1] - start == bytes.count,
                   bytes.isEmpty || memcmp(stored.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 {
                    return id
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// The table position of a hash, before masking (its high bits folded into its low ones).
    private static func slot(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// xxHash64 (``FastHash``), eight bytes a step: FNV-1a took a byte a step, a chain of
    /// multiplications as long as the path, for every reference a page check resolves.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        FastHash.hash(UnsafeRawBufferPointer(bytes))
    }

    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBufferPointer { hash($0) }
    }
}
