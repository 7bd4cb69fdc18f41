internal import CLibXML2
import Foundation

/// A document parsed by libxml2 in XML mode, owned by Swift: the tree is freed in `deinit`.
///
/// This file, `XHTMLStreamCheck` (a tree-less pass over valid pages) and `XMLStreamCheck` (a
/// streaming pass over the SVG strip and the sitemap) are the only places that call libxml2.
/// Parsing never touches the network, loads no DTD, substitutes no entities and prints nothing;
/// libxml2's structured errors come back as `Issue`s with its line and column. `parse` may run on
/// many threads at once: libxml2 2.9 keeps the structured error handler per thread, and it is
/// installed only around the synchronous parse and restored after it. A document itself belongs
/// to the task that parsed it (libxml2 does not promise concurrent reads of one tree), so it is
/// deliberately not `Sendable`.
final class XMLDocument {
    /// One problem libxml2 reported, while parsing or validating.
    struct Issue: Hashable {
        /// `.warning` or `.error` (libxml2's fatal errors are errors).
        var severity: Diagnostic.Severity
        /// The 1-based line, or 0 when libxml2 did not know it.
        var line: Int
        /// The 1-based column (libxml2's `int2`), or 0 when unknown.
        var column: Int
        /// libxml2's message, without its trailing newline.
        var message: String
        /// The node the problem is about (validity errors only), to locate it exactly.
        var node: UnsafeMutableRawPointer?
        /// Whether libxml2 called it fatal: the bytes are not well-formed XML.
        var isFatal = false
        /// Whether it is an undefined entity (`&nbsp;`), which libxml2 skips without losing its place.
        var isUndefinedEntity = false
    }

    /// What `parse` produced: the tree when the bytes are well-formed, and everything reported.
    struct Parsed {
        /// The tree; `nil` when libxml2 found a fatal error.
        var document: XMLDocument?
        /// The errors and warnings in the order libxml2 reported them, up to the first fatal
        /// error (see `untilFirstFatal`).
        var issues: [Issue]
    }

    /// No network, no DTD loading, no entity substitution, nothing on stderr; compact text nodes.
    /// `XHTMLStreamCheck` parses with the same options, so both see the same document.
    static let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
        | XML_PARSE_NOWARNING.rawValue | XML_PARSE_COMPACT.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// `xmlInitParser` must run once before any thread parses; Swift runs this lazily, exactly once.
    static let libraryReady: Void = xmlInitParser()

    /// The version of the libxml2 in use (such as 2.9.14), as it reports itself.
    static var libraryVersion: String {
        _ = libraryReady
        guard let text = __xmlParserVersion()?.pointee, let number = Int(String(cString: text)) else { return "unknown" }
        return RuntimeFacts.dotted(number)
    }

    private let pointer: xmlDocPtr

