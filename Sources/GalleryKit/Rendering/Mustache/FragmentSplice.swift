/// The fragments of one page (its tiles) as it renders: each one copied from the previous
/// build's page when its key says it shows what it showed then, else rendered; and where each
/// lies in the new page, for the next build.
///
/// A fragment is the output of a leaf partial rendered with an object on top of the stack that
/// ``objectKey`` gives a key for (the page's tiles). Fragments are matched by order: the n-th one a
/// render meets is copied from the n-th one of `previous` when their keys are equal. A key must
/// therefore tell everything a fragment shows: the object's values and the place of the partial
/// (its name and indentation); the caller makes sure the templates are the same.
///
/// The copied bytes are those a render would write: the partial is a leaf, the previous build
/// rendered it from the object alone (a fragment that looked below its object is recorded as
/// not ``Fragment/isPure``, and a map holding one is not kept), and the object's values are the
/// key's. One splice serves one render, on one thread.
final class FragmentSplice {
    /// Where one fragment lies in a page, and the key of what it shows.
    struct Fragment: Sendable, Equatable {
        var key: UInt64
        var offset: Int
        var length: Int
        /// Whether it was copied from the previous page rather than rendered.
        var copied = false
        /// Whether its output depended on its object alone.
        var isPure = true
        /// Whether it is a balanced run of elements with no `id` and no `#` (see
        /// ``FragmentSplice/isIsolated(_:)``). Copied fragments are as their page's map says.
        var isIsolated = true

        var range: Range<Int> { offset..<(offset + length) }
    }

    /// The key of an object's fragment (`nil`: its partials are rendered as usual).
    let objectKey: (any TemplateObject) -> UInt64?
    /// The previous page.
    let old: [UInt8]
    /// Its fragments, in order.
    let previous: [Fragment]
    /// The fragments of the page being rendered, in order.
    private(set) var fragments: [Fragment] = []

    /// A splice copying from `old`, whose fragments are `previous`; with no previous page, one
    /// that only records where the fragments of a new render lie.
    init(objectKey: @escaping (any TemplateObject) -> UInt64?, old: [UInt8] = [], previous: [Fragment] = []) {
        self.objectKey = objectKey
        self.old = old
        self.previous = previous.allSatisfy { $0.offset >= 0 && $0.length >= 0 && $0.offset + $0.length <= old.count } ? previous : []
    }

    /// The key of the fragment of partial `name` rendered for `object` at this indentation, or
    /// `nil` when the object has none.
    func key(for object: any TemplateObject, partial name: String, indentation: [UInt8], extra: [UInt8]?) -> UInt64? {
        guard let key = objectKey(object) else { return nil }
        let place = (FastHash.hash(name), FastHash.hash(indentation), extra.map(FastHash.hash) ?? 0)
        return withUnsafeBytes(of: (key, place.0, place.1, place.2)) { FastHash.hash($0) }
    }

