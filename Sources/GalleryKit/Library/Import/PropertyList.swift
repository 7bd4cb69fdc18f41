import Foundation

/// A property list as a flat table of objects, whose arrays and dictionaries name their members
/// by index into the table: nothing is nested, so a hostile file's cycles, shared members and
/// depth cost nothing to read, and each object is looked at only when asked for.
///
/// A binary property list (`bplist00`, what NSKeyedArchiver writes) is read here byte by byte,
/// every offset and count checked against the file's length; an XML one is parsed by Foundation
/// and flattened (to a bounded depth). Foundation's `NSKeyedUnarchiver` is not used for either:
/// on Linux it crashes (a trap or a stack overflow) on an archive whose references point at the
/// wrong kind of object or at themselves.
struct PropertyList {
    /// One object of the table.
    enum Object {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        case date(Double)
        case data(Int)
        case string(String)
        /// A keyed archive's reference: an index into its `$objects`.
        case uid(UInt64)
        /// Members, as indexes into the table.
        case array([Int])
        /// Keys and values, as indexes into the table.
        case dictionary([(key: Int, value: Int)])
    }

    /// Why a file is not a property list this reader can use.
    struct Malformed: Error {
        let reason: String
    }

    /// The table's length.
    let count: Int
    /// The top object's index.
    let top: Int
    private let object: (Int) throws(Malformed) -> Object

    /// The object at `index`.
    func object(at index: Int) throws(Malformed) -> Object {
        guard (0..<count).contains(index) else { throw Malformed(reason: "object \(index) is outside the file's \(count) objects") }
        return try object(index)
    }

    /// A dictionary's value for a string key, if the object is a dictionary that has it.
    func value(in dictionary: Object, forKey key: String) throws(Malformed) -> Int? {
        guard case .dictionary(let pairs) = dictionary else { return nil }
        for pair in pairs {
            if case .string(key) = try object(at: pair.key) { return pair.value }
        }
        return nil
    }

    /// Reads a binary or XML property list.
    init(_ data: Data) throws(Malformed) {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist00".utf8)) {
            self = try Self.binary(bytes)
        } else {
            self = try Self.foundation(data)
        }
    }

    private init(count: Int, top: Int, object: @escaping (Int) throws(Malformed) -> Object) {
        self.count = count
        self.top = top
        self.object = object
    }
}

// MARK: - Binary property lists

