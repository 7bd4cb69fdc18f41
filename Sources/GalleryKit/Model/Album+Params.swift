extension Album {
    /// A value among an album's own fields (its `"params"`).
    public enum Param: Sendable, Hashable {
        /// A string.
        case text(String)
        /// A number, as the archive writes it (`12.5`).
        case number(String)
        /// true or false.
        case flag(Bool)
    }

    /// The album's own fields for the templates (`"params": {"price": "12 €"}`, Hugo's
    /// `.Params`), in the archive's order; empty when it has none. The loader has checked them:
    /// an object of strings, numbers and true/false.
    public var params: [(key: String, value: Param)] {
        Self.params(json: paramsJSON)
    }

    /// The fields of a `"params"` object as ``paramsJSON`` holds it (none for `nil`).
    static func params(json: String?) -> [(key: String, value: Param)] {
        guard let json, let node = try? JSONParser.parse(Array(json.utf8)), case .object(let members) = node.value else { return [] }
        return members.compactMap { member in
            switch member.value.value {
            case .string(let text): (member.key, .text(text))
            case .number(let text): (member.key, .number(text))
            case .bool(let flag): (member.key, .flag(flag))
            default: nil
            }
        }
    }

    /// The `"params"` object as the archive holds it, compact; `nil` when the album has none.
    var paramsJSON: String? {
        extras.isEmpty ? nil : extras.first { $0.key == "params" }?.json
    }
}

extension Album.Param {
    /// A value as a person types it (`--param`, a CSV cell): `true` and `false` are true/false,
    /// a whole number (`3`, `-12`, not `007`) is a number, anything else text: `12.50` stays
    /// `12.50`, as a price is written, where a number would be shown as `12.5` by a script.
    public init(typed text: String) {
        switch text {
        case "true": self = .flag(true)
        case "false": self = .flag(false)
        default: self = Self.isWholeNumber(text) ? .number(text) : .text(text)
        }
    }

    /// Whether a number's text is a whole number a script reads back as written: no leading
    /// zero, no fraction or exponent, and at most 15 digits (beyond them a double rounds).
    static func isWholeNumber(_ text: String) -> Bool {
        text.range(of: #"^-?(0|[1-9][0-9]{0,14})$"#, options: .regularExpression) != nil
    }

    /// The value as a person types it back.
    public var typed: String {
        switch self {
        case .text(let text), .number(let text): text
        case .flag(let flag): flag ? "true" : "false"
        }
    }

    /// The value as JSON.
    var json: String {
        switch self {
        case .text(let text): Escape.jsonString(text)
        case .number(let text): text
        case .flag(let flag): flag ? "true" : "false"
        }
    }
}

extension Album {
    /// Why a name cannot be one of an album's own fields, or `nil`: a template names it as
    /// `{{album.params.NAME}}`, so it is a letter or `_` followed by letters, digits, `_` and `-`.
    public static func paramNameProblem(_ name: String) -> String? {
        // By its characters: a regular expression's `$` also matches before a final line feed,
        // so "price\n" passed, and no template could show it.
        let bytes = name.utf8
        let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F }
        let fits = bytes.first.map(isLetter) == true && bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
        return fits
            ? nil
            : "\"\(name.clippedForMessage)\" cannot name a param: write a letter or _ followed by letters, digits, _ and - (a template shows it as {{album.params.NAME}})"
    }

    /// Sets own fields (`nil` removes one), keeping the others and their order; the album's
    /// `"params"` goes away when none is left.
    public mutating func setParams(_ changes: [(key: String, value: Param?)]) {
        var params = self.params
        for (key, value) in changes {
            if let index = params.firstIndex(where: { $0.key == key }) {
                if let value { params[index].value = value } else { params.remove(at: index) }
            } else if let value {
                params.append((key, value))
            }
        }
        let json = "{" + params.map { Escape.jsonString($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        if let index = extras.firstIndex(where: { $0.key == "params" }) {
            if params.isEmpty { extras.remove(at: index) } else { extras[index].json = json }
        } else if !params.isEmpty {
            extras.append(Extra(key: "params", json: json))
        }
    }
}
