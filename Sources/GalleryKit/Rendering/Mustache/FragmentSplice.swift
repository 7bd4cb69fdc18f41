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

        var range: Range<Int> { offset..<(offset + length) }
    }

    /// The key of an object's fragment (`nil`: its partials are rendered as usual).
    let objectKey: (TemplateObject) -> UInt64?
    /// The previous page.
    let old: [UInt8]
    /// Its fragments, in order.
    let previous: [Fragment]
    /// The fragments of the page being rendered, in order.
    private(set) var fragments: [Fragment] = []

    /// A splice copying from `old`, whose fragments are `previous`; with no previous page, one
    /// that only records where the fragments of a new render lie.
    init(objectKey: @escaping (TemplateObject) -> UInt64?, old: [UInt8] = [], previous: [Fragment] = []) {
        self.objectKey = objectKey
        self.old = old
        self.previous = previous.allSatisfy { $0.offset >= 0 && $0.length >= 0 && $0.offset + $0.length <= old.count } ? previous : []
    }

    /// The key of the fragment of partial `name` rendered for `object` at this indentation, or
    /// `nil` when the object has none.
    func key(for object: TemplateObject, partial name: String, indentation: [UInt8], extra: [UInt8]?) -> UInt64? {
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
        fragments.append(Fragment(key: key, offset: start, length: source.length, copied: true, isPure: true))
        return true
    }

    /// Notes a fragment just rendered into `output` from `start`.
    func rendered(_ key: UInt64, from start: Int, in output: [UInt8], isPure: Bool) {
        fragments.append(Fragment(key: key, offset: start, length: output.count - start, isPure: isPure))
    }

    /// How many fragments were copied.
    var copiedCount: Int { fragments.reduce(0) { $0 + ($1.copied ? 1 : 0) } }
}
