import Testing

@testable import GalleryKit

@Suite struct FastHashTests {
    // Reference values of xxHash64 with seed 0 (from the xxHash project's test vectors and the
    // `xxh64sum` command).
    @Test(arguments: [
        ("", 0xEF46_DB37_51D8_E999 as UInt64),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),
    ])
    func matchesXXHash64(text: String, expected: UInt64) {
        #expect(FastHash.hash(text) == expected)
    }

    @Test func coversEveryLengthPath() {
        var seen: Set<UInt64> = []
        for length in 0..<100 {
            seen.insert(FastHash.hash(Array(repeating: UInt8(7), count: length)))
        }
        #expect(seen.count == 100)
        #expect(FastHash.hash(Array("abc".utf8)) == FastHash.hash("abc"))
    }
}
