/// A page's check with the fragments (tiles) it shares with pages already checked left out:
/// neighbouring album pages show thirty of the same thirty-one tiles, which were most of what
/// a clean build parsed and checked.
///
/// The check reads the page with a processing instruction, a marker, in each left-out
/// fragment's place, and with markers around each fragment not yet checked, which is checked
/// where it stands. Only fragments that start with `<` and end with `>` (white space aside) are
/// marked, so a marker breaks no run of bytes libxml2 reads as one (`]]` and `>`, `&` and a
/// name). A marker counts only when libxml2 reads it as a whole instruction of its own where it
/// stands: one inside a comment or CDATA section, or one whose `?>` closes an instruction opened
/// before it, fails the check. So the check reads the page's own bytes, token for token, but
/// for each marked fragment an instruction in content (which XML allows wherever an element
/// may stand, and which the rules ignore).
///
/// At each marker `XHTMLStreamCheck` takes a signature of everything the parse and the checks
/// of a fragment standing there depend on:
///
/// - the open elements' names and namespaces, and the namespaces each declared (so the
///   bindings a prefix in the fragment resolves through);
/// - the check's scope there (inside a tile, the spelling rules of names), and the depth,
///   which must be 3 or more (the root, `head`, `body` and `title` rules look no deeper);
/// - the depth of the page's folder, references being resolved from it.
///
/// A marker inside a `script` or `style` (whose text the check reads from the bytes, markers
/// and all), shallower than 3, or where the parser decodes another encoding than UTF-8, fails
/// the check. Pages over 4 MB are checked whole: libxml2's limits (10 MB) depend on a
/// document's size, which a left-out fragment changes.
///
/// A fragment between two markers is learnt as checked in that signature when the whole page
/// passes, it is a run of whole elements (it closes no element open before it, and the markers'
/// signatures are equal), and inside it there is no `id`, no `script` or `style` element, and
/// no reference that holds a `#` or resolves otherwise from another folder of the same depth
/// (only those that start with `/`, a scheme, or as many `../` as the folder is deep). Such a
/// fragment reads nothing the rest of the page sets and sets nothing the rest reads: no ids, no
/// links to ids, no head or title, the same parser state at its end as at its start. Left out
/// where the signature is the same, it would therefore pass again and change nothing after it,
/// so the page passes with it iff the check passes with the marker. A marker whose signature is
/// not one its fragment was checked in fails the check.
///
/// Any failure, or any doubt, and the caller checks the page itself, whole: findings always come
/// from the page's own bytes, and a passed check answers exactly what the whole page's would.
struct FragmentChecks {
    /// What a marker stands for.
    enum Marker: Equatable {
        /// A run of `count` fragments left out, with only white space between them, each already
        /// checked: the signature here must be one of `signatures`, those all were checked in.
        /// (Each leaves the parse as it found it, and white space between elements changes
        /// nothing, so each stands where the first does.)
        case checked(signatures: [UInt64], count: Int)
        /// The start of a fragment checked where it stands.
        case start(slot: Int)
        /// Its end.
        case end(slot: Int)
    }

    /// A marker: a processing instruction, which XML allows wherever an element may stand.
    static let marker = Array("<?gallery-check?>".utf8)

    /// The bytes the check reads.
    var bytes: [UInt8]
    /// Each marker's end in ``bytes`` (where the parser stands once it has read it), in order.
    var markers: [(end: Int, kind: Marker)]
    /// How many fragments are left out.
    var leftOut: Int { markers.reduce(0) { if case .checked(_, let count) = $1.kind { $0 + count } else { $0 } } }
    /// The depth of the page's folder: 0 for `404.html`, 2 for `albums/x/index.html`.
    var folderDepth: Int

    /// The largest page checked this way, and the largest check: far below the 10 MB from which
    /// libxml2 refuses a document's long runs and names (it parses without `XML_PARSE_HUGE`),
    /// so neither the page nor its check meets a limit the other does not.
    static let largestPage = 4 << 20

