/// The fragments of a ``FragmentCache`` by key: an open-addressing table with linear probing,
/// hashed by multiplying the key's two numbers.
///
/// A `Dictionary` hashed each key with SipHash, seeded afresh for every lookup: about a fifth of
/// what a tile copied from the cache cost, for a table that holds a few hundred keys of one run
/// of pages and lives as long.
struct FragmentTable {
    typealias Key = FragmentCache.Key
    typealias Entry = FragmentCache.Entry

    /// For each slot, 1 + the index in `items` of the key that sits there, or 0 for none.
    private var slots = [Int32](repeating: 0, count: 64)
    private var items: [(key: Key, entry: Entry)] = []

    /// How many fragments it holds.
    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }

    /// The entry of `key`; setting replaces it, or adds it.
    subscript(key: Key) -> Entry? {
        get {
            let mask = slots.count - 1
            var slot = Self.hash(key) & mask
            while true {
                let item = Int(slots[slot])
                if item == 0 { return nil }
                if items[item - 1].key == key { return items[item - 1].entry }
                slot = (slot + 1) & mask
            }
        }
        set {
            guard let newValue else { preconditionFailure("fragments are never removed") }
            let mask = slots.count - 1
            var slot = Self.hash(key) & mask
            while true {
                let item = Int(slots[slot])
                if item == 0 { break }
                if items[item - 1].key == key {
                    items[item - 1].entry = newValue
                    return
                }
                slot = (slot + 1) & mask
            }
            items.append((key, newValue))
            slots[slot] = Int32(items.count)
            // At most half full, so a probe meets an empty slot soon.
            if items.count * 2 > slots.count { grow() }
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, item) in items.enumerated() {
            var slot = Self.hash(item.key) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// The key's two numbers mixed (the multipliers are xxHash's primes), high bits folded down.
    private static func hash(_ key: Key) -> Int {
        let mixed = UInt64(bitPattern: Int64(key.site)) &* 0x9E37_79B1_85EB_CA87 ^ UInt64(bitPattern: Int64(key.object)) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
}
