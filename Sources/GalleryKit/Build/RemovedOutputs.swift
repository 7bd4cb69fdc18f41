#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files the previous build made that this one does not (a deleted album's page, an album's
/// old address, a static file taken out of `static/`), and which of the pages left in place might
/// link to one of them.
///
/// A page whose inputs are unchanged is not rendered or checked again; its links were checked
/// when it was written. Once a file it may link to is gone, it is made and checked again, as a
/// clean build would, so the build fails on the broken link instead of publishing it.
///
/// Whether a page may link to a removed file is told from the page's bytes in the output folder,
/// without parsing them. A reference reaches a file by naming it: its last segment (for a
/// folder's `index.html`, the folder's name) is in the reference's bytes as they are, unless
///
/// - a character of it is escaped: with `%`, with a character reference (`&#…;` that is not one
///   of `" ' & < >`, which no name looked for here holds), or with a CSS escape (`\`) in a style;
/// - it is spelt by entities the page declares (`<!ENTITY`), or split inside a `<style>` element,
///   whose text the check joins across comments, CDATA sections and child elements;
/// - the page is read in another encoding than UTF-8 (as a byte order mark, an XML declaration
///   or NUL bytes make libxml2 read it);
/// - a space in it is written as a tab or a line break, which an attribute's value turns into
///   one: a name with a space is not searched for;
/// - the folder is reached by climbing (`..`, `.`, `/`): only a folder that holds the page, at
///   any depth, can be named so without its name.
///
/// So a UTF-8 page holding none of the names, no escape, no entity declaration and no `style`
/// element cannot link to a removed file. Any other is made again. A name that holds one of the
/// characters above, or a long list of removed files, makes every page in place made again.
///
/// Paths are compared by their bytes, as the link check compares them: a file renamed to an
/// equivalent Unicode spelling (`café` composed, then decomposed) is removed under its old one.
struct RemovedOutputs: Sendable {
    /// The removed files' paths, sorted.
    let paths: [String]
    /// The bytes a reference to a removed file must hold, unless escaped.
    private let names: [Needle]
    /// The folders whose `index.html` was removed, each with a trailing `/`; `""` for the root.
    private let folders: [String]
    /// Whether every page in place is made again, the names being no use.
    private let everyPage: Bool

    /// More removed files than this, and every page is made again rather than searched for
    /// each name.
    static let mostNames = 64

    /// The outputs of `previous` that `index` (of every output this build makes) does not hold.
    ///
    /// By bytes: `String`'s equality takes a composed `é` for a decomposed one (and a Kelvin
    /// sign for a K). The index compares bytes without a `String` hash or copy: at 10k albums
    /// an edit looks up every page the last build made here, before any page can render.
    init(previous: BuildManifest, index: OutputPathIndex) {
        self.init(paths: previous.entries.keys.filter { path in
            var path = path
            return !path.withUTF8 { index.contains($0) }
        })
    }

    init(paths: some Sequence<String>) {
        self.paths = paths.sorted()
        var names: Set<[UInt8]> = []
        var folders: [String] = []
        var everyPage = false
        for path in self.paths {
            var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            var name = segments.removeLast()
            if name == "index.html" {
                folders.append(segments.isEmpty ? "" : segments.joined(separator: "/") + "/")
                guard let folder = segments.last else { continue }
                name = folder
            }
            if name.isEmpty || name.utf8.contains(where: Self.escapeMarks.contains) { everyPage = true }
            names.insert(Array(name.utf8))
        }
        self.names = names.sorted { $0.lexicographicallyPrecedes($1) }.map(Needle.init)
        self.folders = folders
        self.everyPage = everyPage || names.count > Self.mostNames
    }

    /// Whether no file was removed.
    var isEmpty: Bool { paths.isEmpty }

    /// Whether the page at `path` (relative to the output root), holding `bytes` (`nil`: they
    /// could not be read), may link to a removed file. Always `false` when none was removed.
    func mayLink(from path: String, bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard !paths.isEmpty else { return false }
        guard let bytes, !everyPage else { return true }
        // A page in the folder or below it: its path starts with the folder's and a `/`.
        if !folders.isEmpty, folders.contains(where: { folder in folder.isEmpty || path.utf8.starts(with: folder.utf8) }) { return true }
        return Self.holdsEscape(bytes) || Self.mayNotBeUTF8(bytes) || Self.hidingPlaces.contains { $0.occurs(in: bytes) }
            || names.contains { $0.occurs(in: bytes) }
    }

    /// Where a name may be spelt without its bytes in a row: entities the page declares (no
    /// declaration is made without these bytes, and no external DTD is loaded), and a `style`
    /// element (`<style`, or with a prefix, `<h:style`), whose text is joined across comments,
    /// CDATA sections, processing instructions and child elements before its URLs are read.
    private static let hidingPlaces = ["<!ENTITY", "<style", ":style"].map { Needle(Array($0.utf8)) }

