internal import CLibXML2

/// What `XHTMLStreamCheck` keeps, as it parses a ``FragmentChecks`` page, of the markers it
/// meets and the places they stand in: the next marker, the fragment being read and whether it
/// may be learnt, and a hash of the open elements for each place's signature.
struct FragmentMarks {
    /// The markers, and the next one to meet.
    private let markers: [(end: Int, kind: FragmentChecks.Marker)]
    private var next = 0
    /// The depth of the page's folder.
    private let folderDepth: Int
    /// The fragments checked where they stand, with their signatures.
    private(set) var learnt: [(slot: Int, signature: UInt64)] = []
    /// The fragment being read: its slot, its start's signature and depth, and whether it may
    /// yet be learnt (it closed nothing open before it, and holds no id, script, style, or
    /// reference that depends on the page's place).
    private var open: (slot: Int, signature: UInt64, depth: Int, placeFree: Bool)?
    /// For each open element, a hash of its name, namespace and declared namespaces and those of
    /// the elements around it, and whether it or one of them is a `script` or `style`.
    private var frames: [(hash: UInt64, rawText: Bool)] = []
    /// The hashes of the names met so far, by address: libxml2 hands out every element name and
    /// namespace URI of a parse from the parser's dictionary, one address per name for the
    /// parser's life, and a page names the same few dozen again and again. (Marks serve one
    /// parse: `XHTMLStreamCheck` makes new ones for each.)
    private var nameHashes = [(name: UnsafePointer<xmlChar>?, hash: UInt64)](repeating: (nil, 0), count: 64)

    init(_ checks: FragmentChecks) {
        markers = checks.markers
        folderDepth = checks.folderDepth
    }

    /// Whether every marker was met and every fragment ended.
    var isComplete: Bool { next == markers.count && open == nil }

    /// The place the parser stands at, as far as the checks of a fragment standing there go.
    struct Place {
        /// How many elements are open.
        var depth: Int
        /// The check's scope there.
        var scope: MarkupChecker.Scope
        /// Whether the parser reads the bytes as they are (UTF-8, no converter).
        var readsBytesAsTheyAre: Bool
    }

    /// Notes an element's start: its name, namespace and the namespaces it declares (`count`
    /// prefix and URI pairs); inside a fragment being read, whether it holds an id (asked only
    /// there: a page's other elements need no look at their attributes).
    mutating func enter(_ name: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int, holdsID: @autoclosure () -> Bool) {
        let rawText = matches(name, "script") || matches(name, "style")
        let parent = frames.last ?? (hash: 0, rawText: false)
        var hash = FastHash.mix(FastHash.mix(parent.hash, cachedHash(name)), FastHash.mix(cachedHash(uri), UInt64(count)))
        if let namespaces, count > 0 {
            var values = [hash]
            for index in 0..<(2 * count) { values.append(cachedHash(namespaces[index])) }
            hash = FastHash.combine(values)
        }
        frames.append((hash, parent.rawText || rawText))
        if open != nil, rawText || holdsID() { open?.placeFree = false }
    }

    /// Notes an element's end, `depth` elements being open after it.
    mutating func leave(depth: Int) {
        if !frames.isEmpty { frames.removeLast() }
        // A fragment that closes an element open before it is no run of whole elements: what
        // follows it would stand elsewhere without it.
        if let current = open, depth < current.depth { open?.placeFree = false }
    }

    /// Notes a reference read inside a fragment: one that depends on the page's folder or names
    /// an id keeps the fragment from being learnt.
    mutating func read(_ reference: UnsafeBufferPointer<UInt8>) {
        if let current = open, current.placeFree, !FragmentChecks.isPlaceFree(reference, folderDepth: folderDepth) {
            open?.placeFree = false
        }
    }

    /// A processing instruction `target` with `data`, ending at `position`, at `place`: whether
    /// the check may go on (false when the page fails it).
    mutating func instruction(_ target: UnsafePointer<xmlChar>?, _ data: UnsafePointer<xmlChar>?, endingAt position: Int, at place: Place) -> Bool {
        guard next < markers.count else { return true }
        let marker = markers[next]
        // The page's own instruction, before the next marker.
        guard position >= marker.end else { return true }
        // Past it, the marker was not read as one (it stood in a comment or a CDATA section);
        // at its end but not itself, it closed an instruction opened before it. Either way the
        // bytes around it do not parse as the page's: the check fails. An instruction named as
        // a marker, with no data, that ends where the marker ends is the marker's own bytes.
        guard position == marker.end, matches(target, "gallery-check"), data == nil || data?.pointee == 0 else { return false }
        next += 1
        // Where no fragment may be left out (see `signature(at:)`), markers fail the check too:
        // inside a `script` or `style` they would change the text it checks.
        guard let here = signature(at: place) else { return false }
        switch marker.kind {
        case .checked(let signatures, _):
            return signatures.contains(here)
        case .start(let slot):
            guard open == nil else { return false }
            open = (slot, here, place.depth, true)
        case .end(let slot):
            guard let current = open, current.slot == slot else { return false }
            open = nil
            if current.placeFree, here == current.signature { learnt.append((slot, here)) }
        }
        return true
    }

    /// The signature of `place` (see ``FragmentChecks``), or `nil` where no fragment may be left
    /// out: above depth 3, inside a `script` or `style`, or where the parser decodes the bytes
    /// from another encoding than UTF-8.
    ///
    /// The namespaces in scope are those the open elements declared, each in `frames`: libxml2's
    /// own table is laid out differently from one version to the next.
    private func signature(at place: Place) -> UInt64? {
        guard place.depth >= 3, place.readsBytesAsTheyAre, let frame = frames.last, !frame.rawText else { return nil }
        let names: UInt64 = switch place.scope.names {
        case .html: 1
        case .svg: 2
        case .mathML: 3
        }
        let flags = names << 1 | (place.scope.insideTile ? 1 : 0)
        return FastHash.mix(FastHash.mix(frame.hash, UInt64(truncatingIfNeeded: place.depth)), FastHash.mix(UInt64(truncatingIfNeeded: folderDepth), flags))
    }

    /// ``hash(_:)`` of a name, from `nameHashes` when the name was met before at its address.
    private mutating func cachedHash(_ text: UnsafePointer<xmlChar>?) -> UInt64 {
        guard let text else { return Self.hash(nil) }
        let slot = Int(truncatingIfNeeded: UInt(bitPattern: text) >> 3) & (nameHashes.count - 1)
        if nameHashes[slot].name == text { return nameHashes[slot].hash }
        let hash = Self.hash(text)
        nameHashes[slot] = (text, hash)
        return hash
    }

    /// A hash of a NUL-terminated name (`nil`: none), told apart from the empty name.
    private static func hash(_ text: UnsafePointer<xmlChar>?) -> UInt64 {
        guard let text else { return 0x9E37_79B9_7F4A_7C15 }
        return FastHash.hash(UnsafeRawBufferPointer(start: text, count: Int(xmlStrlen(text))))
    }
}
