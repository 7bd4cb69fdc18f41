import Foundation

/// The Mustache templates a build renders with: the built-in ones, each overridable by a file of
/// the same name in the site's `templates/` folder.
///
/// Names drop the `.mustache` extension and keep subfolders: `templates/partials/tile.mustache`
/// is `partials/tile`, used as `{{>partials/tile}}`.
public struct TemplateSet: Sendable {
    /// Where a template's text came from, for diagnostics.
    public enum Origin: Sendable, Hashable {
        /// Built into gallery.
        case builtin
        /// A file in the site's `templates/` folder, with its path as the user would type it.
        case site(path: String)
    }

    /// One template's source.
    public struct Source: Sendable, Hashable {
        /// The Mustache text.
        public var text: String
        /// Where it came from.
        public var origin: Origin

        /// How a diagnostic names the file: its path, or `(built-in) templates/NAME.mustache`.
        public func displayPath(name: String) -> String {
            switch origin {
            case .builtin: "(built-in) templates/\(name).mustache"
            case .site(let path): path
            }
        }
    }

    /// The templates every build needs: one per page kind.
    public static let pageTemplates = ["index", "album", "404"]

    /// The sources by name.
    public let sources: [String: Source]
    /// The parsed templates, ready to render.
    private(set) var compiled: [String: CompiledTemplate]
    /// The files of the site's `templates/` folder that are not templates (see ``OtherFile``).
    var otherFiles: [OtherFile] = []

