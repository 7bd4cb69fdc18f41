import Foundation

/// What a GET's `Range` header (RFC 9110 §14.2) asks of a file of a given size: the whole file,
/// one part of it, or nothing it has.
///
/// Only what a browser needs to seek in audio and video is served as a part: one range of bytes,
/// `bytes=a-b`, `bytes=a-` or `bytes=-n` (the last `n`). Anything else is not an error: a server
/// may always ignore `Range` and send the whole file with 200, which every client understands, so
/// that is the answer to a header it cannot read, a unit other than `bytes`, and several ranges
/// at once (`bytes=0-1,5-6`, which would need a `multipart/byteranges` body; browsers never ask
/// for one to play media). Only a range that starts past the end, or a suffix of no bytes
/// (`bytes=-0`), is unsatisfiable: 416, with the file's size in `Content-Range: bytes */size`.
public enum RangeRequest: Sendable, Hashable {
    /// The whole file, with 200: no `Range`, or one that is ignored.
    case whole
    /// These bytes of the file, with 206 and `Content-Range: bytes first-last/size`; never
    /// empty, and inside the file.
    case part(ClosedRange<Int>)
    /// None of the file's bytes: 416, with `Content-Range: bytes */size`.
    case unsatisfiable

    /// What a request asks of a file of `size` bytes whose strong ETag is `tag`, from the values
    /// of its `Range` and `If-Range` header fields.
    ///
    /// `If-Range` makes the range conditional (RFC 9110 §13.1.5): a client resuming a download
    /// sends the ETag of the bytes it has, and gets the part only if the file is still those
    /// bytes, else the whole new file. The comparison is strong, so a weak tag (`W/"…"`) never
    /// matches; neither does a date, as no `Last-Modified` is sent to compare it with.
    public init(range: [String], ifRange: [String], size: Int, tag: String) {
        guard range.count == 1 else {
            // Two `Range` fields are as unreadable as two ranges in one: the whole file.
            self = .whole
            return
        }
        if !ifRange.isEmpty, ifRange != [tag] {
            self = .whole
            return
        }
        self = Self(range[0], size: size)
    }

    /// What one `Range` value asks of a file of `size` bytes.
    public init(_ value: String, size: Int) {
        guard let equals = value.firstIndex(of: "="),
              value[..<equals].lowercased() == "bytes"
        else {
            self = .whole
            return
        }
        // The list may carry empty elements (`bytes=0-1,`), which RFC 9110 §5.6.1 asks a
        // recipient to ignore.
        let specs = value[value.index(after: equals)...]
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard specs.count == 1, let dash = specs[0].firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = specs[0][..<dash]
        let last = specs[0][specs[0].index(after: dash)...]
        if first.isEmpty {
            // A suffix: the last `n` bytes, or the whole file if it has fewer.
            guard let count = Self.position(last) else {
                self = .whole
                return
            }
            guard count > 0 else {
                self = .unsatisfiable
                return
            }
            // An empty file has no byte to put in `Content-Range: bytes first-last/0`.
            self = size == 0 ? .whole : .part(max(0, size - count)...(size - 1))
            return
        }
        guard let start = Self.position(first) else {
            self = .whole
            return
        }
        var end = Int.max
        if !last.isEmpty {
            guard let given = Self.position(last), given >= start else {
                // `bytes=5-2` is no range at all (RFC 9110 §14.1.1 calls it invalid).
                self = .whole
                return
            }
            end = given
        }
        guard start < size else {
            self = .unsatisfiable
            return
        }
        self = .part(start...min(end, size - 1))
    }

    /// A byte position: ASCII digits only (`Int("+1")` would take a sign); one too large for an
    /// `Int` is past the end of any file, so it is `Int.max`.
    static func position(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text) ?? Int.max
    }
}