    /// The check of `page` with the fragments of `placements` that `checkedIn` knows left out,
    /// the others marked; `nil` when there are no fragments that may be, or the page is too large.
    ///
    /// Only a fragment that starts with `<` and ends with `>`, but for white space around it, is
    /// marked: a marker beside it breaks no run of the page's bytes that libxml2 reads as one
    /// (text ending in `]]`, an `&` and its name), as one beside `]]` or `&` could. The others
    /// stay in the check as the page's own bytes.
    /// How many folders deep the page at `path` is: its non-empty segments but the last
    /// (`albums/x/index.html`: 2), counted in its bytes.
    static func folderDepth(of path: String) -> Int {
        var depth = 0
        var segmentIsEmpty = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if !segmentIsEmpty { depth += 1 }
                segmentIsEmpty = true
            } else {
                segmentIsEmpty = false
            }
        }
        return depth
    }

    init?(page: [UInt8], path: String, placements: [FragmentCache.Placement], checkedIn: [[UInt64]]) {
        guard !placements.isEmpty, page.count <= Self.largestPage else { return nil }
        folderDepth = Self.folderDepth(of: path)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096 + placements.count * 2 * Self.marker.count)
        var markers: [(end: Int, kind: Marker)] = []
        markers.reserveCapacity(placements.count * 2)
        var position = 0
        let marker = Self.marker
        var valid = true
        // The run of left-out fragments being gathered (only white space between them): the
        // signatures all of them were checked in, how many, and where its marker ends. Kept
        // here and written once, when the run ends, rather than into the last marker for each
        // of a page's tiles.
        var run: (signatures: [UInt64], count: Int, end: Int)?
        page.withUnsafeBufferPointer { page in
            checkedIn.withUnsafeBufferPointer { checkedIn in
                for placement in placements {
                    guard placement.offset >= position, placement.length >= 0, placement.offset + placement.length <= page.count,
                          checkedIn.indices.contains(placement.slot) else { valid = false; return }
                    let fragment = UnsafeBufferPointer(rebasing: page[placement.offset..<(placement.offset + placement.length)])
                    guard Self.isMarkable(fragment) else { continue }
                    let gap = UnsafeBufferPointer(rebasing: page[position..<placement.offset])
                    let knownCount = checkedIn[placement.slot].count
                    // Beside the run of left-out fragments before it, with only white space between.
                    if knownCount > 0, let current = run, current.end == bytes.count, gap.allSatisfy(Self.isSpace) {
                        // Nearly always the run's one signature is this fragment's one too:
                        // compared in place, rather than the fragment's list copied out.
                        let common = current.signatures.count == 1 && knownCount == 1 && checkedIn[placement.slot][0] == current.signatures[0]
                            ? current.signatures
                            : current.signatures.filter(checkedIn[placement.slot].contains)
                        if !common.isEmpty {
                            run = (common, current.count + 1, current.end)
                            position = placement.offset + placement.length
                            continue
                        }
                    }
                    if let current = run {
                        markers.append((current.end, .checked(signatures: current.signatures, count: current.count)))
                        run = nil
                    }
                    bytes.append(contentsOf: gap)
                    if knownCount == 0 {
                        bytes.append(contentsOf: marker)
                        markers.append((bytes.count, .start(slot: placement.slot)))
                        bytes.append(contentsOf: fragment)
                        bytes.append(contentsOf: marker)
                        markers.append((bytes.count, .end(slot: placement.slot)))
                    } else {
                        bytes.append(contentsOf: marker)
                        run = (checkedIn[placement.slot], 1, bytes.count)
                    }
                    position = placement.offset + placement.length
                }
            }
            if let current = run {
                markers.append((current.end, .checked(signatures: current.signatures, count: current.count)))
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: page[position...]))
        }
        guard valid, !markers.isEmpty, bytes.count <= Self.largestPage else { return nil }
        self.bytes = bytes
        self.markers = markers
    }

    /// Whether a fragment may be marked: it starts with `<` and ends with `>`, white space aside.
    static func isMarkable(_ fragment: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = fragment.firstIndex(where: { !isSpace($0) }), let last = fragment.lastIndex(where: { !isSpace($0) }) else { return false }
        return first < last && fragment[first] == UInt8(ascii: "<") && fragment[last] == UInt8(ascii: ">")
    }

    /// XML's white space.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Whether a reference in a fragment resolves to the same outcome from every folder of
    /// `folderDepth`, and names no id: no `#`, and it starts with `/` (the base path), a scheme,
    /// or `folderDepth` times `../` (which leaves the page's folder for the root).
    static func isPlaceFree(_ reference: UnsafeBufferPointer<UInt8>, folderDepth: Int) -> Bool {
        guard let first = reference.first, !reference.contains(UInt8(ascii: "#")) else { return false }
        if first == UInt8(ascii: "/") || ReferenceResolver.hasScheme(reference) { return true }
        // Compared byte by byte: an array of "../" made here was most of what the check
        // allocated for each tile it met.
        guard reference.count >= 3 * folderDepth else { return false }
        for step in 0..<folderDepth {
            let at = 3 * step
            guard reference[at] == UInt8(ascii: "."), reference[at + 1] == UInt8(ascii: "."), reference[at + 2] == UInt8(ascii: "/") else { return false }
        }
        return true
    }
}