    /// Writes the next fragment's bytes from the previous page if it has the same key there;
    /// returns whether it did.
    func copy(_ key: UInt64, into output: inout [UInt8]) -> Bool {
        let index = fragments.count
        guard index < previous.count, previous[index].key == key else { return false }
        let source = previous[index]
        let start = output.count
        old.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[source.range])) }
        fragments.append(Fragment(key: key, offset: start, length: source.length, copied: true, isPure: true, isIsolated: source.isIsolated))
        return true
    }

    /// Notes a fragment just rendered into `output` from `start`.
    func rendered(_ key: UInt64, from start: Int, in output: [UInt8], isPure: Bool) {
        let isolated = output.withUnsafeBufferPointer { Self.isIsolated(UnsafeBufferPointer(rebasing: $0[start...])) }
        fragments.append(Fragment(key: key, offset: start, length: output.count - start, isPure: isPure, isIsolated: isolated))
    }

    /// How many fragments were copied.
    var copiedCount: Int { fragments.reduce(0) { $0 + ($1.copied ? 1 : 0) } }

    /// The hash of what lies between the fragments of `page` (each gap with its length): equal
    /// for two pages whose fragments sit in the same places among the same other bytes.
    func skeletonHash(of page: [UInt8]) -> UInt64 {
        var skeleton: [UInt8] = []
        skeleton.reserveCapacity(page.count / 16 + 8 * fragments.count + 4096)
        var position = 0
        page.withUnsafeBufferPointer { page in
            func gap(upTo end: Int) {
                withUnsafeBytes(of: UInt64(end - position).littleEndian) { skeleton.append(contentsOf: $0) }
                skeleton.append(contentsOf: UnsafeBufferPointer(rebasing: page[position..<end]))
            }
            for fragment in fragments {
                gap(upTo: fragment.offset)
                position = fragment.offset + fragment.length
            }
            gap(upTo: page.count)
        }
        return FastHash.hash(skeleton)
    }

    /// `page` without its copied fragments: the bytes a check must still see when the rest is
    /// as the previous page had it.
    func withoutCopied(_ page: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(4096)
        var position = 0
        page.withUnsafeBufferPointer { page in
            for fragment in fragments where fragment.copied {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: page[position..<fragment.offset]))
                position = fragment.offset + fragment.length
            }
            result.append(contentsOf: UnsafeBufferPointer(rebasing: page[position...]))
        }
        return result
    }

    /// Whether a fragment can be left out of a page's check when it is as before: a balanced run
    /// of whole elements (so every fragment after it stands where it stood), with no `id` (that
    /// another could repeat) and no `#` (a link to an id that another could have lost).
    ///
    /// It must also start with `<` and end with `>`, white space aside, as fragments a page is
    /// checked without (``FragmentChecks``): taken out from between a fragment made again that
    /// ends in `]]` or `&` and a page's own bytes that start with `>` or a name, it would leave
    /// a check that reads `]]>` or `&amp;` where the page has neither.
    ///
    /// Conservative: text that looks like either (`paid=`, `#1 Hits`), a comment, a CDATA
    /// section or a processing instruction makes it not isolated, and its page is checked whole.
    static func isIsolated(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.contains(where: { !isSpace($0) }) else { return true }
        guard FragmentChecks.isMarkable(bytes) else { return false }
        var depth = 0
        var index = 0
        let count = bytes.count
        // Whether the bytes before `position` end in `id` and spaces: an `=` there gives an id.
        func namesID(before position: Int) -> Bool {
            var back = position - 1
            while back >= 0, isSpace(bytes[back]) { back -= 1 }
            return back >= 1 && bytes[back] | 0x20 == UInt8(ascii: "d") && bytes[back - 1] | 0x20 == UInt8(ascii: "i")
        }
        // A `#` that does not start a character reference (`&#39;`, how text writes `'`).
        func isFragmentMark(_ position: Int) -> Bool {
            position == 0 || bytes[position - 1] != UInt8(ascii: "&")
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "#") {
                if isFragmentMark(index) { return false }
            } else if byte == UInt8(ascii: "=") {
                if namesID(before: index) { return false }
            } else if byte == UInt8(ascii: "<") {
                guard index + 1 < count else { return false }
                let next = bytes[index + 1]
                if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") { return false }
                // To the tag's end, past quoted attribute values (which may hold `>` and `/`).
                var end = index + 1
                var quote: UInt8 = 0
                while end < count {
                    let current = bytes[end]
                    if current == UInt8(ascii: "#"), isFragmentMark(end) { return false }
                    if quote != 0 {
                        if current == quote { quote = 0 }
                    } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") {
                        quote = current
                    } else if current == UInt8(ascii: ">") {
                        break
                    } else if current == UInt8(ascii: "="), namesID(before: end) {
                        return false
                    }
                    end += 1
                }
                guard end < count else { return false }
                if next == UInt8(ascii: "/") {
                    depth -= 1
                    if depth < 0 { return false }
                } else if bytes[end - 1] != UInt8(ascii: "/") {
                    depth += 1
                }
                index = end
            }
            index += 1
        }
        return depth == 0
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
