/// A fast 64-bit non-cryptographic hash (xxHash64), for telling whether a page's inputs or bytes
/// changed between builds. Stable across runs and machines, unlike Swift's `Hasher`.
public struct FastHash: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The xxHash64 of bytes with seed 0.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var index = 0
        var h: UInt64
        @inline(__always) func word(_ at: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian }
        @inline(__always) func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
            (accumulator &+ input &* prime2).rotatedLeft(31) &* prime1
        }
        if count >= 32 {
            var v1 = prime1 &+ prime2
            var v2 = prime2
            var v3: UInt64 = 0
            var v4 = 0 &- prime1
            while index + 32 <= count {
                v1 = round(v1, word(index))
                v2 = round(v2, word(index + 8))
                v3 = round(v3, word(index + 16))
                v4 = round(v4, word(index + 24))
                index += 32
            }
            h = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
            for v in [v1, v2, v3, v4] {
                h = (h ^ round(0, v)) &* prime1 &+ prime4
            }
        } else {
            h = prime5
        }
        h = h &+ UInt64(count)
        while index + 8 <= count {
            h = (h ^ round(0, word(index))).rotatedLeft(27) &* prime1 &+ prime4
            index += 8
        }
        if index + 4 <= count {
            let four = UInt64(bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian)
            h = (h ^ (four &* prime1)).rotatedLeft(23) &* prime2 &+ prime3
            index += 4
        }
        while index < count {
            h = (h ^ (UInt64(bytes[index]) &* prime5)).rotatedLeft(11) &* prime1
            index += 1
        }
        h ^= h >> 33
        h = h &* prime2
        h ^= h >> 29
        h = h &* prime3
        h ^= h >> 32
        return h
    }

    /// The hash of a byte collection.
    public static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
        if let result = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes { hash($0) }
    }

    /// The hash of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The size of the pieces ``contentHash(_:)`` hashes a large file in: a mebibyte.
    public static let pieceSize = 1 << 20

    /// The hash gallery records of an output file's bytes: up to ``pieceSize`` bytes (every
    /// page), their xxHash64; of more, the hashes of their pieces of ``pieceSize`` bytes combined
    /// with the count, so that a large file (a video in `static/`) hashes to the same value read
    /// piece by piece (``PieceHasher``) as held whole in memory.
    public static func contentHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard bytes.count > pieceSize else { return hash(bytes) }
        var hasher = PieceHasher()
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            hasher.add(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        return hasher.value
    }

    /// ``contentHash(_:)`` of a byte collection.
    public static func contentHash(_ bytes: some Collection<UInt8>) -> UInt64 {
        if let result = bytes.withContiguousStorageIfAvailable({ contentHash(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes { contentHash($0) }
    }

    /// ``contentHash(_:)`` of bytes that come piece by piece: every piece of ``pieceSize``
    /// bytes, but the last, which may be shorter.
    public struct PieceHasher: Sendable {
        private var pieces: [UInt64] = []
        private var count = 0

        public init() {}

        /// Adds the next piece.
        public mutating func add(_ piece: UnsafeRawBufferPointer) {
            pieces.append(FastHash.hash(piece))
            count += piece.count
        }

        /// The hash of the pieces added so far.
        public var value: UInt64 {
            pieces.count <= 1 ? pieces.first ?? FastHash.hash(UnsafeRawBufferPointer(start: nil, count: 0)) : FastHash.combine(pieces + [UInt64(count)])
        }
    }

    /// The hash of a sequence of 64-bit values (for combining keys).
    public static func combine(_ values: some Sequence<UInt64>) -> UInt64 {
        let array = Array(values)
        return array.withUnsafeBytes { hash($0) }
    }

    /// Two 64-bit values mixed into one: their product, to 128 bits, folded (wyhash's `mum`),
    /// each first xored with a constant of its own. Three multiplies hash four values, where
    /// ``hash(_:)`` of their 32 bytes took some thirty instructions of set-up and finish. For
    /// hashes that live in one process only: unlike ``hash(_:)``, nothing stores them.
    @inline(__always) static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = (a ^ 0xA076_1D64_78BD_642F).multipliedFullWidth(by: b ^ 0xE703_7ED1_A0B4_28DB)
        return product.high ^ product.low
    }
}

extension UInt64 {
    @inline(__always) func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }

    /// Sixteen lowercase hex digits.
    public var hex16: String {
        let text = String(self, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