extension PropertyList {
    /// The objects of a `bplist00` file, parsed one at a time when asked for.
    private static func binary(_ bytes: [UInt8]) throws(Malformed) -> PropertyList {
        // The trailer: 6 unused bytes, then the offset size, the reference size, and three
        // 8-byte numbers: how many objects, the top object, where the offset table starts.
        guard bytes.count >= 8 + 32 else { throw Malformed(reason: "the file is too short for a binary property list") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = number(bytes, at: trailer + 8, size: 8)
        let topObject = number(bytes, at: trailer + 16, size: 8)
        let tableStart = number(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw Malformed(reason: "the trailer gives offsets of \(offsetSize) bytes and references of \(referenceSize)")
        }
        // Every object takes at least one byte and one offset, which bounds the count.
        guard objectCount >= 1, objectCount <= UInt64(trailer), topObject < objectCount,
              tableStart >= 8, tableStart <= UInt64(trailer),
              objectCount * UInt64(offsetSize) <= UInt64(trailer) - tableStart
        else { throw Malformed(reason: "the trailer's object count, top object or offset table is outside the file") }
        let count = Int(objectCount)
        let table = Int(tableStart)
        let end = table // Objects lie between the header and the offset table.
        return PropertyList(count: count, top: Int(topObject)) { (index: Int) throws(Malformed) -> Object in
            let offset = number(bytes, at: table + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < UInt64(end) else { throw Malformed(reason: "object \(index) starts outside the file") }
            var reader = Reader(bytes: bytes, position: Int(offset), end: end, referenceSize: referenceSize, count: count)
            return try reader.object(index)
        }
    }

    /// A big-endian unsigned number of `size` bytes; the caller has checked the bounds.
    fileprivate static func number(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value
    }

    /// Reads one object's marker and payload, never past `end`.
    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        let end: Int
        let referenceSize: Int
        let count: Int

        mutating func take(_ length: Int, for index: Int) throws(Malformed) -> Range<Int> {
            guard length >= 0, length <= end - position else { throw Malformed(reason: "object \(index) runs past the end of the file") }
            defer { position += length }
            return position..<position + length
        }

        mutating func unsigned(_ length: Int, for index: Int) throws(Malformed) -> UInt64 {
            let range = try take(length, for: index)
            return PropertyList.number(bytes, at: range.lowerBound, size: length)
        }

        /// The length of a string, data, array or dictionary: in the marker, or in an integer after it.
        mutating func length(_ info: UInt8, for index: Int) throws(Malformed) -> Int {
            if info != 0x0F { return Int(info) }
            let marker = bytes[try take(1, for: index).lowerBound]
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw Malformed(reason: "object \(index) has a malformed length") }
            let value = try unsigned(1 << Int(marker & 0x0F), for: index)
            // No member or character takes less than a byte.
            guard value <= UInt64(end) else { throw Malformed(reason: "object \(index) claims \(value) members, more than the file holds") }
            return Int(value)
        }

        mutating func references(_ length: Int, for index: Int) throws(Malformed) -> [Int] {
            guard length <= (end - position) / referenceSize else { throw Malformed(reason: "object \(index) runs past the end of the file") }
            var result: [Int] = []
            result.reserveCapacity(length)
            for _ in 0..<length {
                let reference = try unsigned(referenceSize, for: index)
                guard reference < UInt64(count) else { throw Malformed(reason: "object \(index) refers to object \(reference), outside the file's \(count) objects") }
                result.append(Int(reference))
            }
            return result
        }

        mutating func object(_ index: Int) throws(Malformed) -> Object {
            let marker = bytes[try take(1, for: index).lowerBound]
            let info = marker & 0x0F
            switch marker >> 4 {
            case 0x0:
                switch info {
                case 0x0: return .null
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: break
                }
            case 0x1 where info <= 3:
                let size = 1 << Int(info)
                let raw = try unsigned(size, for: index)
                // Eight-byte integers are signed; shorter ones are not.
                return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2 where info == 2:
                return .real(Double(Float(bitPattern: UInt32(try unsigned(4, for: index)))))
            case 0x2 where info == 3:
                return .real(Double(bitPattern: try unsigned(8, for: index)))
            case 0x3 where info == 3:
                return .date(Double(bitPattern: try unsigned(8, for: index)))
            case 0x4:
                let length = try length(info, for: index)
                return .data(try take(length, for: index).count)
            case 0x5:
                let range = try take(try length(info, for: index), for: index)
                guard bytes[range].allSatisfy({ $0 < 0x80 }) else { throw Malformed(reason: "object \(index) is an ASCII string with bytes that are not ASCII") }
                return .string(String(decoding: bytes[range], as: UTF8.self))
            case 0x6:
                let units = try length(info, for: index)
                guard units <= (end - position) / 2 else { throw Malformed(reason: "object \(index) runs past the end of the file") }
                let range = try take(units * 2, for: index)
                var code: [UInt16] = []
                code.reserveCapacity(units)
                for at in stride(from: range.lowerBound, to: range.upperBound, by: 2) { code.append(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])) }
                return .string(String(decoding: code, as: UTF16.self))
            case 0x8:
                return .uid(try unsigned(Int(info) + 1, for: index))
            case 0xA, 0xC:
                return .array(try references(try length(info, for: index), for: index))
            case 0xD:
                let length = try length(info, for: index)
                let keys = try references(length, for: index)
                let values = try references(length, for: index)
                return .dictionary(zip(keys, values).map { (key: $0, value: $1) })
            default:
                break
            }
            throw Malformed(reason: String(format: "object %d has an unknown marker 0x%02x", index, marker))
        }
    }
}

// MARK: - XML property lists

extension PropertyList {
    /// An XML (or other) property list, parsed by Foundation and flattened.
    private static func foundation(_ data: Data) throws(Malformed) -> PropertyList {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw Malformed(reason: "not a property list")
        }
        var table: [Object] = []
        func add(_ value: Any, depth: Int) throws(Malformed) -> Int {
            // A keyed archive is four levels deep; nothing legitimate comes near this.
            guard depth < 32 else { throw Malformed(reason: "the property list is nested more than 32 levels deep") }
            let index = table.count
            table.append(.null)
            let object: Object
            switch value {
            case let text as String: object = .string(text)
            case let flag as Bool where type(of: value) == Bool.self: object = .bool(flag)
            case let number as Int: object = .integer(Int64(number))
            case let number as Int64: object = .integer(number)
            case let number as Double: object = .real(number)
            case let date as Date: object = .date(date.timeIntervalSinceReferenceDate)
            case let bytes as Data: object = .data(bytes.count)
            case let items as [Any]:
                var members: [Int] = []
                for item in items { members.append(try add(item, depth: depth + 1)) }
                object = .array(members)
            case let pairs as [String: Any]:
                var members: [(key: Int, value: Int)] = []
                // Sorted, so that the table does not depend on the dictionary's order.
                for key in pairs.keys.sorted() {
                    let keyIndex = try add(key, depth: depth + 1)
                    members.append((key: keyIndex, value: try add(pairs[key]!, depth: depth + 1)))
                }
                object = .dictionary(members)
            default:
                // Foundation's keyed-archive reference (`CF$UID`) is a private class with a `value`.
                guard let uid = Mirror(reflecting: value).children.first(where: { $0.label == "value" })?.value,
                      let number = (uid as? UInt32).map(UInt64.init) ?? (uid as? UInt64) ?? (uid as? Int).map(UInt64.init)
                else { throw Malformed(reason: "the property list holds a value of an unknown kind (\(type(of: value)))") }
                object = .uid(number)
            }
            table[index] = object
            return index
        }
        let top = try add(root, depth: 0)
        let objects = table
        return PropertyList(count: objects.count, top: top) { objects[$0] }
    }
}
