internal import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// A one-pass answer to "would `PageValidator` find anything on this page?", through libxml2's
/// SAX2 interface instead of a tree.
///
/// Almost every page a build renders is valid, and building, walking and freeing a libxml2 tree
/// per page was most of a build's CPU time (at 10 000 albums the parser alone ran about three
/// times faster without the tree). This check parses the same bytes with the same parser and
/// options, and applies the same rules as `MarkupChecker` to each start tag as it streams past:
/// the page skeleton, unique ids, `alt`, tile sizes, references that must resolve, and names
/// spelt as a browser spells them.
///
/// It only says yes or no. Whenever it is unsure it says no, and `PageValidator` then runs the
/// tree-based checks, which give the exact diagnostics: any error or warning from libxml2, any
/// declaration in an internal DTD subset, an `xml:id`, or an attribute it needs whose value held
/// an `&` (libxml2 hands SAX such values with `&#38;` still encoded). So a page passes here only
/// if the full validation would find nothing; `XHTMLStreamCheckTests` holds it to that.
enum XHTMLStreamCheck {
    /// Whether `bytes` parse as well-formed XML without a single libxml2 issue and break none of
    /// the page rules, with references resolved by `resolver`.
    static func passes(_ bytes: [UInt8], resolver: ReferenceResolver) -> Bool {
        passes(bytes, state: StreamState(resolver: resolver))
    }

    /// Whether the page `checks` stands for passes (see ``FragmentChecks``); if it does, the
    /// fragments it checked where they stand, each with the signature of its place.
    static func passes(_ checks: FragmentChecks, resolver: ReferenceResolver) -> [(slot: Int, signature: UInt64)]? {
        let state = StreamState(resolver: resolver)
        state.marks = FragmentMarks(checks)
        return passes(checks.bytes, state: state) ? state.marks?.learnt : nil
    }

    /// White space the parser reads after a page's bytes: as many spaces as libxml2 2.9's
    /// `INPUT_CHUNK` (250) and a few more.
    ///
    /// Within that many bytes of its input's end, libxml2 2.9 tries to top the input up before
    /// nearly every token it reads, through half a dozen calls into its buffer code, though a
    /// page in memory has nothing more to give: at a page's last 250 bytes that was a fifth of
    /// the parse of an album page's 3 KB that the check reads (a C loop over libxml2 alone, 9.2
    /// against 7.4 µs a page). Spaces after the page move that end past the page.
    ///
    /// They change no answer: XML allows white space after the root element, where the parser
    /// reports none of it through SAX; a page that is cut short stays cut short (the spaces
    /// close no tag, comment, reference or element), and the parser's positions within the page,
    /// which the check reads (``FragmentMarks``, `startOfLastTag`), are those of the page's own
    /// bytes. A failed check is redone on the page's own bytes anyway, for the findings.
    static let tail = [UInt8](repeating: UInt8(ascii: " "), count: 256)

    /// Whether the page's bytes take ``tail``: those that start with `<` read as one byte, so in
    /// an encoding where a space is the byte 0x20 (not UTF-16 or UTF-32, nor after a byte-order
    /// mark, whose pages are checked as they are).
    static func takesTail(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && bytes[0] == UInt8(ascii: "<") && bytes[1] != 0
    }