    /// Loads the built-in templates and the overrides in `folder` (which may not exist).
    ///
    /// - Parameter displayFolder: How diagnostics name the folder, e.g. `templates`.
    /// - Throws: ``ArchiveError`` with one diagnostic per template that does not parse, or
    ///   that includes or extends itself.
    public static func load(overridesIn folder: URL?, displayFolder: String = "templates") throws(ArchiveError) -> TemplateSet {
        var sources: [String: Source] = [:]
        for (name, path) in BuiltinResources.files(under: "templates") where name.hasSuffix(".mustache") {
            if let text = BuiltinResources.text(at: path) {
                sources[String(name.dropLast(".mustache".count))] = Source(text: text, origin: .builtin)
            }
        }
        var diagnostics: [Diagnostic] = []
        var otherFiles: [OtherFile] = []
        // A templates folder that is a symbolic link (to a theme several sites share) is read
        // where it leads: the walker would take the link itself for a file and find nothing.
        let folder = folder.map { (try? $0.resourceValues(forKeys: [.isSymbolicLinkKey]))?.isSymbolicLink == true ? $0.resolvingSymlinksInPath() : $0 }
        if let folder, let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) {
            let base = folder.standardizedFileURL.path
            for case let url as URL in walker {
                let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
                let display = displayFolder + "/" + relative
                guard url.pathExtension == "mustache" else {
                    if Self.mayBeMeantAsTemplate(relative), (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                        otherFiles.append(OtherFile(relative: relative, path: display))
                    }
                    continue
                }
                if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == false {
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                        diagnostics.append(.error("this is a folder, not a template file; rename it (only files named NAME.mustache are templates)", path: display))
                        walker.skipDescendants()
                        continue
                    }
                }
                guard let data = try? Data(contentsOf: url) else {
                    diagnostics.append(.error("cannot read this template; check that it is a readable file", path: display))
                    continue
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    let problem = TextEncodingProblem.find(in: Array(data))
                    diagnostics.append(.error(problem?.message("this template") ?? "cannot read this template as UTF-8 text", path: display, at: problem?.position))
                    continue
                }
                if let nul = data.firstIndex(of: 0) {
                    // libxml2 stops reading a page at a NUL: "Premature end of data", with no word of it.
                    let position = Array(data).withUnsafeBufferPointer { TemplateAttribution.position(ofByte: nul - data.startIndex, in: $0) }
                    diagnostics.append(.error("this template holds a NUL character (U+0000), where a page would end for any reader; delete it", path: display, at: position))
                    continue
                }
                sources[String(relative.dropLast(".mustache".count))] = Source(text: text, origin: .site(path: display))
            }
        }
        var set = try TemplateSet(sources: sources, diagnostics: diagnostics)
        set.otherFiles = otherFiles
        return set
    }

    /// A file in the site's `templates/` folder that is not named `NAME.mustache`, so it is not
    /// read (``lint(config:)`` warns of one whose name is a template's).
    struct OtherFile: Sendable, Hashable {
        /// Its path inside the folder (`partials/tile.html`).
        var relative: String
        /// Its path as diagnostics name it (`templates/partials/tile.html`).
        var path: String
    }

    /// Whether a file that is not `NAME.mustache` may have been meant as a template: not hidden
    /// (nor in a hidden folder, such as `.git`), and not an editor's backup or swap file
    /// (`album.mustache~`, `.album.mustache.swp`, `#album.mustache#`, `album.mustache.bak`).
    static func mayBeMeantAsTemplate(_ relative: String) -> Bool {
        let components = relative.split(separator: "/")
        guard let name = components.last, !components.contains(where: { $0.hasPrefix(".") }), !EditorLeftovers.contains(name) else { return false }
        // Backups that are published elsewhere (a static/ file may be meant), not here.
        let backups: Set<String> = ["swp", "swo", "swx", "bak", "orig", "tmp"]
        return !backups.contains((String(name) as NSString).pathExtension.lowercased())
    }

    /// Parses sources into a template set.
    ///
    /// - Throws: ``ArchiveError`` naming every template that does not parse, with line and column,
    ///   every circle of templates that include or extend themselves, or a template that brings
    ///   too many copies of templates into a page (see ``referenceErrors(in:sources:)``), and
    ///   any page template that is missing.
    public init(sources: [String: Source], diagnostics: [Diagnostic] = []) throws(ArchiveError) {
        var diagnostics = diagnostics
        var compiled: [String: CompiledTemplate] = [:]
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            do {
                compiled[name] = try CompiledTemplate(name: name, text: source.text)
            } catch {
                diagnostics.append(.error(
                    "template '\(name)' does not parse: \(error.message)",
                    path: source.displayPath(name: name),
                    at: error.position
                ))
            }
        }
        diagnostics += Self.referenceErrors(in: compiled, sources: sources)
        for name in Self.pageTemplates where sources[name] == nil {
            diagnostics.append(.error("there is no template '\(name)'; gallery needs one for its pages", path: "templates/\(name).mustache"))
        }
        if diagnostics.containsErrors { throw ArchiveError(diagnostics) }
        self.sources = sources
        self.compiled = compiled
    }

    /// The same templates parsed again into storage of their own, for one of several threads
    /// that render at once.
    ///
    /// Rendering retains the parsed nodes it walks. When two cores retain the same nodes, each
    /// count's cache line moves between them on every retain: a tenth of a cold 10k build's
    /// CPU went to `swift_retain` with one shared set, a twenty-fifth with one set a thread.
    func isolated() -> TemplateSet {
        var copy = self
        copy.compiled = compiled.mapValues { template in
            // Each parsed once already; a template that no longer parsed would keep the shared nodes.
            guard let text = sources[template.name]?.text, let parsed = try? CompiledTemplate(name: template.name, text: text) else { return template }
            return parsed
        }
        return copy
    }

    /// Renders the template `name` with a context into UTF-8 bytes; empty if there is no such
    /// template.
    ///
    /// - Parameter fragments: Partial output to reuse across renders in one task (see
    ///   ``FragmentCache``); the output is the same with or without it.
    public func render(_ name: String, context: TemplateValue, fragments: FragmentCache? = nil) -> [UInt8] {
        render(name, context: context, fragments: fragments, splice: nil)
    }

    /// Renders like ``render(_:context:fragments:)``, copying and recording fragments with
    /// `splice` (see ``FragmentSplice``); the output is the same as without it.
    func render(_ name: String, context: TemplateValue, fragments: FragmentCache?, splice: FragmentSplice?, capacity: Int = 16_384) -> [UInt8] {
        var renderer = MustacheRenderer(templates: compiled, capacity: capacity)
        renderer.escapesEveryText = true
        renderer.fragments = fragments
        fragments?.placements.removeAll(keepingCapacity: true)
        renderer.splice = splice
        renderer.render(name, context: context)
        return renderer.output
    }

    /// Renders like ``render(_:context:)`` and also returns which template line produced each
    /// run of output, for naming the template behind a faulty line of a page.
    func renderTraced(_ name: String, context: TemplateValue) -> (output: [UInt8], trace: [MustacheRenderer.TraceEntry]) {
        var renderer = MustacheRenderer(templates: compiled, tracing: true)
        renderer.escapesEveryText = true
        renderer.render(name, context: context)
        return (renderer.output, renderer.trace ?? [])
    }

    /// Whether rendering the pages can reach the template `name`: some page template includes
    /// it, or includes or extends one that does. An override of `base` that drops
    /// `{{>partials/analytics}}` makes this false for that partial.
    public func pagesInclude(_ name: String) -> Bool {
        reachableTemplates.contains(name)
    }

    /// The templates rendering the pages can reach: the page templates and every template they
    /// include or extend, at any depth.
    var reachableTemplates: Set<String> {
        var reached = Set<String>()
        var pending = Self.pageTemplates
        while let next = pending.popLast() {
            guard !reached.contains(next), let template = compiled[next] else { continue }
            reached.insert(next)
            pending += CompiledTemplate.references(in: template.nodes)
        }
        return reached
    }

    /// Renders like ``render(_:context:fragments:)`` and returns the names no context knew,
    /// each with the names the objects it was asked of have.
    func unknownNames(rendering name: String, context: TemplateValue) -> [MustacheRenderer.UnknownName: Set<String>] {
        var renderer = MustacheRenderer(templates: compiled)
        renderer.escapesEveryText = true
        renderer.unknownNames = [:]
        renderer.render(name, context: context)
        return renderer.unknownNames ?? [:]
    }

    /// A content hash of every template's text, for incremental builds: a change to any template
    /// changes every page.
    public var fingerprint: String {
        ContentHash.of(sources.keys.sorted().map { "\($0)\u{0}\(sources[$0]?.text ?? "")" }.joined(separator: "\u{1}"))
    }
}