    private init(pointer: xmlDocPtr) {
        self.pointer = pointer
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    /// Parses `bytes` as XML (UTF-8 unless the document declares otherwise).
    static func parse(_ bytes: [UInt8]) -> Parsed {
        _ = libraryReady
        guard !bytes.isEmpty else {
            return Parsed(document: nil, issues: [Issue(severity: .error, line: 1, column: 1, message: "Document is empty")])
        }
        guard bytes.count <= Int(Int32.max) else {
            return Parsed(document: nil, issues: [Issue(severity: .error, line: 0, column: 0, message: "file is too large to parse")])
        }
        let collector = IssueCollector()
        let tree = collector.collecting {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    xmlReadMemory(chars.baseAddress, Int32(chars.count), nil, nil, options)
                }
            }
        }
        var issues = untilFirstFatal(collector.issues)
        if tree == nil, !issues.contains(where: { $0.severity == .error }) {
            issues.append(Issue(severity: .error, line: 0, column: 0, message: "not well-formed XML"))
        }
        return Parsed(document: tree.map(XMLDocument.init(pointer:)), issues: issues)
    }

    /// The issues worth reporting: those up to libxml2's first fatal error, not counting
    /// undefined entities.
    ///
    /// After a fatal error libxml2 reads on only to report more, from wherever the mistake left
    /// it: one `<br>` left open makes every later end tag a mismatch, each blamed on another
    /// line. An undefined entity is different: libxml2 skips it and reads on from the right
    /// place, so a template with several `&nbsp;` has them all reported in one run.
    static func untilFirstFatal(_ issues: [Issue]) -> [Issue] {
        guard let derailing = issues.firstIndex(where: { $0.isFatal && !$0.isUndefinedEntity }) else { return issues }
        return Array(issues[...derailing])
    }

    /// The character HTML's named entity `name` stands for (`nbsp`: U+00A0), from libxml2's
    /// table of HTML 4's entities; `nil` for a name it does not know.
    static func htmlEntity(named name: String) -> Unicode.Scalar? {
        guard let entity = htmlEntityLookup(name) else { return nil }
        return Unicode.Scalar(entity.pointee.value)
    }

    /// The root element, if the document has one.
    var root: Element? {
        xmlDocGetRootElement(pointer).map { Element(node: $0) }
    }

    /// The element a validity issue is about: the node itself, or the element holding it.
    func element(containing node: UnsafeMutableRawPointer) -> Element? {
        var current: xmlNodePtr? = node.assumingMemoryBound(to: xmlNode.self)
        while let candidate = current, candidate.pointee.type != XML_ELEMENT_NODE {
            guard candidate.pointee.type == XML_ATTRIBUTE_NODE || candidate.pointee.type == XML_TEXT_NODE
                || candidate.pointee.type == XML_CDATA_SECTION_NODE else { return nil }
            current = candidate.pointee.parent
        }
        return current.map { Element(node: $0) }
    }

    /// Validates the tree against `schema` and returns the schema's complaints (none when valid).
    func validate(against schema: RelaxNGSchema) -> [Issue] {
        schema.validate(pointer)
    }
}

/// A compiled RelaxNG schema (XML syntax), shared by every validation; freed in `deinit`.
///
/// Each validation gets its own `xmlRelaxNGValidCtxt`, and validations are serialised by a lock:
/// libxml2 documents no guarantee that one compiled schema may be used by several threads at once,
/// and a site has one carousel, so the lock costs nothing measurable.
final class RelaxNGSchema: @unchecked Sendable {
    /// Why a schema did not compile, with libxml2's messages.
    struct CompileError: Error, CustomStringConvertible {
        /// libxml2's messages, each with its line in the schema text when known.
        var messages: [String]

        var description: String { messages.joined(separator: "; ") }
    }

    private let pointer: xmlRelaxNGPtr
    private let lock = NSLock()

    /// Compiles the schema `text`.
    init(text: String) throws(CompileError) {
        _ = XMLDocument.libraryReady
        let collector = IssueCollector()
        let compiled: xmlRelaxNGPtr? = collector.collecting {
            text.utf8CString.withUnsafeBufferPointer { buffer in
                guard let parser = xmlRelaxNGNewMemParserCtxt(buffer.baseAddress, Int32(buffer.count - 1)) else { return nil }
                defer { xmlRelaxNGFreeParserCtxt(parser) }
                xmlRelaxNGSetParserStructuredErrors(parser, collectIssue, collector.context)
                return xmlRelaxNGParse(parser)
            }
        }
        guard let compiled, collector.issues.allSatisfy({ $0.severity != .error }) else {
            if let compiled { xmlRelaxNGFree(compiled) }
            let messages = collector.issues.map { $0.line > 0 ? "line \($0.line): \($0.message)" : $0.message }
            throw CompileError(messages: messages.isEmpty ? ["the schema did not compile"] : messages)
        }
        pointer = compiled
    }

    deinit {
        xmlRelaxNGFree(pointer)
    }

    /// Runs `body` with the compiled schema, one use at a time (see the type's note).
    func withSchema<Result>(_ body: (xmlRelaxNGPtr) -> Result) -> Result {
        lock.withLock { body(pointer) }
    }

