import Foundation

/// A CSV file read as RFC 4180 describes it (comma-separated, fields optionally in double
/// quotes, `""` for a quote inside, line breaks inside quoted fields), remembering the line
/// each record starts on so an import can name the row at fault.
///
/// The separator is taken from the header row, as most CSV readers do: the one of comma,
/// semicolon (what spreadsheet programs write in locales whose decimal mark is a comma) and tab
/// that the row has most often outside quotes (a comma first on a tie).
///
/// Written here rather than taken from a package: the CSV packages in our mirror either report
/// no position for a malformed file or none at all, and import errors must name the row.
public struct CSVTable: Sendable, Hashable {
    /// A record and the line it starts on.
    public struct Row: Sendable, Hashable {
        /// The 1-based line where the record starts.
        public var line: Int
        /// The fields.
        public var fields: [String]
    }

    /// Why a file is not CSV, and where.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// The 1-based line.
        public var line: Int
        /// What is wrong.
        public var message: String
    }

    /// The header row's fields.
    public var header: [String]
    /// The field separator, found in the header row: `,`, `;` or a tab.
    public var separator: Unicode.Scalar
    /// How often the header holds each kind of separator between columns, which chose
    /// ``separator``; empty when a `sep=` line named it.
    public var separatorCounts: [Unicode.Scalar: Int] = [:]
    /// The records after the header (blank lines skipped). A record may have more or fewer
    /// fields than the header: that is the reader's to report, beside the rows' other faults.
    public var rows: [Row]

    /// Parses CSV text whose first record is a header, separated as ``separator(counts:)`` finds.
    ///
    /// A first line `sep=;` (what Excel writes, and reads, to name the separator) names it and
    /// is no record; the header is then on line 2.
    public init(parsing text: String) throws(SyntaxError) {
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var line = 1
        let separator: Unicode.Scalar
        if let directive = Self.separatorDirective(scalars) {
            separator = directive.separator
            scalars = scalars[directive.rest...]
            line = 2
        } else {
            separatorCounts = Self.separatorCounts(of: String(scalars))
            separator = Self.separator(counts: separatorCounts)
        }
        self.separator = separator
        var records: [Row] = []
        var fields: [String] = []
        var field = ""
        var recordLine = line
        var inQuotes = false
        var fieldWasQuoted = false
        var afterQuote = false
        var iterator = scalars.makeIterator()
        var pending: Unicode.Scalar? = iterator.next()

        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !fieldWasQuoted) {
                records.append(Row(line: recordLine, fields: fields))
            }
            fields = []
            field = ""
            fieldWasQuoted = false
            afterQuote = false
        }

        while let scalar = pending {
            pending = iterator.next()
            if inQuotes {
                if scalar == "\"" {
                    if pending == "\"" {
                        field.unicodeScalars.append("\"")
                        pending = iterator.next()
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case separator:
                fields.append(field)
                field = ""
                fieldWasQuoted = false
                afterQuote = false
            case "\r":
                if pending == "\n" { continue }
                endRecord()
                line += 1
                recordLine = line
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            case "\"":
                guard field.isEmpty, !afterQuote else {
                    throw SyntaxError(line: line, message: "a double quote inside an unquoted field; put the field in quotes and double the quote (\"\")")
                }
                inQuotes = true
                fieldWasQuoted = true
            default:
                guard !afterQuote else {
                    throw SyntaxError(line: line, message: "text after a closing quote; a quoted field must end at \(Self.name(of: separator)) or the end of the line")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if inQuotes {
            throw SyntaxError(line: recordLine, message: "a quoted field that starts here is never closed")
        }
        if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
        guard let first = records.first else {
            throw SyntaxError(line: 1, message: "the file is empty; a CSV import needs a header row and at least one album")
        }
        header = first.fields.map { $0.trimmingCharacters(in: [" ", "\t"]) }
        rows = Array(records.dropFirst())
    }

    /// The separator the header's counts (``separatorCounts(of:)``) point to: the one of comma,
    /// semicolon and tab it has most often outside quotes, a comma first on a tie, and a comma
    /// when it has none. European Excel leaves `Price (EUR, incl. VAT)` unquoted in a semicolon file, whose
    /// one comma made the whole header one column when any comma chose the comma.
    static func separator(counts found: [Unicode.Scalar: Int]) -> Unicode.Scalar {
        let most = found.values.max() ?? 0
        return [",", ";", "\t"].first { most > 0 && found[$0] == most } ?? ","
    }

    /// How often the header holds each of comma, semicolon and tab outside quotes; those that
    /// only end the line (a spreadsheet's trailing empty cells, `Title,Artist\t\t\t`) are not
    /// counted, as they separate no columns.
    static func separatorCounts(of text: String) -> [Unicode.Scalar: Int] {
        var found: [Unicode.Scalar: Int] = [:]
        var pending: [Unicode.Scalar: Int] = [:]
        var inQuotes = false
        for scalar in text.unicodeScalars {
            if scalar == "\"" {
                inQuotes.toggle()
            } else if !inQuotes {
                if scalar == "\n" || scalar == "\r" { break }
                if scalar == "," || scalar == ";" || scalar == "\t" {
                    pending[scalar, default: 0] += 1
                    continue
                }
                if scalar == " " { continue }
            }
            found.merge(pending, uniquingKeysWith: +)
            pending.removeAll()
        }
        return found
    }

    /// The separator an Excel `sep=X` first line names, and where the next line starts.
    static func separatorDirective(_ scalars: Substring.UnicodeScalarView) -> (separator: Unicode.Scalar, rest: Substring.UnicodeScalarView.Index)? {
        let prefix = Array(scalars.prefix(6))
        guard prefix.count >= 5, String(String.UnicodeScalarView(prefix[0..<4])).lowercased() == "sep=",
              prefix[4] != "\n", prefix[4] != "\r", prefix[4] != "\"" else { return nil }
        var index = scalars.index(scalars.startIndex, offsetBy: 5)
        if index < scalars.endIndex, scalars[index] == "\r" { index = scalars.index(after: index) }
        guard index == scalars.endIndex || scalars[index] == "\n" else { return nil }
        return (prefix[4], index == scalars.endIndex ? index : scalars.index(after: index))
    }

    /// A separator as messages name it: `a comma`, `a semicolon`, `a tab`.
    static func name(of separator: Unicode.Scalar) -> String {
        "a " + plainName(of: separator)
    }

    /// A separator's name alone: `comma`, `semicolon`, `tab`.
    static func plainName(of separator: Unicode.Scalar) -> String {
        switch separator {
        case ";": "semicolon"
        case "\t": "tab"
        default: "comma"
        }
    }
}
