/// A value a template can show or iterate: gallery's Mustache contexts are typed values rather
/// than `Any`, so rendering needs no dynamic casts or reflection.
public enum TemplateValue: Sendable {
    /// Text, HTML-escaped by `{{name}}`; written as it is by `{{{name}}}`, as the specification
    /// says, except by a renderer that escapes every text (gallery's pages: album and site text
    /// is escaped wherever a template writes it).
    case text(String)
    /// Markup gallery made itself (an analytics provider's inline script): escaped by `{{name}}`,
    /// written as it is by `{{{name}}}` always.
    case markup(String)
    /// A whole number.
    case number(Int)
    /// A flag: a section renders when it is true, an inverted section when it is false.
    case bool(Bool)
    /// Items a section renders once each.
    case list([TemplateValue])
    /// Named values, looked up by `{{name}}` and `{{name.child}}`.
    case object(TemplateObject)
    /// Nothing: falsey, renders as empty.
    case null

    /// Whether a section skips this value (and an inverted section renders): false, null and
    /// empty lists, as in the Mustache specification.
    var isFalsey: Bool {
        switch self {
        case .bool(let flag): !flag
        case .null: true
        case .list(let items): items.isEmpty
        case .text, .markup, .number, .object: false
        }
    }
}

/// A value with named children, such as a page's context or a tile.
///
/// Objects are classes: a ``TemplateValue`` then holds a reference, so the renderer's stack,
/// lists and lookups copy values by retaining one pointer, and a `switch` over a value borrows
/// it. A value type here made every ``TemplateValue`` address-only: each pattern match copied
/// the whole value through the type's witnesses, and half of a page's rendering time was
/// retains, releases and such copies.
///
/// A class to subclass rather than a protocol: the renderer keeps an unmanaged reference to
/// each object on its stack and asks it for names without retaining it for every call, which
/// an existential (`any P`) does not allow. Subclasses are final classes with `let` fields of
/// Sendable types, made once and read from any thread; hence `@unchecked Sendable`, which Swift
/// has each subclass restate.
open class TemplateObject: @unchecked Sendable {
    public init() {}

    /// The child named `key`, or `nil` when this object has no such key (lookup then continues
    /// down the context stack, as Mustache requires).
    open func value(forKey key: String) -> TemplateValue? { nil }

    /// Every name ``value(forKey:)`` answers (if only with `.null`, for a value absent here),
    /// for the template check: a misspelt name is told the names of the object it was asked
    /// of, and where else a name it asked for is.
    open var keys: [String] { [] }

    /// A number that identifies this object's values among the objects rendered with one
    /// ``FragmentCache`` (equal keys, equal values), or `nil`. A partial rendered with such an
    /// object on top of the stack, that looks nothing up below it, is rendered once and reused.
    /// Objects are not cached unless they say how.
    open var fragmentKey: Int? { nil }
}

/// Partial output already rendered for an object, reused when the same partial is rendered for
/// the same object again: on neighbouring album pages thirty of thirty-one tiles repeat.
///
/// One cache serves one batch of renders in one task; it is not shared between threads.
public final class FragmentCache {
    /// A fragment's key: where the partial is included, and the object it was rendered for.
    struct Key: Hashable {
        /// The number ``site(template:indentation:extra:)`` gave the inclusion.
        var site: Int
        var object: Int
    }

    /// A place a partial is included at: the partial, the indentation of the lines around its
    /// tag, and the tag's own (`nil` for a tag inline in its line).
    private struct Site: Hashable {
        var template: String
        var indentation: [UInt8]
        var extra: [UInt8]?
    }

    /// Where a fragment's bytes lie in the cache's ``arena``, and its number among the cache's
    /// fragments.
    struct Entry: Equatable {
        var offset: Int
        var length: Int
        var slot: Int
    }

    /// Where one cached fragment lies in the page just rendered.
    struct Placement: Equatable {
        var offset: Int
        var length: Int
        /// Its entry's number.
        var slot: Int
    }