    /// Validates `document`, one validation at a time, each with its own validation context.
    fileprivate func validate(_ document: xmlDocPtr) -> [XMLDocument.Issue] {
        lock.withLock { validateLocked(document) }
    }

    private func validateLocked(_ document: xmlDocPtr) -> [XMLDocument.Issue] {
        let collector = IssueCollector()
        guard let context = xmlRelaxNGNewValidCtxt(pointer) else {
            return [XMLDocument.Issue(severity: .error, line: 0, column: 0, message: "could not start RelaxNG validation")]
        }
        defer { xmlRelaxNGFreeValidCtxt(context) }
        xmlRelaxNGSetValidStructuredErrors(context, collectIssue, collector.context)
        let result = collector.collecting { xmlRelaxNGValidateDoc(context, document) }
        var issues = collector.issues
        if result != 0, !issues.contains(where: { $0.severity == .error }) {
            issues.append(XMLDocument.Issue(severity: .error, line: 0, column: 0, message: "the document does not match the schema"))
        }
        return issues
    }
}

extension XMLDocument {
    /// An element of a parsed document; only valid while that document is alive.
    ///
    /// Names and attributes are compared against `StaticString`s byte by byte, so walking a page
    /// allocates no Swift strings except for the attribute values a check really needs.
    struct Element {
        /// The node, owned by the document (or by a streaming reader, while it is on the node).
        fileprivate let node: xmlNodePtr

        /// The element a streaming reader (`XMLStreamCheck`) is on; valid until it moves on.
        init(streamed node: xmlNodePtr) {
            self.node = node
        }

        fileprivate init(node: xmlNodePtr) {
            self.node = node
        }

        /// The node's address, to match the node named in a validity `Issue`.
        var identity: UnsafeMutableRawPointer { UnsafeMutableRawPointer(node) }

        /// The line libxml2 recorded: where the start tag ends (its `>`), not where it begins.
        var line: Int { xmlGetLineNo(node) }

        /// The name as written in the source, with its prefix (`svg:image`), for messages.
        var qualifiedName: String {
            let local = String(cString: node.pointee.name)
            guard let prefix = node.pointee.ns?.pointee.prefix else { return local }
            return String(cString: prefix) + ":" + local
        }

        /// The child elements, in document order.
        var children: Children { Children(cursor: node.pointee.children) }

        /// The local name as written, NUL-terminated, owned by the document.
        var localName: UnsafePointer<UInt8> { node.pointee.name }

        /// The namespace URI, NUL-terminated, or `nil` for none.
        var namespaceURI: UnsafePointer<UInt8>? { node.pointee.ns?.pointee.href }

        /// Calls `body` with each attribute's local name, namespace URI (`nil`: none) and prefix,
        /// in document order; namespace declarations are not attributes.
        func forEachAttribute(_ body: (_ name: UnsafePointer<UInt8>, _ uri: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?) -> Void) {
            var attribute = node.pointee.properties
            while let current = attribute {
                body(current.pointee.name, current.pointee.ns?.pointee.href, current.pointee.ns?.pointee.prefix)
                attribute = current.pointee.next
            }
        }

        /// Whether the local name is `name`.
        func isNamed(_ name: StaticString) -> Bool {
            matches(node.pointee.name, name)
        }

        /// Whether the element is in the namespace `uri`.
        func isInNamespace(_ uri: StaticString) -> Bool {
            matches(node.pointee.ns?.pointee.href, uri)
        }

        /// Whether the attribute is present (with no namespace, unless `namespace` is given).
        func hasAttribute(_ name: StaticString, namespace: StaticString? = nil) -> Bool {
            attributeNode(name, namespace: namespace) != nil
        }

        /// The attribute's value, or `nil` when it is absent.
        func attribute(_ name: StaticString, namespace: StaticString? = nil) -> String? {
            withAttribute(name, namespace: namespace) { String(decoding: $0, as: UTF8.self) }
        }