    private static func passes(_ bytes: [UInt8], state: StreamState) -> Bool {
        _ = XMLDocument.libraryReady
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return false }
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        // The callbacks borrow the state (`passes` holds it for the whole parse) rather than take
        // a counted reference to it at every element's start and end.
        handler.startElementNs = { context, localName, _, uri, namespaceCount, namespaces, attributeCount, defaultedCount, attributes in
            guard let context else { return }
            Unmanaged<StreamState>.fromOpaque(context)._withUnsafeGuaranteedRef { state in
                let attributes = Attributes(base: attributes, count: Int(attributeCount))
                state.marks?.enter(localName, uri, namespaces: namespaces, count: Int(namespaceCount), holdsID: attributes.value("id") != nil || attributes.hasXMLID)
                state.start(localName, uri, attributes, defaulted: defaultedCount)
            }
        }
        handler.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<StreamState>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.end() }
        }
        if state.marks != nil {
            handler.processingInstruction = { context, target, data in
                guard let context else { return }
                Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue().instruction(target, data)
            }
        }
        handler.serror = { context, _ in
            guard let context else { return }
            Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue().clean = false
        }
        // Declarations in an internal subset change what the tree holds and can draw warnings
        // only the tree builder reports: leave such pages to the full validation.
        handler.entityDecl = { context, _, _, _, _, _ in doubt(context) }
        handler.elementDecl = { context, _, _, _ in doubt(context) }
        handler.attributeDecl = { context, _, _, _, _, _, _ in doubt(context) }
        handler.notationDecl = { context, _, _, _ in doubt(context) }
        handler.unparsedEntityDecl = { context, _, _, _, _ in doubt(context) }
        let wellFormed: Bool = withExtendedLifetime(state) {
            withUnsafeMutablePointer(to: &handler) { handler in
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { chars in
                        guard let parser = ThreadParser.take() else { return false }
                        let ownHandler = parser.pointee.sax
                        defer {
                            parser.pointee.sax = ownHandler
                            if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
                            parser.pointee.myDoc = nil
                            ThreadParser.give(parser)
                        }
                        // The page's bytes as the parser's one input, as xmlCreateMemoryParserCtxt makes it,
                        // and white space after them (``tail``).
                        guard let input = xmlParserInputBufferCreateMem(chars.baseAddress, Int32(chars.count), XML_CHAR_ENCODING_NONE) else { return false }
                        if Self.takesTail(buffer) {
                            let added = Self.tail.withUnsafeBufferPointer { tail in
                                tail.withMemoryRebound(to: CChar.self) { xmlParserInputBufferPush(input, Int32($0.count), $0.baseAddress) }
                            }
                            guard added >= 0 else {
                                xmlFreeParserInputBuffer(input)
                                return false
                            }
                        }
                        guard let stream = xmlNewIOInputStream(parser, input, XML_CHAR_ENCODING_NONE) else {
                            xmlFreeParserInputBuffer(input)
                            return false
                        }
                        inputPush(parser, stream)
                        parser.pointee.sax = handler
                        parser.pointee.userData = Unmanaged.passUnretained(state).toOpaque()
                        state.source = buffer
                        state.parser = parser
                        defer { state.parser = nil; state.source = nil }
                        xmlCtxtUseOptions(parser, XMLDocument.options)
                        xmlParseDocument(parser)
                        return parser.pointee.wellFormed != 0
                    }
                }
            }
        }
        return wellFormed && state.finish()
    }
}

/// Marks the check as unsure (the page goes to the full validation).
private func doubt(_ context: UnsafeMutableRawPointer?) {
    guard let context else { return }
    Unmanaged<StreamState>.fromOpaque(context).takeUnretainedValue().clean = false
}

/// The attributes SAX2 hands to a start tag: five pointers each (local name, prefix, namespace,
/// value start, value end); values are not NUL-terminated.
private struct Attributes {
    let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the attribute `name` in `namespace` (none: no namespace), as UTF-8 bytes.
    func value(_ name: StaticString, namespace: StaticString? = nil) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for index in 0..<count {
            let field = base + index * 5
            guard matches(field[0], name) else { continue }
            if let namespace {
                guard matches(field[2], namespace) else { continue }
            } else if field[2] != nil {
                continue
            }
            guard let start = field[3], let end = field[4] else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    /// Calls `body` with each attribute's local name and namespace URI (`nil`: none).
    func forEachName(_ body: (_ name: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?) -> Void) {
        guard let base else { return }
        for index in 0..<count {
            guard let name = base[index * 5] else { continue }
            body(name, base[index * 5 + 2])
        }
    }

    /// Whether any attribute's local name has an ASCII capital.
    var anyNameHasCapital: Bool {
        guard let base else { return false }
        for index in 0..<count {
            if let name = base[index * 5], NameCase.hasCapital(name) { return true }
        }
        return false
    }

    /// Whether any attribute is `xml:id`, which the tree builder checks and this check does not.
    var hasXMLID: Bool {
        guard let base else { return false }
        for index in 0..<count where matches(base[index * 5], "id") && matches(base[index * 5 + 1], "xml") { return true }
        return false
    }
}

/// What the walk has seen so far, in the shape of `MarkupChecker`'s rules.
private final class StreamState {
    private static let xhtmlNamespace: StaticString = "http://www.w3.org/1999/xhtml"
    private static let xlinkNamespace: StaticString = "http://www.w3.org/1999/xlink"

