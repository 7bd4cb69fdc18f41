/// The URLs a style sheet names: each `url(…)` (quoted or not) and each `@import "…"`, with CSS
/// escapes decoded, outside comments and other strings.
///
/// It is not a CSS parser: it reads just enough of the syntax (comments, strings, escapes,
/// identifiers) not to take `myurl(` or a `url(` inside a comment or a `content: "…"` string for
/// a reference. Used on a site's stylesheets, `<style>` elements and `style` attributes, so that
/// a background image or a font that is not in the output is found as a broken `<img>` is.
enum StylesheetURLs {
    /// Calls `body` with each URL's decoded bytes and the byte offset where it is written (the
    /// `u` of `url(`, or the quote of an `@import` string).
    static func forEach(in css: UnsafeBufferPointer<UInt8>, _ body: (_ url: [UInt8], _ offset: Int) -> Void) {
        var index = 0
        let count = css.count
        while index < count {
            let byte = css[index]
            switch byte {
            case slash where index + 1 < count && css[index + 1] == star:
                index = endOfComment(css, from: index + 2)
            case quote, apostrophe:
                index = readString(css, from: index).end
            case backslash:
                index += 2
            case at where matchesWord(css, at: index + 1, "import"):
                index += 7
                while index < count, isSpace(css[index]) { index += 1 }
                if index < count, css[index] == quote || css[index] == apostrophe {
                    let string = readString(css, from: index)
                    body(string.value, index)
                    index = string.end
                }
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let startsName = index == 0 || !isNameByte(css[index - 1])
                guard startsName, matchesWord(css, at: index, "url"), index + 3 < count, css[index + 3] == openParen else {
                    index += 1
                    while index < count, isNameByte(css[index]) { index += 1 }
                    continue
                }
                let start = index
                index += 4
                while index < count, isSpace(css[index]) { index += 1 }
                if index < count, css[index] == quote || css[index] == apostrophe {
                    let string = readString(css, from: index)
                    body(string.value, start)
                    index = string.end
                } else {
                    var value: [UInt8] = []
                    while index < count, css[index] != closeParen, !isSpace(css[index]) {
                        if css[index] == backslash {
                            index = decodeEscape(css, at: index, into: &value)
                        } else {
                            value.append(css[index])
                            index += 1
                        }
                    }
                    body(value, start)
                }
            default:
                index += 1
                if isNameByte(byte) {
                    while index < count, isNameByte(css[index]) { index += 1 }
                }
            }
        }
    }

    /// The URLs of `css` with their offsets, as ``forEach(in:_:)`` finds them.
    static func all(in css: UnsafeBufferPointer<UInt8>) -> [(url: [UInt8], offset: Int)] {
        var found: [(url: [UInt8], offset: Int)] = []
        forEach(in: css) { found.append(($0, $1)) }
        return found
    }

    /// Whether `css` may name a URL at all: a quick test before the scan, for `style`
    /// attributes, which nearly never do.
    static func mayHoldURLs(_ css: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in css.indices where css[index] == openParen || css[index] == at { return true }
        return false
    }

    /// The offset just past the `*/` that ends a comment (the end of the text if none does).
    private static func endOfComment(_ css: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index + 1 < css.count {
            if css[index] == star, css[index + 1] == slash { return index + 2 }
            index += 1
        }
        return css.count
    }

    /// The decoded value of the string whose opening quote is at `start`, and the offset past its
    /// closing quote (or where an unescaped line break or the text's end leaves it open).
    private static func readString(_ css: UnsafeBufferPointer<UInt8>, from start: Int) -> (value: [UInt8], end: Int) {
        let delimiter = css[start]
        var value: [UInt8] = []
        var index = start + 1
        while index < css.count {
            let byte = css[index]
            if byte == delimiter { return (value, index + 1) }
            if byte == newline { return (value, index) }
            if byte == backslash {
                if index + 1 < css.count, css[index + 1] == newline {
                    index += 2
                } else {
                    index = decodeEscape(css, at: index, into: &value)
                }
                continue
            }
            value.append(byte)
            index += 1
        }
        return (value, index)
    }

    /// Decodes the escape whose backslash is at `index` into `value` (`\20 ` and `\000020` are a
    /// space, `\)` is `)`); returns the offset past it.
    private static func decodeEscape(_ css: UnsafeBufferPointer<UInt8>, at index: Int, into value: inout [UInt8]) -> Int {
        var next = index + 1
        guard next < css.count else { return next }
        var scalar: UInt32 = 0
        var digits = 0
        while digits < 6, next < css.count, let digit = hexValue(css[next]) {
            scalar = scalar * 16 + digit
            next += 1
            digits += 1
        }
        guard digits > 0 else {
            value.append(css[next])
            return next + 1
        }
        if next < css.count, isSpace(css[next]) { next += 1 }
        let decoded = scalar == 0 ? nil : Unicode.Scalar(scalar)
        value.append(contentsOf: String(Character(decoded ?? "\u{FFFD}")).utf8)
        return next
    }

    /// Whether the ASCII letters at `index` spell `word`, in any case.
    private static func matchesWord(_ css: UnsafeBufferPointer<UInt8>, at index: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= css.count else { return false }
        return word.withUTF8Buffer { letters in
            letters.indices.allSatisfy { css[index + $0] | 0x20 == letters[$0] }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// A byte of a CSS identifier: letters, digits, `-`, `_` and any non-ASCII byte.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), 0x80...:
            true
        default:
            false
        }
    }

    private static let slash = UInt8(ascii: "/")
    private static let star = UInt8(ascii: "*")
    private static let quote = UInt8(ascii: "\"")
    private static let apostrophe = UInt8(ascii: "'")
    private static let backslash = UInt8(ascii: "\\")
    private static let at = UInt8(ascii: "@")
    private static let openParen = UInt8(ascii: "(")
    private static let closeParen = UInt8(ascii: ")")
    private static let newline = UInt8(ascii: "\n")
}
