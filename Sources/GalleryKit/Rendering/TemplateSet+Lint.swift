import Foundation

extension TemplateSet {
    /// Mistakes in the site's own templates that Mustache renders silently, as warnings with
    /// their file and line: a template file that no page uses (a misspelt name), a partial or
    /// parent that names no template, a block that its parent has no place for (see
    /// ``blockFindings()``), and a name that no value answers to (`{{album.titel}}`), each with
    /// the nearest right name when there is one.
    ///
    /// Names are found by rendering every kind of page once for a small made-up site whose
    /// options take every branch the built-in templates have (an absolute base URL, analytics,
    /// several index pages, covers): a name inside a section that stays closed there is not
    /// checked, so a warning is never wrong, though a mistake can go unseen. Built-in templates
    /// are never reported.
    public func lint(config: SiteConfig) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let reachable = reachableTemplates
        for name in sources.keys.sorted() where !reachable.contains(name) {
            guard case .site(let path) = sources[name]?.origin else { continue }
            // `details` for `partials/details`: the right name in another folder.
            let others = Set(sources.keys).subtracting([name])
            let sameFile = others.first { $0.split(separator: "/").last == name.split(separator: "/").last }
            let hint = (sameFile ?? Spelling.nearest(name, among: others)).map { "; name it templates/\($0).mustache to replace the built-in '\($0)'" } ?? ""
            findings.append(.warning("no page uses a template named '\(name)', so this file changes nothing\(hint)", path: path))
        }
        for name in reachable.sorted() {
            guard case .site(let path) = sources[name]?.origin, let template = compiled[name] else { continue }
            for reference in CompiledTemplate.referenceSites(in: template.nodes) where compiled[reference.name] == nil {
                let hint = Spelling.nearest(reference.name, among: Set(sources.keys)).map { "; did you mean '\($0)'?" } ?? ""
                findings.append(.warning(
                    "'\(reference.name)' names no template, so it renders nothing\(hint)",
                    path: path, at: reference.position
                ))
            }
        }
        findings += blockFindings()
        for name in sources.keys.sorted() {
            guard case .site(let path) = sources[name]?.origin, let text = sources[name]?.text else { continue }
            findings += Self.tagsShortOfABrace(in: text, path: path)
        }
        guard sources.values.contains(where: { $0.origin != .builtin }) else { return findings }
        findings += unknownNameFindings(config: config)
        // By file, then line and column, as a reader goes through them.
        return findings.enumerated().sorted { first, second in
            let (a, b) = (first.element, second.element)
            if a.path != b.path { return a.path < b.path }
            if (a.position?.line ?? 0) != (b.position?.line ?? 0) { return (a.position?.line ?? 0) < (b.position?.line ?? 0) }
            if (a.position?.column ?? 0) != (b.position?.column ?? 0) { return (a.position?.column ?? 0) < (b.position?.column ?? 0) }
            return first.offset < second.offset
        }.map(\.element)
    }

    /// Warnings for tags one brace short at their start (`{album.title}}`), which Mustache
    /// publishes as text: a single `{` before a name, or a section or partial sigil, and `}}`.
    /// (Minified CSS such as `{a{b:c}}` holds no bare name between them, so it passes.) A
    /// template that changes its delimiters is not looked at.
    static func tagsShortOfABrace(in text: String, path: String) -> [Diagnostic] {
        guard !text.contains("{{=") else { return [] }
        var findings: [Diagnostic] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let bytes = Array(line.utf8)
            var index = 0
            while index + 1 < bytes.count {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "}"), bytes[index + 1] == UInt8(ascii: "}") else { continue }
                // Back over the name (letters, digits, _ . -) and an optional sigil to its brace.
                var start = index
                while start > 0, Self.isNameByte(bytes[start - 1]) { start -= 1 }
                guard start < index else { continue }
                var brace = start - 1
                if brace >= 0, "#^/>&!$<".utf8.contains(bytes[brace]) { brace -= 1 }
                guard brace >= 0, bytes[brace] == UInt8(ascii: "{"), brace == 0 || bytes[brace - 1] != UInt8(ascii: "{") else { continue }
                let tag = String(decoding: bytes[brace...(index + 1)], as: UTF8.self)
                let column = String(decoding: bytes[..<brace], as: UTF8.self).count + 1
                findings.append(.warning(
                    "'\(tag)' is a brace short at its start, so it is published as text; write '{\(tag)'",
                    path: path, at: SourcePosition(line: number + 1, column: column)
                ))
                index += 1
            }
        }
        return findings
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
    }

    /// Warnings for the names in the site's templates that no value answers to.
    private func unknownNameFindings(config: SiteConfig) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var unknown = Set<MustacheRenderer.UnknownName>()
        var known = Set<String>()
        let renderer = Self.sampleRenderer(templates: self, config: config)
        for page in renderer.plan.pages {
            let found = unknownNames(rendering: renderer.templateName(for: page), context: .object(renderer.context(for: page)))
            unknown.formUnion(found.unknown)
            known.formUnion(found.known)
        }
        let sorted = unknown.sorted { ($0.template, $0.position, $0.name) < ($1.template, $1.position, $1.name) }
        for name in sorted {
            guard case .site(let path) = sources[name.template]?.origin else { continue }
            let hint = Spelling.nearest(name.part, among: known).map { "; did you mean '\($0)'?" } ?? "."
            let what = name.part == name.name ? "no value is called '\(name.part)'" : "'\(name.name)': no value is called '\(name.part)' there"
            findings.append(.warning(
                "\(what), so it renders empty\(hint) The README's \"Template values\" lists the names.",
                path: path, at: name.position
            ))
        }
        return findings
    }

    /// A renderer for a made-up site of three albums whose pages take every branch of the
    /// built-in templates.
    private static func sampleRenderer(templates: TemplateSet, config: SiteConfig) -> SiteRenderer {
        var config = config
        config.title = "Albums"
        config.description = "Sample"
        config.baseURL = "https://example.org/"
        config.analytics = .google(GoogleAnalytics(measurementID: "G-SAMPLE"))
        config.carousel.indexPageSize = 2
        config.carousel.window = 1
        config.carousel.initialAlbum = .number(1)
        let albums = (1...3).map { Album(title: "Title \($0)", artist: "Artist", genre: "Genre", year: 2000, coverURL: "covers/\($0).png") }
        let catalogue = Catalogue(albums: albums)
        let images = catalogue.entries.map { TileImage(src: "covers/\($0.index)-100.webp", srcset: "covers/\($0.index)-200.webp 2x", large: "covers/\($0.index)-300.webp") }
        return SiteRenderer(
            plan: SitePlan(catalogue: catalogue, carousel: config.carousel, basePath: config.basePath),
            templates: templates, config: config, images: images,
            assets: AssetPaths(css: "assets/gallery.css", js: "assets/gallery.js")
        )
    }
}