    let resolver: ReferenceResolver
    /// False as soon as anything is (or might be) wrong.
    var clean = true
    /// The page's bytes and the parser reading them, while it does: for looking through the
    /// content of a `script` or `style` for references (`RawTextEntities`).
    var source: UnsafeBufferPointer<UInt8>?
    var parser: xmlParserCtxtPtr?
    private var depth = 0
    /// For each open element, what its children are inside (as `MarkupChecker.Scope`).
    private var scopes: [MarkupChecker.Scope] = []
    private var rootIsPage = false
    private var headSeen = false
    private var inFirstHead = false
    private var headHasTitle = false
    private var bodySeen = false
    private var ids: Set<String> = []
    private var fragments: [String] = []

    /// The markers of a check with fragments left out (see `FragmentChecks`).
    var marks: FragmentMarks?

    init(resolver: ReferenceResolver) {
        self.resolver = resolver
        scopes.reserveCapacity(32)
    }

    func start(_ name: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ attributes: Attributes, defaulted: Int32) {
        defer { depth += 1 }
        guard clean else { return }
        if defaulted != 0 || attributes.hasXMLID { clean = false; return }
        let scope = scopes.last ?? MarkupChecker.Scope()
        let tile = scope.insideTile
        guard let name, spelledAsBrowsersSpell(name, uri, attributes, scope.names) else { clean = false; return }
        switch depth {
        case 0:
            rootIsPage = matches(name, "html") && matches(uri, Self.xhtmlNamespace) && attributes.value("lang") != nil
        case 1:
            if matches(name, "head"), !headSeen { headSeen = true; inFirstHead = true }
            if matches(name, "body") { bodySeen = true }
        case 2:
            if inFirstHead, matches(name, "title") { headHasTitle = true }
        default:
            break
        }
        if let id = attributes.value("id") {
            guard !id.contains(ampersand), ids.insert(String(decoding: id, as: UTF8.self)).inserted else { clean = false; return }
        }
        let tileImage = tile || hasClass(attributes, "tile-image")
        if matches(name, "img") {
            if attributes.value("alt") == nil { clean = false }
            if tileImage { checkSize(attributes) }
            check(attributes.value("src"))
            checkSourceSet(attributes.value("srcset"))
        } else if matches(name, "a") || matches(name, "image") || matches(name, "use") {
            if matches(name, "image"), tileImage { checkSize(attributes) }
            check(attributes.value("href"))
            check(attributes.value("href", namespace: Self.xlinkNamespace))
        } else if matches(name, "base"), matches(uri, Self.xhtmlNamespace), attributes.value("href") != nil {
            // Every relative reference after it resolves elsewhere: the tree check says so.
            clean = false
        } else if matches(name, "link") {
            check(attributes.value("href"))
        } else if matches(name, "script") {
            check(attributes.value("src"))
            if matches(uri, Self.xhtmlNamespace), rawTextHoldsReferences() { clean = false }
        } else if matches(name, "style") {
            if matches(uri, Self.xhtmlNamespace) {
                if rawTextHoldsReferences() { clean = false }
                checkStyleElement()
            }
        } else if matches(name, "source") {
            check(attributes.value("src"))
            checkSourceSet(attributes.value("srcset"))
        } else {
            for attribute in MarkupChecker.referenceAttributes(of: name) { check(attributes.value(attribute)) }
        }
        if let style = attributes.value("style"), StylesheetURLs.mayHoldURLs(style) {
            if style.contains(ampersand) { clean = false } else { checkStylesheet(style) }
        }
        for attribute in MarkupChecker.scriptOnlyAttributes(of: name) {
            // An entity (`&#106;avascript:`) is read by the tree check, which decodes it.
            if let value = attributes.value(attribute), value.contains(ampersand) || ReferenceResolver.namesScript(value, list: "\(attribute)" == "values") { clean = false }
        }
        let names = NameCase.inherited(byChildrenOf: name, in: uri, inherited: scope.names)
        scopes.append(MarkupChecker.Scope(insideTile: tile || hasClass(attributes, "tile"), names: names))
    }

    /// Whether the content of the `script` or `style` whose start tag the parser has just read
    /// holds a reference a browser would not decode (true when unsure).
    ///
    /// Unsure also when the content holds a comment, an instruction or an element, which may
    /// hide or end early what a scan of the bytes takes for the content (`<!-- </style> -->`):
    /// the tree, which holds the element's real text, decides (see `RawTextEntities.text`).
    private func rawTextHoldsReferences() -> Bool {
        guard let source, let start = startOfLastTag(), RawTextEntities.text(in: source, elementAt: start) != nil else { return true }
        return !RawTextEntities.references(in: source, elementAt: start).isEmpty
    }

