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
            let entry = FragmentCache.Entry(bytes: [UInt8(truncatingIfNeeded: round)], slot: round)
            table[key] = entry
            dictionary[key] = entry
        }
        #expect(table.count == dictionary.count)
        for (key, entry) in dictionary {
            #expect(table[key]?.slot == entry.slot && table[key]?.bytes == entry.bytes, "\(key)")
            // Appended where the output ends, as a copy of the entry would be.
            var output: [UInt8] = [7, 7]
            let appended = table.append(key, to: &output)
            #expect(appended?.slot == entry.slot && appended?.length == entry.bytes.count && output == [7, 7] + entry.bytes, "\(key)")
        }
        var untouched: [UInt8] = [1]
        #expect(table.append(FragmentCache.Key(site: 9, object: 0), to: &untouched) == nil && untouched == [1])
        for object in 600..<700 where dictionary[FragmentCache.Key(site: 1, object: object)] == nil {
            #expect(table[FragmentCache.Key(site: 1, object: object)] == nil)
        }
    }
}
