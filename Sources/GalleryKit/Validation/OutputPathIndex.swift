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
/// into a stack buffer and finding it here avoids two heap allocations and a SipHash of the
/// whole path per reference.
struct OutputPathIndex: Sendable {
    private let buckets: [UInt64: [String]]

    /// Indexes `paths` (relative to the output root, `/` separators).
    init(_ paths: Set<String>) {
        var buckets: [UInt64: [String]] = [:]
        buckets.reserveCapacity(paths.count)
        for path in paths {
            var path = path
            let hash = path.withUTF8 { Self.hash($0) }
            buckets[hash, default: []].append(path)
        }
        self.buckets = buckets
    }

    /// The stored path equal to `bytes`, or `nil` when the output has no such file.
    func path(matching bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let candidates = buckets[Self.hash(bytes)] else { return nil }
        for candidate in candidates where candidate.utf8.count == bytes.count {
            var candidate = candidate
            let equal = candidate.withUTF8 { stored in
                guard let storedStart = stored.baseAddress, let start = bytes.baseAddress else { return bytes.isEmpty }
                return memcmp(storedStart, start, bytes.count) == 0
            }
            if equal { return candidate }
        }
        return nil
    }

    /// 64-bit FNV-1a: fast on short paths, and collisions only cost a comparison.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
