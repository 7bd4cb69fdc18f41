/// A parsed JSON value that remembers where it stood in its file, so archive errors can name
/// `file:line:column`. Foundation's decoders forget positions once parsing succeeds.
public struct JSONNode: Sendable, Hashable {
    /// A JSON value; object members keep their order and their keys' positions. Not `indirect`:
    /// the arrays already hold nested values out of line, and boxing every string and number
    /// cost an allocation per value (60 000 for an archive of 10 000 albums).
    public enum Value: Sendable, Hashable {
        case object([Member])
        case array([JSONNode])
        case string(String)
        /// A number as written, so `1999.0` and `1999` stay distinguishable.
        case number(String)
        case bool(Bool)
        case null
    }

    /// One `"key": value` pair of an object.
    public struct Member: Sendable, Hashable {
        /// The key.
        public var key: String
        /// Where the key starts.
        public var position: SourcePosition
        /// The value.
        public var value: JSONNode
    }

    /// The value.
    public var value: Value
    /// Where the value starts.
    public var position: SourcePosition

    /// The member named `key`, for objects.
    public func member(_ key: String) -> Member? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }
    }

    /// The value written back as compact JSON (numbers as they were written, keys in order).
    public var compactJSON: String {
        switch value {
        case .object(let members): "{" + members.map { Escape.jsonString($0.key) + ":" + $0.value.compactJSON }.joined(separator: ",") + "}"
        case .array(let elements): "[" + elements.map(\.compactJSON).joined(separator: ",") + "]"
        case .string(let text): Escape.jsonString(text)
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        }
    }

    /// A word for the value's type, as messages use it ("a string", "a number").
    public var typeDescription: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A 1-based line and column in a text file; columns count Unicode scalars.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}