    /// The offset of the `<` of the start tag the parser has just read: the last `<` before
    /// where it stands (attribute values hold none).
    private func startOfLastTag() -> Int? {
        guard let source, let parser else { return nil }
        var start = min(Int(xmlByteConsumed(parser)), source.count) - 1
        while start >= 0, source[start] != UInt8(ascii: "<") { start -= 1 }
        return start >= 0 ? start : nil
    }

    /// Checks the URLs in the content of the `style` element whose start tag the parser has just
    /// read (see ``rawTextHoldsReferences()``).
    private func checkStyleElement() {
        guard let source, let start = startOfLastTag(), let text = RawTextEntities.text(in: source, elementAt: start) else { clean = false; return }
        text.withUnsafeBufferPointer { checkStylesheet($0) }
    }

    private func checkStylesheet(_ css: UnsafeBufferPointer<UInt8>) {
        guard StylesheetURLs.mayHoldURLs(css) else { return }
        StylesheetURLs.forEach(in: css) { url, _ in
            url.withUnsafeBufferPointer { accept(resolve($0)) }
        }
    }

    func end() {
        depth -= 1
        marks?.leave(depth: depth)
        if depth == 1 { inFirstHead = false }
        if !scopes.isEmpty { scopes.removeLast() }
    }

    /// The verdict once the parse is over: the skeleton is whole and every fragment names an id.
    func finish() -> Bool {
        clean && marks?.isComplete != false && rootIsPage && headSeen && headHasTitle && bodySeen && fragments.allSatisfy { ids.contains($0) }
    }

    /// Whether the names of the element and its attributes are spelt as a browser reading HTML
    /// spells them, by `MarkupChecker`'s rule.
    private func spelledAsBrowsersSpell(_ name: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?, _ attributes: Attributes, _ inherited: NameCase) -> Bool {
        guard NameCase.hasCapital(name) || attributes.anyNameHasCapital, let rules = NameCase.rules(forElement: name, in: uri, inherited: inherited) else { return true }
        var right = rules.correctedElement(name) == nil
        attributes.forEachName { attribute, uri in right = right && rules.correctedAttribute(attribute, in: uri) == nil }
        return right
    }

    private func checkSize(_ attributes: Attributes) {
        if attributes.value("width") == nil || attributes.value("height") == nil { clean = false }
    }

    private func check(_ reference: UnsafeBufferPointer<UInt8>?) {
        guard let reference else { return }
        guard !reference.contains(ampersand) else { clean = false; return }
        accept(resolve(reference))
    }

    private func checkSourceSet(_ srcset: UnsafeBufferPointer<UInt8>?) {
        guard let srcset else { return }
        guard !srcset.contains(ampersand) else { clean = false; return }
        ReferenceResolver.forEachSourceSetURL(srcset) { accept(resolve($0)) }
    }

    /// Resolves a reference, noting it for the fragment being read, if any.
    private func resolve(_ reference: UnsafeBufferPointer<UInt8>) -> ReferenceResolver.Outcome {
        marks?.read(reference)
        return resolver.resolve(reference, naming: false)
    }

    /// A processing instruction, perhaps a marker (see `FragmentMarks`).
    func instruction(_ target: UnsafePointer<xmlChar>?, _ data: UnsafePointer<xmlChar>?) {
        guard clean, let parser else { return }
        let place = FragmentMarks.Place(
            depth: depth, scope: scopes.last ?? MarkupChecker.Scope(),
            readsBytesAsTheyAre: parser.pointee.input?.pointee.buf.map { $0.pointee.encoder == nil } ?? false
        )
        if marks?.instruction(target, data, endingAt: Int(xmlByteConsumed(parser)), at: place) == false { clean = false }
    }

    private func accept(_ outcome: ReferenceResolver.Outcome) {
        switch outcome {
        case .found, .external, .sameFile: break
        case .fragment(let id): fragments.append(id)
        case .missing, .escapesRoot, .outsideBasePath, .malformed, .emptySegment, .script: clean = false
        }
    }

    private func hasClass(_ attributes: Attributes, _ token: StaticString) -> Bool {
        guard let value = attributes.value("class") else { return false }
        if value.contains(ampersand) { clean = false }
        return classList(value, contains: token)
    }
}

private let ampersand = UInt8(ascii: "&")
