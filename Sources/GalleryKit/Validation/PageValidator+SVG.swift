extension PageValidator {
    /// The key of the carousel schema among the resources embedded in the binary.
    static let carouselSchemaKey = "schemas/carousel-svg.rng"

    /// The carousel schema, compiled once on first use and shared by every validation.
    static let carouselSchema: Result<RelaxNGSchema, RelaxNGSchema.CompileError> = {
        guard case .text(let text)? = EmbeddedResources.files[carouselSchemaKey] else {
            return .failure(RelaxNGSchema.CompileError(messages: ["\(carouselSchemaKey) is not embedded in this build"]))
        }
        return Result { () throws(RelaxNGSchema.CompileError) in try RelaxNGSchema(text: text) }
    }()

    /// Validates gallery's carousel SVG.
    ///
    /// Checks that it is well-formed XML (stopping there on a fatal error), that it matches
    /// `schemas/carousel-svg.rng`, that ids are unique, that every `image` has `width` and
    /// `height`, and that every internal `href` (`image`, `a`, `use`; plain or `xlink:`) names a
    /// file in `outputPaths`. A strip that passes the streaming check (`XMLStreamCheck`) is never
    /// parsed into a tree.
    ///
    /// - Parameter path: The SVG's path relative to the output root, for diagnostics and links.
    public func validateSVG(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        if case .success(let schema) = Self.carouselSchema,
           XMLStreamCheck.passesCarousel(bytes, schema: schema, resolver: resolver(for: path)) {
            return []
        }
        return validate(svg: bytes, path: path, carouselOnly: false)
    }

    /// The tree-based validation of the SVG strip: every finding, exactly positioned.
    func diagnoseSVG(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        validate(svg: bytes, path: path, carouselOnly: false)
    }

    /// Validates any SVG of the output: gallery's carousel fully (see `validateSVG`), any other
    /// SVG (a cover, say) only for well-formedness.
    func validateAnySVG(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        validate(svg: bytes, path: path, carouselOnly: true)
    }

    /// Whether `root` is gallery's carousel: an `svg` root holding a `g` whose class includes
    /// `carousel` or `tiles`, or any `svg` root in a file named `carousel.svg`.
    static func isCarousel(_ root: XMLDocument.Element, path: String) -> Bool {
        guard root.isNamed("svg") else { return false }
        if path == "carousel.svg" || path.hasSuffix("/carousel.svg") { return true }
        return root.children.contains { $0.isNamed("g") && ($0.hasClass("carousel") || $0.hasClass("tiles")) }
    }

    private func validate(svg bytes: [UInt8], path: String, carouselOnly: Bool) -> [Diagnostic] {
        let parsed = XMLDocument.parse(bytes)
        var findings = Findings(path: path)
        findings.record(parsed.issues)
        guard let document = parsed.document, let root = document.root,
              !carouselOnly || Self.isCarousel(root, path: path) else {
            return findings.diagnostics(source: bytes, document: parsed.document)
        }
        switch Self.carouselSchema {
        case .success(let schema):
            findings.record(document.validate(against: schema), in: document)
        case .failure(let error):
            findings.error("cannot check against \(Self.carouselSchemaKey): \(error)")
        }
        var checker = MarkupChecker(dialect: .svg, resolver: resolver(for: path), findings: findings)
        checker.checkElements(from: root)
        return checker.findings.diagnostics(source: bytes, document: document)
    }
}
