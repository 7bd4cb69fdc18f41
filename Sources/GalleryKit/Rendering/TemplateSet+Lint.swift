import Foundation

extension TemplateSet {
    /// Mistakes in the site's own templates that Mustache renders silently, as warnings with
    /// their file and line: a template file that no page uses (a misspelt name), a file named
    /// like a template but not `NAME.mustache` (`album.html`), which is not read, a slash after
    /// `{{root}}`, which ends with one (``slashesAfterRoot(in:path:basePath:)``), a partial or
    /// parent that names no template, a block that its parent has no place for (see
    /// ``blockFindings()``), and a name that no value answers to (`{{album.titel}}`), each with
    /// the nearest right name when there is one; and, as errors, values written into
    /// attributes that hold script (``scriptAttributeFindings(in:path:)``).
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
            let meant = sameFile ?? Spelling.nearest(name, among: others) ?? Self.templateName(meantBy: name, among: others)
            let hint = meant.map { "; name it templates/\($0).mustache to replace the built-in '\($0)'" } ?? ""
            findings.append(.warning("no page uses a template named '\(name)', so this file changes nothing\(hint)", path: path))
        }
        for file in otherFiles {
            guard let name = Self.templateName(meantBy: file.relative, among: Set(sources.keys)) else { continue }
            let fix = if case .site(let path)? = sources[name]?.origin {
                "the template '\(name)' is \(path)"
            } else {
                "name it templates/\(name).mustache to replace the built-in '\(name)'"
            }
            findings.append(.warning("only files named NAME.mustache are templates, so this file is not read; \(fix)", path: file.path))
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
            if let template = compiled[name] {
                findings += Self.slashesAfterRoot(in: template.nodes, path: path, basePath: config.basePath)
                findings += Self.scriptAttributeFindings(in: template.nodes, path: path)
            }
        }
        if sources.values.contains(where: { $0.origin != .builtin }) {
            findings += unknownNameFindings(config: config)
        }
        // By file, then line and column, as a reader goes through them.
        return findings.enumerated().sorted { first, second in
            let (a, b) = (first.element, second.element)
            if a.path != b.path { return a.path < b.path }
            if (a.position?.line ?? 0) != (b.position?.line ?? 0) { return (a.position?.line ?? 0) < (b.position?.line ?? 0) }
            if (a.position?.column ?? 0) != (b.position?.column ?? 0) { return (a.position?.column ?? 0) < (b.position?.column ?? 0) }
            return first.offset < second.offset
        }.map(\.element)
    }

    /// The template a file not named `NAME.mustache` was meant to be, if its name says so: its
    /// name without its extension (and a `.mustache` before that) is a template's
    /// (`album.html`, `album.mustache.html`, `partials/tile.hbs`), or is one but for its folder
    /// (`tile.html` for `partials/tile`) or its capitals (`Album.html`).
    static func templateName(meantBy relative: String, among names: Set<String>) -> String? {
        let folder = relative.range(of: "/", options: .backwards).map { relative[..<$0.upperBound] } ?? ""
        var file = relative.dropFirst(folder.count)
        if let dot = file.lastIndex(of: "."), dot > file.startIndex { file = file[..<dot] }
        if file.hasSuffix(".mustache") { file = file.dropLast(".mustache".count) }
        let stem = String(folder + file)
        if names.contains(stem) { return stem }
        let sameFile = names.filter { $0.split(separator: "/").last == file }
        if sameFile.count == 1 { return sameFile.first }
        let sameLetters = names.filter { $0.lowercased() == stem.lowercased() }
        return sameLetters.count == 1 ? sameLetters.first : nil
    }

    /// Warnings for `{{root}}/`: root ends with a slash already (`./`, `../../`, and the base
    /// path on 404.html), so `{{root}}/about/` links to `.//about/`, a path whose empty segment
    /// browsers keep, and on 404.html, with the base path `/`, to `//about/`, an address on a
    /// host named `about`, which no check of the output can tell from a link meant so.
    static func slashesAfterRoot(in nodes: [MustacheNode], path: String, basePath: String) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (index, node) in nodes.enumerated() {
            switch node {
            case .section(_, _, let body, _):
                findings += slashesAfterRoot(in: body, path: path, basePath: basePath)
            case .parent(_, _, let overrides, _):
                for key in overrides.keys.sorted() { findings += slashesAfterRoot(in: overrides[key]?.body ?? [], path: path, basePath: basePath) }
            case .block(_, let content, _, _):
                findings += slashesAfterRoot(in: content.body, path: path, basePath: basePath)
            case .variable(let name, _, let position) where name.parts == ["root"]:
                guard index + 1 < nodes.count, case .text(let bytes, _) = nodes[index + 1], bytes.first == UInt8(ascii: "/") else { continue }
                // The rest of the address: up to a quote, a space or a tag.
                let rest = String(decoding: bytes.prefix { !"\"' \t\r\n<>".utf8.contains($0) }, as: UTF8.self)
                let meant = String(rest.drop { $0 == "/" })
                let onNotFound = basePath == "/"
                    ? "404.html to '/\(rest)', an address on another host"
                    : "404.html to '\(basePath)\(rest)'"
                findings.append(.warning(
                    "'{{root}}\(rest)' doubles a slash: root already ends with one, so pages link to './\(rest)' and \(onNotFound); write '{{root}}\(meant)'",
                    path: path, at: position
                ))
            default:
                continue
            }
        }
        return findings
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

    /// Warnings for the names in the site's templates that no value answers to, each with the
    /// likeliest fix: a name of the object asked that is one slip away (`album.titel`: 'title'),
    /// or the objects that do have the name (`site.url`: 'url' is a value of social), or, for
    /// an object of a few names, those names.
    private func unknownNameFindings(config: SiteConfig) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var unknown: [MustacheRenderer.UnknownName: Set<String>] = [:]
        var owners: [String: Set<String>] = [:]
        let renderer = Self.sampleRenderer(templates: self, config: config)
        for page in renderer.plan.pages {
            let context = TemplateValue.object(renderer.context(for: page))
            unknown.merge(unknownNames(rendering: renderer.templateName(for: page), context: context)) { $0.union($1) }
            owners.merge(Self.owners(of: context)) { $0.union($1) }
        }
        let sorted = unknown.keys.sorted { ($0.template, $0.position, $0.name) < ($1.template, $1.position, $1.name) }
        for name in sorted {
            guard case .site(let path) = sources[name.template]?.origin else { continue }
            // A theme may ask for a [params] value a site leaves out, as site.params.x or inside
            // {{#site.params}}: only a likely slip is told.
            if name.owner == "site.params" || name.amongSiteParams, Spelling.nearest(name.part, among: unknown[name] ?? []) == nil { continue }
            // Hugo's Go templates start a name with a dot (`{{ .Site.Title }}`), which Mustache
            // reads as the current value, then an empty name.
            if name.name.count > 1, name.name.hasPrefix("."), name.name.dropFirst().first?.isLetter == true {
                // Hugo's page values (.Title, .Params.x) are the album's here; .Site's are site's.
                var parts = name.name.dropFirst().split(separator: ".").map { $0.prefix(1).lowercased() + $0.dropFirst() }
                if parts.first != "site" { parts.insert("album", at: 0) }
                let meant = parts.joined(separator: ".")
                findings.append(.warning(
                    "'\(name.name)' is a name as Hugo's Go templates write it, which Mustache reads as an empty name, so it renders empty; write it without the dot, naming its object: {{\(meant)}}. The README's \"Template values\" lists the names.",
                    path: path, at: name.position
                ))
                continue
            }
            let hint = Self.hint(for: name, names: unknown[name] ?? [], owners: owners)
            let what = name.owner.isEmpty ? "no value is called '\(name.part)'" : "'\(name.name)': no value is called '\(name.part)' there"
            findings.append(.warning(
                "\(what), so it renders empty\(hint) The README's \"Template values\" lists the names.",
                path: path, at: name.position
            ))
        }
        return findings
    }

    /// What to write instead of an unknown name, after "so it renders empty": `; did you mean
    /// 'title'?`, `; 'url' is a value of social and social.image, not of site.`, or `.` alone.
    ///
    /// A name that is another object's is said to be so: that is likelier meant than a slip.
    /// Otherwise only a name of the object asked is suggested as a slip, never the name itself
    /// (`text`'s words, such as 'year' and 'albums', are named only when no other hint is). A
    /// first part, asked of every context on the stack, may also be a slip for another object's
    /// name, which is then given in full (`{{coverAtl}}`: did you mean {{album.coverAlt}}?).
    ///
    /// - Parameters:
    ///   - names: The names the object asked has (every object on the stack, for a first part).
    ///   - owners: For every name, the objects that have it (see ``owners(of:)``).
    static func hint(for name: MustacheRenderer.UnknownName, names: Set<String>, owners: [String: Set<String>]) -> String {
        // The words of `text` are labels ('year', 'artist'): another object's value comes first.
        let all = owners[name.part] ?? []
        let values = Self.ordered(all.subtracting([textOwner]))
        let near = Spelling.nearest(name.part, among: names.subtracting([name.part]))
        let listsNames = !name.owner.isEmpty && !names.isEmpty && names.count <= 12
        let elsewhere = values.isEmpty && near == nil && !listsNames ? Self.ordered(all) : values
        if !elsewhere.isEmpty {
            let of = "'\(name.part)' is a value of \(list(elsewhere))"
            guard name.owner.isEmpty else { return "; \(of), not of \(name.owner)." }
            guard elsewhere.count == 1, let owner = elsewhere.first, owner != pageOwner else { return "; \(of)." }
            if owner.hasPrefix(itemPrefix) {
                let list = owner.dropFirst(itemPrefix.count)
                return "; \(of): use it inside {{#\(list)}}…{{/\(list)}}."
            }
            return "; \(of): write {{\(owner).\(name.part)}}."
        }
        if let near { return "; did you mean '\(near)'?" }
        if name.owner.isEmpty, let near = Spelling.nearest(name.part, among: Set(owners.keys).subtracting([name.part])) {
            let all = owners[near] ?? []
            let nearOwners = Self.ordered(all == [textOwner] ? all : all.subtracting([textOwner]))
            if nearOwners.count == 1, let owner = nearOwners.first, owner != pageOwner, !owner.hasPrefix(itemPrefix) {
                return "; did you mean {{\(owner).\(near)}}?"
            }
            return "; did you mean '\(near)', a value of \(list(nearOwners))?"
        }
        // An object of a few names has them listed; the page's own and `text` are too many.
        if listsNames {
            return "; \(name.owner) has \(quotedList(names.sorted()))."
        }
        return "."
    }

    /// Objects in the order a hint names them: plain objects by name, then list items.
    private static func ordered(_ owners: Set<String>) -> [String] {
        owners.sorted { ($0.hasPrefix(itemPrefix) ? 1 : 0, $0) < ($1.hasPrefix(itemPrefix) ? 1 : 0, $1) }
    }

    /// The object of the words of `[text]`.
    private static let textOwner = "text"

    /// How ``owners(of:)`` names the items of a list.
    private static let itemPrefix = "each of "

    /// How ``owners(of:)`` names the page's own values (`root`, `site`…).
    static let pageOwner = "the page"

    /// Where each name is among a page's values: for every name an object answers, the objects
    /// that have it, as a template reaches them (`site`, `social.image`, `each of carousel.tiles`,
    /// and ``pageOwner`` for the page's own). An album's params are left out: their names are
    /// the album's, not gallery's.
    static func owners(of context: TemplateValue) -> [String: Set<String>] {
        var owners: [String: Set<String>] = [:]
        func visit(_ value: TemplateValue, path: String, isItem: Bool) {
            switch value {
            case .object(let object):
                guard !(object is ParamsContext) else { return }
                let owner = path.isEmpty ? pageOwner : isItem ? itemPrefix + path : path
                for key in object.keys {
                    owners[key, default: []].insert(owner)
                    guard let child = object.value(forKey: key) else { continue }
                    visit(child, path: path.isEmpty ? key : "\(path).\(key)", isItem: false)
                }
            case .list(let items):
                // Items are alike: the first two show what they hold (the second, in case the
                // first lacks an optional value).
                for item in items.prefix(2) { visit(item, path: path, isItem: true) }
            case .text, .markup, .number, .bool, .null:
                break
            }
        }
        visit(context, path: "", isItem: false)
        return owners
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
