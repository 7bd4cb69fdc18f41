import Testing

@testable import GalleryKit

/// The fragment cache's own table answers as a dictionary would, through its growth.
@Suite struct FragmentTableTests {
    @Test func answersAsADictionaryDoes() {
        var table = FragmentTable()
        var dictionary: [FragmentCache.Key: FragmentCache.Entry] = [:]
        var generator = SystemRandomNumberGenerator()
        #expect(table.isEmpty && table[FragmentCache.Key(site: 0, object: 0)] == nil)
        for round in 0..<2000 {
            // Few sites, objects in clusters (a strip's tiles), and some far apart or negative.
            let key = FragmentCache.Key(site: Int.random(in: 0..<4, using: &generator), object: round % 3 == 0 ? Int.random(in: -5...Int.max / 2, using: &generator) : Int.random(in: 0..<600, using: &generator))
            let entry = FragmentCache.Entry(offset: round * 7, length: round % 5, slot: round)
            table[key] = entry
            dictionary[key] = entry
        }
        #expect(table.count == dictionary.count)
        for (key, entry) in dictionary {
            #expect(table[key] == entry, "\(key)")
        }
        for object in 600..<700 where dictionary[FragmentCache.Key(site: 1, object: object)] == nil {
            #expect(table[FragmentCache.Key(site: 1, object: object)] == nil)
        }
    }
}

/// The cache keeps its fragments' bytes in memory of its own: what it hands back, and appends
/// to a page, is what was stored, across the growth of that memory.
@Suite struct FragmentCacheTests {
    @Test func appendsTheBytesItStored() {
        let cache = FragmentCache()
        var stored: [FragmentCache.Key: [UInt8]] = [:]
        // A partial that renders nothing, on a page that is empty so far.
        cache.store(FragmentCache.Key(site: 7, object: 0), from: 0, in: [])
        stored[FragmentCache.Key(site: 7, object: 0)] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            // Fragments of 0 to 700 bytes, 140 KB in all: past the cache's first 32 KB.
            let prefix = [UInt8](repeating: UInt8(ascii: "p"), count: round % 3)
            let fragment = (0..<Int.random(in: 0...700, using: &generator)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
            let key = FragmentCache.Key(site: round % 4, object: round)
            cache.store(key, from: prefix.count, in: prefix + fragment)
            stored[key] = fragment
        }
        cache.placements = []
        for (key, fragment) in stored.sorted(by: { $0.key.object < $1.key.object }) {
            var page: [UInt8] = [1, 2, 3]
            #expect(cache.appendCached(key, to: &page))
            #expect(page == [1, 2, 3] + fragment, "\(key)")
            #expect(cache.placements.last?.offset == 3 && cache.placements.last?.length == fragment.count)
        }
        var page: [UInt8] = []
        #expect(!cache.appendCached(FragmentCache.Key(site: 9, object: 0), to: &page) && page.isEmpty)
    }
}
