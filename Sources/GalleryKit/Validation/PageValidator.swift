/// Checks rendered output before it is written: XHTML pages and the carousel SVG.
///
/// It knows every file the finished output folder will hold, so it can check that every internal
/// reference lands on one. Findings come back as `Diagnostic`s at the exact line and column of
/// the element at fault (libxml2's own line and column for parse errors). Validating is pure and
/// the validator is `Sendable`: pages are checked in parallel, each on its own libxml2 tree.
public struct PageValidator: Sendable {
    /// The version of the checks, part of every page's key: raised when a check is added or
    /// changed, so that the next build renders and checks again the pages an older gallery
    /// left in place (an incremental build checks only the pages it renders). 2: names with
    /// capitals. 3: empty path segments, references in inline scripts and styles. 4: the URLs
    /// of `<style>` elements and `style` attributes. 5: media, frames, objects, forms, image maps.
    /// 6: pages in place checked again when a file they may link to is gone (``RemovedOutputs``),
    /// so pages an older gallery left linking to a removed file are checked once. 7: a `<script>`
    /// or `<style>` holding a comment or an instruction is read from the tree, not the bytes.
    /// 8: a `<base href>` is an error. 9: script in a form's `action`, a `formaction`, an SVG
    /// animation's values.
    static let checksVersion = 9

    /// Every file of the output folder, relative to its root with `/` separators
    /// (`index.html`, `albums/x/index.html`, `assets/gallery.3fa2b1c0.css`).
    public let outputPaths: Set<String>
    /// The path part of the site's base URL, with a leading and a trailing `/` (`/`, `/my-repo/`);
    /// references that start with `/` are resolved against it.
    public let basePath: String
    /// `outputPaths`, looked up by their bytes.
    let pathIndex: OutputPathIndex

    /// A validator for an output folder that will hold `outputPaths`, served under `basePath`.
    public init(outputPaths: Set<String>, basePath: String = "/") {
        self.outputPaths = outputPaths
        self.pathIndex = OutputPathIndex(outputPaths)
        let trimmed = basePath.split(separator: "/").joined(separator: "/")
        self.basePath = trimmed.isEmpty ? "/" : "/" + trimmed + "/"
    }

    /// Validates one XHTML5 polyglot page.
    ///
    /// Checks that it is well-formed XML (stopping there on a fatal error, whose message gets a
    /// hint for the common HTML habits: see `ParseErrorHint`); that its root is
    /// `html` in the XHTML namespace with `lang`, holding a `head` with a `title` and a `body`;
    /// that no element or attribute name has a capital a browser would lowercase (`NameCase`),
    /// which would hide the element from the other checks; that ids are unique; that every `img` has `alt`; that tile images have `width` and
    /// `height`; and that every internal reference (`a`, `link`, `script`, `img`, `source`, SVG
    /// `image` and `use`, `srcset` candidates, `url()`s of `<style>` elements and `style`
    /// attributes) names a file in `outputPaths` by a path with no
    /// empty segment, or an id of this page for a bare `#fragment`; and, as a warning, that no
    /// inline script or style holds a reference a browser would not decode (`RawTextEntities`).
    ///
    /// - Parameter path: The page's path relative to the output root; diagnostics name it, and
    ///   relative references are resolved from its folder.
    ///
    /// A page that passes `XHTMLStreamCheck` (a streaming parse with the same rules) needs no
    /// tree; any other gets the full, tree-based validation and its exact diagnostics.
    public func validateXHTML(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        let resolver = resolver(for: path)
        if XHTMLStreamCheck.passes(bytes, resolver: resolver) { return [] }
        return diagnoseXHTML(bytes, path: path, resolver: resolver)
    }

    /// Validates a page rendered with `fragments` (whose placements are this page's) as
    /// ``validateXHTML(_:path:)`` does, leaving out the fragments that passed a check in the
    /// same place of an earlier page (see ``FragmentChecks``), and learning the others.
    func validateXHTML(_ bytes: [UInt8], path: String, fragments: FragmentCache) -> [Diagnostic] {
        let resolver = resolver(for: path)
        if !fragments.checksLeftWhole,
           let checks = FragmentChecks(page: bytes, path: path, placements: fragments.placements, checkedIn: fragments.checkedIn) {
            if let learnt = XHTMLStreamCheck.passes(checks, resolver: resolver) {
                for (slot, signature) in learnt where !fragments.checkedIn[slot].contains(signature) {
                    fragments.checkedIn[slot].append(signature)
                }
                fragments.leftOut += checks.leftOut
                // Nothing left out and nothing learnt: the batch's fragments cannot be left out.
                if learnt.isEmpty, checks.leftOut == 0 { fragments.checksLeftWhole = true }
                return []
            }
            fragments.checksLeftWhole = true
        }
        if XHTMLStreamCheck.passes(bytes, resolver: resolver) { return [] }
        return diagnoseXHTML(bytes, path: path, resolver: resolver)
    }

    /// The tree-based validation of an XHTML page: every finding, exactly positioned.
    func diagnoseXHTML(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        diagnoseXHTML(bytes, path: path, resolver: resolver(for: path))
    }

    private func diagnoseXHTML(_ bytes: [UInt8], path: String, resolver: ReferenceResolver) -> [Diagnostic] {
        let parsed = XMLDocument.parse(bytes)
        var findings = Findings(path: path)
        findings.record(parsed.issues.map { issue in
            var hinted = issue
            let position = issue.line > 0 ? SourcePosition(line: issue.line, column: max(issue.column, 1)) : nil
            hinted.message = ParseErrorHint.hinted(issue.message, at: position, in: bytes)
            return hinted
        })
        guard let document = parsed.document, let root = document.root else {
            return findings.diagnostics(source: bytes, document: nil)
        }
        var checker = MarkupChecker(dialect: .xhtml, resolver: resolver, findings: findings)
        checker.checkPageStructure(root)
        checker.checkElements(from: root)
        return checker.findings.diagnostics(source: bytes, document: document)
    }

    /// Checks only that `bytes` are well-formed XML (a sitemap, a feed, an SVG cover).
    /// A file that reads cleanly as a stream (`XMLStreamCheck`) is never parsed into a tree.
    public func validateWellFormed(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        if XMLStreamCheck.parsesCleanly(bytes) { return [] }
        var findings = Findings(path: path)
        findings.record(XMLDocument.parse(bytes).issues)
        return findings.diagnostics(source: bytes, document: nil)
    }

    /// The resolver for references inside the output file at `path`.
    func resolver(for path: String) -> ReferenceResolver {
        ReferenceResolver(outputPaths: pathIndex, basePath: basePath, path: path)
    }
}