    var entries = FragmentTable()
    /// Every fragment's bytes, one after another, in memory the cache owns: a tile copied from
    /// the cache is then a copy of bytes, with no array's references counted around it.
    private var arena: UnsafeMutablePointer<UInt8>
    private var arenaCapacity = 1 << 15
    private var arenaCount = 0
    /// The number of each site, and the latest site asked for, which the next ask is nearly
    /// always for (a strip's tiles all come from one): found by comparing, without hashing.
    private var sites: [Site: Int] = [:]
    private var latestSite = Site(template: "", indentation: [], extra: nil)
    private var latestNumber = -1
    /// The cached fragments of the latest render, in order, whether rendered or reused: the
    /// page check leaves out those it already checked in the same place (``FragmentChecks``).
    var placements: [Placement] = []
    /// By slot, the contexts (``FragmentChecks`` signatures) each fragment passed a page check in.
    var checkedIn: [[UInt64]] = []
    /// Set once a check that left fragments out failed: the rest of the batch is checked whole,
    /// so a template whose fragments keep changing context costs one extra parse, not one a page.
    var checksLeftWhole = false
    /// How many fragments page checks have left out.
    var leftOut = 0

    /// An empty cache.
    public init() {
        arena = .allocate(capacity: arenaCapacity)
    }

    deinit {
        arena.deallocate()
    }

    /// The bytes of the fragment `entry` describes.
    func bytes(of entry: Entry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena + entry.offset, count: entry.length)
    }

    /// The number of the place `template` is included at, with `indentation` around its tag and
    /// `extra` its own.
    func site(template: String, indentation: [UInt8], extra: [UInt8]?) -> Int {
        if latestNumber >= 0, latestSite.template == template, latestSite.indentation == indentation, latestSite.extra == extra {
            return latestNumber
        }
        let site = Site(template: template, indentation: indentation, extra: extra)
        let number = sites[site] ?? sites.count
        sites[site] = number
        latestSite = site
        latestNumber = number
        return number
    }

    /// Appends the fragment of `key` to `output` and notes where it lies, if there is one; whether
    /// there was.
    func appendCached(_ key: Key, to output: inout [UInt8]) -> Bool {
        guard let entry = entries[key] else { return false }
        placements.append(Placement(offset: output.count, length: entry.length, slot: entry.slot))
        output.append(contentsOf: bytes(of: entry))
        return true
    }

    /// Stores the fragment just rendered at `offset` of `output` under `key`, and notes where it lies.
    func store(_ key: Key, from offset: Int, in output: [UInt8]) {
        let slot = checkedIn.count
        checkedIn.append([])
        let length = output.count - offset
        if arenaCount + length > arenaCapacity {
            let capacity = max(arenaCapacity * 2, arenaCount + length)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            larger.initialize(from: arena, count: arenaCount)
            arena.deallocate()
            (arena, arenaCapacity) = (larger, capacity)
        }
        if length > 0 {
            output.withUnsafeBufferPointer { output in
                if let base = output.baseAddress { (arena + arenaCount).initialize(from: base + offset, count: length) }
            }
        }
        entries[key] = Entry(offset: arenaCount, length: length, slot: slot)
        arenaCount += length
        placements.append(Placement(offset: offset, length: length, slot: slot))
    }
}

extension TemplateValue {
    /// Text, or null when absent.
    static func text(_ value: String?) -> TemplateValue {
        value.map { .text($0) } ?? .null
    }

    /// An object, or null when absent.
    static func object(_ value: TemplateObject?) -> TemplateValue {
        value.map { .object($0) } ?? .null
    }

    /// The object this value is, unretained; `nil` for any other value.
    var unmanagedObject: Unmanaged<TemplateObject>? {
        if case .object(let object) = self { .passUnretained(object) } else { nil }
    }
}

/// Named values held in a dictionary, for contexts built ad hoc (tests, small pages).
public final class TemplateDictionary: TemplateObject, @unchecked Sendable {
    /// The values.
    public let values: [String: TemplateValue]

    /// Creates a dictionary context.
    public init(_ values: [String: TemplateValue]) {
        self.values = values
    }

    override public func value(forKey key: String) -> TemplateValue? { values[key] }

    override public var keys: [String] { values.keys.sorted() }
}