    /// Whether the page may be read in another encoding than UTF-8, in which a name's UTF-8 bytes
    /// are not those of the name (`+AGU-` is an `e` in UTF-7): it does not start with `<` (after
    /// a UTF-8 byte order mark), holds a NUL byte (libxml2 reads `<\0?\0` as UTF-16 without a
    /// byte order mark, whatever the declaration says), or its XML declaration names an encoding
    /// other than UTF-8.
    static func mayNotBeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard start < bytes.count, bytes[start] == UInt8(ascii: "<"), memchr(bytes.baseAddress!, 0, bytes.count) == nil else { return true }
        let rest = UnsafeBufferPointer(rebasing: bytes[start...])
        guard rest.starts(with: Array("<?xml".utf8)) else { return false }
        guard let end = Self.declarationEnd.firstOffset(in: rest) else { return true }
        let declaration = String(decoding: rest[..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return false }
        let value = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return !(value.hasPrefix("\"utf-8\"") || value.hasPrefix("'utf-8'"))
    }

    /// The characters that escape another in a reference (`%`, `\`), are themselves escaped in
    /// markup (`& < > " '`), or are spaces, which an attribute's tab or line break becomes once
    /// parsed: a name holding one is not searched for as it is.
    private static let escapeMarks: Set<UInt8> = Set("%\\&<>\"' \t\n\r".utf8)

    /// Whether the bytes hold a `%`, a `\` or a character reference to anything but `" ' & < >`.
    static func holdsEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        if memchr(base, Int32(UInt8(ascii: "%")), bytes.count) != nil || memchr(base, Int32(UInt8(ascii: "\\")), bytes.count) != nil {
            return true
        }
        var start = 0
        while start < bytes.count, let found = memchr(base + start, Int32(UInt8(ascii: "&")), bytes.count - start) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "#") {
                // What XML reads for it; none when it is not a whole reference.
                guard let read = RawTextEntities.reference(at: at, in: bytes).read, Self.markupCharacters.contains(read) else { return true }
            }
            start = at + 1
        }
        return false
    }

    /// The characters markup escapes with a character reference: `" ' & < >`.
    private static let markupCharacters: Set<String> = ["\"", "'", "&", "<", ">"]

    /// Where an XML declaration ends.
    private static let declarationEnd = Needle(Array("?>".utf8))
}

/// Bytes searched for 16 places at a time: a window's first byte and its rarest other byte are
/// compared at once, and only where both match are the rest compared (a page of 15 KB takes
/// about a thousand steps, whatever the name).
struct Needle: Sendable {
    let bytes: [UInt8]
    /// The offset of the byte compared beside the first: the one least common in a page.
    private let probe: Int

    /// Bytes from the most common in a page's markup and text to the least; any other is rarer.
    private static let commonness = Array(" e\"t=a<>/-ioslnr:0123456789chpdgumf.xbwkvyE_;,T".utf8)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        func rarity(_ byte: UInt8) -> Int {
            Self.commonness.firstIndex(of: byte) ?? Self.commonness.count
        }
        probe = bytes.indices.dropFirst().max { rarity(bytes[$0]) < rarity(bytes[$1]) } ?? 0
    }

    /// Whether `haystack` holds these bytes.
    func occurs(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        firstOffset(in: haystack) != nil
    }

    /// Where these bytes first start in `haystack`, or `nil`.
    func firstOffset(in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        guard count > 0 else { return 0 }
        guard haystack.count >= count, let base = haystack.baseAddress else { return nil }
        let probe = probe
        return bytes.withUnsafeBufferPointer { needle in
            let firsts = SIMD16<UInt8>(repeating: needle[0])
            let probes = SIMD16<UInt8>(repeating: needle[probe])
            let raw = UnsafeRawPointer(base)
            // Windows starting at 0 ..< starts; the last one ends at the haystack's end.
            let starts = haystack.count - count + 1
            var start = 0
            while start + 16 <= starts {
                let heads = raw.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
                let probed = raw.loadUnaligned(fromByteOffset: start + probe, as: SIMD16<UInt8>.self)
                if any((heads .== firsts) .& (probed .== probes)) {
                    for candidate in start ..< start + 16 where matches(at: candidate, in: base, needle) { return candidate }
                }
                start += 16
            }
            while start < starts {
                if matches(at: start, in: base, needle) { return start }
                start += 1
            }
            return nil
        }
    }

    private func matches(at start: Int, in base: UnsafePointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        base[start] == needle[0] && base[start + probe] == needle[probe]
            && memcmp(base + start, needle.baseAddress!, needle.count) == 0
    }
}