        /// Calls `body` with the attribute value's UTF-8 bytes, without copying when libxml2 holds
        /// them in one piece; `nil` when the attribute is absent.
        func withAttribute<Result>(
            _ name: StaticString, namespace: StaticString? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Result
        ) -> Result? {
            guard let attribute = attributeNode(name, namespace: namespace) else { return nil }
            if let text = attribute.pointee.children, text.pointee.next == nil, let content = text.pointee.content {
                return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
            }
            return Self.content(from: attribute.pointee.children) { _ in true }.withUnsafeBufferPointer(body)
        }

        /// The element's own text: its text and CDATA children, joined (a `<style>`'s style sheet).
        var text: [UInt8] {
            Self.content(from: node.pointee.children) { $0 == XML_TEXT_NODE || $0 == XML_CDATA_SECTION_NODE }
        }

        /// The content of `first` and its following siblings whose type `includes`, joined.
        private static func content(from first: xmlNodePtr?, includes: (xmlElementType) -> Bool) -> [UInt8] {
            var bytes: [UInt8] = []
            var child = first
            while let part = child {
                if includes(part.pointee.type), let content = part.pointee.content {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                }
                child = part.pointee.next
            }
            return bytes
        }

        /// Whether the whitespace-separated `class` tokens include `token` exactly.
        func hasClass(_ token: StaticString) -> Bool {
            withAttribute("class") { classList($0, contains: token) } ?? false
        }

        private func attributeNode(_ name: StaticString, namespace: StaticString?) -> xmlAttrPtr? {
            var attribute = node.pointee.properties
            while let current = attribute {
                if matches(current.pointee.name, name) {
                    if let namespace {
                        if matches(current.pointee.ns?.pointee.href, namespace) { return current }
                    } else if current.pointee.ns == nil {
                        return current
                    }
                }
                attribute = current.pointee.next
            }
            return nil
        }
    }

    /// The child elements of one element, skipping text, comments and other nodes.
    struct Children: Sequence, IteratorProtocol {
        /// The next node to look at, owned by the document.
        fileprivate var cursor: xmlNodePtr?

        /// The next child element.
        mutating func next() -> Element? {
            while let node = cursor {
                cursor = node.pointee.next
                if node.pointee.type == XML_ELEMENT_NODE { return Element(node: node) }
            }
            return nil
        }
    }
}

/// Gathers libxml2's structured errors for one synchronous call on the current thread.
///
/// libxml2 calls back through a C function pointer with an opaque context: the collector passes
/// itself unretained, and stays alive for the whole call.
final class IssueCollector {
    /// What libxml2 reported so far.
    private(set) var issues: [XMLDocument.Issue] = []

    /// Runs `body` with this collector as the thread's structured error handler, then restores
    /// whatever handler was installed before.
    func collecting<Result>(_ body: () -> Result) -> Result {
        let previousHandler = __xmlStructuredError().pointee
        let previousContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(context, collectIssue)
        defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
        return withExtendedLifetime(self) { body() }
    }

    /// The pointer libxml2 hands back to `collectIssue`; valid while the collector is alive.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Keeps one of libxml2's errors (libxml2 frees its own copy after the callback).
    fileprivate func record(_ error: xmlError) {
        var message = error.message.map { String(cString: $0) } ?? "unknown libxml2 error \(error.code)"
        while message.last?.isWhitespace == true { message.removeLast() }
        let severity: Diagnostic.Severity = error.level == XML_ERR_WARNING ? .warning : .error
        issues.append(XMLDocument.Issue(
            severity: severity, line: Int(error.line), column: Int(error.int2), message: message, node: error.node,
            isFatal: error.level == XML_ERR_FATAL, isUndefinedEntity: error.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue)))
    }
}

/// libxml2's structured error callback; `context` is an unretained `IssueCollector`.
func collectIssue(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
    guard let context, let error else { return }
    Unmanaged<IssueCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
}
