/// Checks a parsed page or SVG in one pre-order walk: unique ids, `alt` on images, sizes on tile
/// images, references that must resolve to output files or to ids of the same file, and, in a
/// page, names spelt as a browser reading HTML spells them (see `NameCase`).
///
/// Element names and attributes are compared as bytes (see `XMLDocument.Element`), so the walk
/// allocates strings only for ids and references.
struct MarkupChecker {
    /// Which rules apply.
    enum Dialect {
        /// An XHTML5 polyglot page: `img` needs `alt`; tile images (inside a `tile`, or with class
        /// `tile-image`) need `width` and `height`.
        case xhtml
        /// A standalone SVG: every `image` is a tile and needs `width` and `height`.
        case svg
    }

    private static let xhtmlNamespace: StaticString = "http://www.w3.org/1999/xhtml"
    private static let xlinkNamespace: StaticString = "http://www.w3.org/1999/xlink"

    /// The attributes that name a file the page loads or leads to, of the elements other than
    /// `img`, `a`, `link`, `script` and `source` (checked on their own): media and their posters
    /// and captions, frames, embedded objects, image inputs and image maps. Decided by the first
    /// letter, as nearly every element of a page has none. A form's `action` is not among them:
    /// it names a server's endpoint (`/subscribe`, `/cgi-bin/cart.pl`), never a file of the
    /// output, and a label's newsletter form failed the build.
    static func referenceAttributes(of name: UnsafePointer<UInt8>) -> [StaticString] {
        switch name[0] {
        case UInt8(ascii: "a"): return matches(name, "audio") ? ["src"] : matches(name, "area") ? ["href"] : []
        case UInt8(ascii: "e"): return matches(name, "embed") ? ["src"] : []
        case UInt8(ascii: "i"): return matches(name, "iframe") || matches(name, "input") ? ["src"] : []
        case UInt8(ascii: "o"): return matches(name, "object") ? ["data"] : []
        case UInt8(ascii: "t"): return matches(name, "track") ? ["src"] : []
        case UInt8(ascii: "v"): return matches(name, "video") ? ["src", "poster"] : []
        default: return []
        }
    }

    /// The attributes a browser goes to as URLs but that name no file of the output, so only
    /// script is refused there (`javascript:` in a "buy" form an album's value fills): a form's
    /// `action`, a button's or input's `formaction`, and the values an SVG animation sets (an
    /// `<animate attributeName="href" to="javascript:…">`).
    static func scriptOnlyAttributes(of name: UnsafePointer<UInt8>) -> [StaticString] {
        switch name[0] {
        case UInt8(ascii: "f"): return matches(name, "form") ? ["action"] : []
        case UInt8(ascii: "b"): return matches(name, "button") ? ["formaction"] : []
        case UInt8(ascii: "i"): return matches(name, "input") ? ["formaction"] : []
        case UInt8(ascii: "a"): return matches(name, "animate") ? ["to", "from", "values"] : []
        case UInt8(ascii: "s"): return matches(name, "set") ? ["to"] : []
        default: return []
        }
    }

    private let dialect: Dialect
    private let resolver: ReferenceResolver
    /// What the checks found so far.
    private(set) var findings: Findings
    private var ordinal = 0
    private var ids: [String: Findings.Located] = [:]
    private var fragments: [(id: String, reference: String, location: Findings.Located)] = []

    /// A checker that adds to `findings`, resolving references with `resolver`.
    init(dialect: Dialect, resolver: ReferenceResolver, findings: Findings) {
        self.dialect = dialect
        self.resolver = resolver
        self.findings = findings
    }

    /// Checks that an XHTML page has the skeleton every page needs: `html` in the XHTML namespace
    /// with `lang`, a `head` with a `title`, and a `body`.
    mutating func checkPageStructure(_ root: XMLDocument.Element) {
        let here = Findings.Located(element: root, ordinal: 0)
        guard root.isNamed("html") else {
            findings.error("the root element is <\(root.qualifiedName)>; a page starts with <html>", at: here)
            return
        }
        if !root.isInNamespace(Self.xhtmlNamespace) {
            findings.error("<html> is not in the XHTML namespace (add xmlns=\"http://www.w3.org/1999/xhtml\")", at: here)
        }
        if !root.hasAttribute("lang") {
            findings.error("<html> has no lang attribute (the page's language, such as lang=\"en\")", at: here)
        }
        if let head = root.children.first(where: { $0.isNamed("head") }) {
            if !head.children.contains(where: { $0.isNamed("title") }) {
                findings.error("<head> has no <title>", at: Findings.Located(element: head))
            }
        } else {
            findings.error("<html> has no <head>", at: here)
        }
        if !root.children.contains(where: { $0.isNamed("body") }) {
            findings.error("<html> has no <body>", at: here)
        }
    }

    /// Runs the element checks on the whole tree under `root`, then the same-file fragment links.
    mutating func checkElements(from root: XMLDocument.Element) {
        walk(root, in: Scope())
        checkFragments()
    }

    /// Reports links to ids of this file that no element has; call once every element is checked.
    mutating func checkFragments() {
        for fragment in fragments where ids[fragment.id] == nil {
            findings.error("link to '\(fragment.reference)' names no element of this page (no id '\(fragment.id)')", at: fragment.location)
        }
    }

    /// What an element hands down to its children.
    struct Scope {
        /// Whether they are inside a tile.
        var insideTile = false
        /// The spelling rules of their names, when they are in the XHTML namespace (see `NameCase`).
        var names = NameCase.html
    }

    private mutating func walk(_ element: XMLDocument.Element, in scope: Scope) {
        let inner = check(element, in: scope)
        for child in element.children { walk(child, in: inner) }
    }

    /// Checks one element, not its children, in document order (elements are numbered as they
    /// come); returns what its children are inside.
    mutating func check(_ element: XMLDocument.Element, in scope: Scope) -> Scope {
        let here = Findings.Located(element: element, ordinal: ordinal)
        ordinal += 1
        let insideTile = scope.insideTile
        var inner = scope
        if dialect == .xhtml {
            checkNameCase(element, scope.names, here)
            inner.names = NameCase.inherited(byChildrenOf: element.localName, in: element.namespaceURI, inherited: scope.names)
        }
        if let id = element.attribute("id") {
            if let first = ids[id] {
                findings.error("duplicate id '\(id)'", at: here, firstUse: first)
            } else {
                ids[id] = here
            }
        }
        if element.isNamed("img") {
            if dialect == .xhtml, !element.hasAttribute("alt") {
                findings.error("<img> has no alt attribute (describe the image, or use alt=\"\" if it is decorative)", at: here)
            }
            if insideTile || element.hasClass("tile-image") { checkTileSize(element, here) }
            checkReference(element, "src", here)
            checkSourceSet(element, here)
        } else if element.isNamed("a") || element.isNamed("image") || element.isNamed("use") {
            if element.isNamed("image"), dialect == .svg || insideTile || element.hasClass("tile-image") {
                checkTileSize(element, here)
            }
            checkReference(element, "href", here)
            checkReference(element, "href", namespace: Self.xlinkNamespace, here)
        } else if element.isNamed("base"), dialect == .xhtml, element.isInNamespace(Self.xhtmlNamespace), element.hasAttribute("href") {
            // Not naming the address: `{{root}}` gives each folder depth its own, and one
            // template line is one finding.
            findings.error("<base href> makes a browser resolve every relative link and image of the page against its address, not the page's own, and gallery's link check follows the page's; remove it (gallery's links are relative to each page, or follow base_url in gallery.toml); a <base> with only a target is fine", at: here)
        } else if element.isNamed("link") {
            checkReference(element, "href", here)
        } else if element.isNamed("script") {
            checkReference(element, "src", here)
            if dialect == .xhtml, element.isInNamespace(Self.xhtmlNamespace) { findings.rawTextContent(of: "script", at: here) }
        } else if element.isNamed("style") {
            if dialect == .xhtml, element.isInNamespace(Self.xhtmlNamespace) {
                findings.rawTextContent(of: "style", at: here)
                checkStylesheet(element.text, in: "<style>", here)
            }
        } else if element.isNamed("source") {
            checkReference(element, "src", here)
            checkSourceSet(element, here)
        } else {
            for attribute in Self.referenceAttributes(of: element.localName) { checkReference(element, attribute, here) }
        }
        if dialect == .xhtml, let style = element.withAttribute("style", { Array($0) }) {
            checkStylesheet(style, in: "the style attribute", here)
        }
        for attribute in Self.scriptOnlyAttributes(of: element.localName) {
            if element.withAttribute(attribute, { ReferenceResolver.namesScript($0, list: "\(attribute)" == "values") }) == true {
                let value = element.attribute(attribute) ?? ""
                report(.script, subject: "<\(String(cString: element.localName)) \(attribute)='\(value)'>", reference: value, here)
            }
        }
        inner.insideTile = insideTile || element.hasClass("tile")
        return inner
    }

    /// Checks the URLs of an inline style sheet (a `<style>`'s, a `style` attribute's), which are
    /// relative to the page.
    private mutating func checkStylesheet(_ css: [UInt8], in place: String, _ here: Findings.Located) {
        let found = css.withUnsafeBufferPointer { StylesheetURLs.mayHoldURLs($0) ? StylesheetURLs.all(in: $0) : [] }
        for (url, _) in found {
            let reference = String(decoding: url, as: UTF8.self)
            let outcome = url.withUnsafeBufferPointer { resolver.resolve($0, naming: false) }
            report(outcome, subject: "url('\(reference)') in \(place)", reference: reference, here)
        }
    }

    /// Faults names that a browser, reading the page as HTML, spells otherwise (see `NameCase`):
    /// the element it sees is then not the one the checks saw. One finding per element names
    /// every name at fault (`element <A HREF> must be written in lowercase in XHTML: <a href>`).
    private mutating func checkNameCase(_ element: XMLDocument.Element, _ inherited: NameCase, _ here: Findings.Located) {
        let name = element.localName
        var capital = NameCase.hasCapital(name)
        element.forEachAttribute { attribute, _, _ in capital = capital || NameCase.hasCapital(attribute) }
        guard capital, let rules = NameCase.rules(forElement: name, in: element.namespaceURI, inherited: inherited) else { return }
        var attributes: [(written: String, right: String)] = []
        element.forEachAttribute { attribute, uri, prefix in
            guard let right = rules.correctedAttribute(attribute, in: uri) else { return }
            let qualified = prefix.map { String(cString: $0) + ":" } ?? ""
            attributes.append((qualified + String(cString: attribute), qualified + right))
        }
        let written = element.qualifiedName
        if let right = rules.correctedElement(name) {
            let prefix = written.dropLast(String(cString: name).count)
            let tag = ([written] + attributes.map(\.written)).joined(separator: " ")
            let fixed = ([prefix + right] + attributes.map(\.right)).joined(separator: " ")
            findings.error("element <\(tag)> must be written \(rules.rule): <\(fixed)>", at: here)
        } else if !attributes.isEmpty {
            let noun = attributes.count == 1 ? "attribute" : "attributes"
            let names = attributes.map(\.written).joined(separator: ", ")
            let fixed = attributes.map(\.right).joined(separator: ", ")
            findings.error("\(noun) \(names) of <\(written)> must be written \(rules.rule): \(fixed)", at: here)
        }
    }

    private mutating func checkTileSize(_ element: XMLDocument.Element, _ here: Findings.Located) {
        let why = "(tiles need width and height so the strip keeps its layout while covers load)"
        if !element.hasAttribute("width") { findings.error("tile image has no width attribute \(why)", at: here) }
        if !element.hasAttribute("height") { findings.error("tile image has no height attribute \(why)", at: here) }
    }

    private mutating func checkReference(
        _ element: XMLDocument.Element, _ name: StaticString, namespace: StaticString? = nil, _ here: Findings.Located
    ) {
        let resolver = resolver
        switch element.withAttribute(name, namespace: namespace, { resolver.resolve($0, naming: false) }) {
        case nil, .found?, .external?, .sameFile?:
            return
        case let outcome?:
            report(outcome, of: element.attribute(name, namespace: namespace) ?? "", here)
        }
    }

    private mutating func checkSourceSet(_ element: XMLDocument.Element, _ here: Findings.Located) {
        let resolver = resolver
        var problems: [(reference: String, outcome: ReferenceResolver.Outcome)] = []
        element.withAttribute("srcset") { srcset in
            ReferenceResolver.forEachSourceSetURL(srcset) { url in
                switch resolver.resolve(url, naming: false) {
                case .found, .external, .sameFile:
                    return
                case let outcome:
                    problems.append((String(decoding: url, as: UTF8.self), outcome))
                }
            }
        }
        for problem in problems { report(problem.outcome, of: problem.reference, here) }
    }

    private mutating func report(_ outcome: ReferenceResolver.Outcome, of reference: String, _ here: Findings.Located) {
        report(outcome, subject: "link to '\(reference)'", reference: reference, here)
    }

    private mutating func report(_ outcome: ReferenceResolver.Outcome, subject: String, reference: String, _ here: Findings.Located) {
        if case .fragment(let id) = outcome {
            fragments.append((id, reference, here))
        } else if let problem = outcome.problem(subject: subject, reference: reference, basePath: resolver.basePath) {
            findings.error(problem, at: here)
        }
    }
}
