/// Renders compiled templates with a context into UTF-8 bytes.
///
/// Names resolve down the context stack as the specification says; partials and parents are
/// looked up in the template set; block overrides pass into partials, the outermost winning.
struct MustacheRenderer {
    /// Where a run of output bytes came from: for naming the template behind a faulty line.
    struct TraceEntry: Sendable, Hashable {
        /// The output offset where the run starts.
        var offset: Int
        /// The template.
        var template: String
        /// Its line.
        var line: Int
    }

    /// A name no context on the stack knows, where a template uses it.
    struct UnknownName: Sendable, Hashable {
        /// The name as written (`album.titel`).
        var name: String
        /// The part no context knew (`titel`).
        var part: String
        /// The parts before it, which named the object it was asked of (`album`); empty when
        /// the first part was unknown, which is asked of every context on the stack.
        var owner: String
        /// The template that uses it.
        var template: String
        /// Where in that template: the tag's opening delimiter.
        var position: SourcePosition
        /// Whether the site's `[params]` were on the stack (`{{#site.params}}{{phone}}`), where
        /// a name may be one of them that this site leaves out.
        var amongSiteParams = false
    }

    /// The deepest nesting of partials, parents and block overrides, so a template that
    /// includes itself stops.
    static let maximumDepth = 64

    /// The templates partials and parents are looked up in, by name.
    let templates: [String: CompiledTemplate]
    /// The bytes written so far.
    var output: [UInt8] = []
    /// The context stack: names resolve from the top down.
    private(set) var stack: [TemplateValue] = []
    /// For each level of ``stack``, its object (`nil` for another value), unretained: the stack
    /// holds it. A lookup asks each object through this without retaining and releasing it
    /// around the call, as a copy out of the stack did for every name a page looked up.
    private var objects: [Unmanaged<TemplateObject>?] = []
    /// When not `nil`, every run of output records the template line that wrote it: the entry
    /// covering an offset is the last one starting at or before it.
    var trace: [TraceEntry]?
    /// Partial output to reuse (never while tracing, which needs every run recorded).
    var fragments: FragmentCache?
    /// Fragments to copy from the previous build's page, and to record for the next (never
    /// while tracing either); it comes before ``fragments``.
    var splice: FragmentSplice?
    /// The lowest stack level any lookup has reached since it was last reset: a partial whose
    /// lookups all stayed at or above its object's level depends on that object alone.
    private var lowestLevelUsed = Int.max
    /// The partial looked up last (``partial(named:)``).
    private var latestPartial: CompiledTemplate?
    /// When not `nil`, every name that no context knows (each returned `nil` for it, rather than
    /// a value or `.null`) is recorded, for telling a template's author of a misspelt name, with
    /// the names the objects it was asked of do have (``TemplateObject/keys``), to suggest one.
    var unknownNames: [UnknownName: Set<String>]?
    /// Whether `{{{name}}}` and `{{&name}}` escape text too, leaving only ``TemplateValue/markup(_:)``
    /// unescaped: gallery's pages, where text is album or site text (a supplier's title with a
    /// `<script>` in it must not run). Off, the renderer follows the specification.
    var escapesEveryText = false

    /// Creates a renderer whose output has room for `capacity` bytes before it grows.
    init(templates: [String: CompiledTemplate], capacity: Int = 16_384, tracing: Bool = false) {
        self.templates = templates
        output.reserveCapacity(capacity)
        trace = tracing ? [] : nil
    }

    /// Renders the template `name` with `context` as the bottom of the stack.
    mutating func render(_ name: String, context: TemplateValue) {
        guard let template = templates[name] else { return }
        stack = [context]
        objects = [context.unmanagedObject]
        render(template.program, template.program.all, in: name, indentation: [], overrides: [:], depth: 0)
    }

    /// Renders the operations of `program` in `range`, of `template`; `indentation` goes at the
    /// start of every template line.
    private mutating func render(_ program: TemplateProgram, _ range: Range<Int>, in template: String, indentation: [UInt8], overrides: [String: MustacheBlock], depth: Int) {
        // A leaf's names are nearly all its object's own (a tile's): the object on top of the
        // stack is taken out once and asked first, rather than copied out for each name.
        let top: Unmanaged<TemplateObject>? = program.isLeaf ? objects.last ?? nil : nil
        var index = range.lowerBound
        while index < range.upperBound {
            switch program.operations[index] {
            case .text(let start, let count, let line):
                if trace != nil { record(template, line) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: program.bytes[start..<(start + count)]))
            case .indent(let line):
                if !indentation.isEmpty {
                    if trace != nil { record(template, line) }
                    output.append(contentsOf: indentation)
                }
            case .variable(let name, let escaped):
                let site = program.names.baseAddress! + name
                if trace != nil { record(template, site.pointee.position.line) }
                write(lookUp(site, below: top, in: template), escaped: escaped)
            case .section(let name, let inverted, let end):
                let value = lookUp(program.names.baseAddress! + name, below: top, in: template)
                let body = (index + 1)..<end
                index = end
                if inverted {
                    if value.isFalsey { render(program, body, in: template, indentation: indentation, overrides: overrides, depth: depth) }
                    continue
                }
                switch value {
                case .list(let items):
                    if body.count == 1, case .inclusion(let number) = program.operations[body.lowerBound] {
                        includeForEach(items, program.inclusions[number], in: template, indentation: indentation, overrides: overrides, depth: depth)
                        continue
                    }
                    for item in items {
                        push(item)
                        render(program, body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                        pop()
                    }
                case .bool(true):
                    render(program, body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                case .bool(false), .null:
                    break
                case .text, .markup, .number, .object:
                    push(value)
                    render(program, body, in: template, indentation: indentation, overrides: overrides, depth: depth)
                    pop()
                }
                continue
            case .inclusion(let number):
                include(program.inclusions[number], in: template, indentation: indentation, overrides: overrides, depth: depth)
            }
            index += 1
        }
    }

    /// Renders a partial, parent or block tag of `template`.
    private mutating func include(_ node: MustacheNode, in template: String, indentation: [UInt8], overrides: [String: MustacheBlock], depth: Int) {
        switch node {
        case .partial(let name, let extra, let position):
            let line = position.line
            guard depth < Self.maximumDepth, let partial = partial(named: name) else { return }
            if let splice, trace == nil, partial.isLeaf, case .object(let object)? = stack.last,
               let key = splice.key(for: object, partial: name, indentation: indentation, extra: extra) {
                if splice.copy(key, into: &output) {
                    // As the partial would have: it looked at its object alone.
                    lowestLevelUsed = min(lowestLevelUsed, stack.count - 1)
                    return
                }
                let start = output.count
                let isPure = expand(partial, at: indentation, extra, siteTemplate: template, line: line, overrides: overrides, depth: depth)
                splice.rendered(key, from: start, in: output, isPure: isPure)
                return
            }
            if let fragments, trace == nil, partial.isLeaf, case .object(let object)? = stack.last, let identity = object.fragmentKey {
                let key = FragmentCache.Key(site: fragments.site(template: name, indentation: indentation, extra: extra), object: identity)
                if fragments.appendCached(key, to: &output) { return }
                let start = output.count
                if expand(partial, at: indentation, extra, siteTemplate: template, line: line, overrides: overrides, depth: depth) {
                    fragments.store(key, from: start, in: output)
                }
                return
            }
            expand(partial, at: indentation, extra, siteTemplate: template, line: line, overrides: overrides, depth: depth)
        case .parent(let name, let extra, let ownOverrides, let position):
            guard depth < Self.maximumDepth, let parent = templates[name] else { return }
            // Overrides already in force (from further out) win over this parent tag's own.
            let merged = overrides.isEmpty ? ownOverrides : overrides.merging(ownOverrides) { outer, _ in outer }
            expand(parent.program, in: name, startingLine: true, inline: [], at: indentation, extra, siteTemplate: template, line: position.line, overrides: merged, depth: depth + 1)
        case .block(let name, let defaultContent, let extra, let line):
            if let override = overrides[name] {
                // An override may hold its own block's tag: count it as a level, so that stops.
                guard depth < Self.maximumDepth else { return }
                expand(override.program, in: override.template, startingLine: override.startsLine, inline: [], at: indentation, extra, siteTemplate: template, line: line, overrides: overrides, depth: depth + 1)
            } else {
                // The default content is this template's own text, indented like the rest of it.
                expand(defaultContent.program, in: template, startingLine: defaultContent.startsLine, inline: indentation, at: indentation, extra, siteTemplate: template, line: line, overrides: overrides, depth: depth)
            }
        case .text, .indent, .variable, .section:
            break
        }
    }

    /// Renders `{{#items}}{{>partial}}{{/items}}`, a strip of tiles: as `include` would for each
    /// item on top of the stack, but with the partial and its place in the ``FragmentCache``
    /// found once for the list rather than once a tile, and a tile the cache holds appended
    /// without being pushed on the stack. (Thirty of an album page's thirty-one tiles are.)
    private mutating func includeForEach(_ items: [TemplateValue], _ node: MustacheNode, in template: String, indentation: [UInt8], overrides: [String: MustacheBlock], depth: Int) {
        if let fragments, trace == nil, splice == nil, case .partial(let name, let extra, _) = node,
           depth < Self.maximumDepth, let partial = partial(named: name), partial.isLeaf {
            let site = fragments.site(template: name, indentation: indentation, extra: extra)
            for item in items {
                if let object = item.unmanagedObject, let identity = object._withUnsafeGuaranteedRef({ $0.fragmentKey }),
                   fragments.appendCached(FragmentCache.Key(site: site, object: identity), to: &output) {
                    continue
                }
                push(item)
                include(node, in: template, indentation: indentation, overrides: overrides, depth: depth)
                pop()
            }
            return
        }
        for item in items {
            push(item)
            include(node, in: template, indentation: indentation, overrides: overrides, depth: depth)
            pop()
        }
    }

    /// Renders a partial included at `depth`, where its tag stands, and tells whether it looked
    /// nothing up below the top of the stack (its object), so its output depends on that alone.
    @discardableResult
    private mutating func expand(_ partial: CompiledTemplate, at indentation: [UInt8], _ extra: [UInt8]?, siteTemplate: String, line: Int, overrides: [String: MustacheBlock], depth: Int) -> Bool {
        let outer = lowestLevelUsed
        lowestLevelUsed = Int.max
        expand(partial.program, in: partial.name, startingLine: true, inline: [], at: indentation, extra, siteTemplate: siteTemplate, line: line, overrides: overrides, depth: depth + 1)
        let isPure = lowestLevelUsed >= stack.count - 1
        lowestLevelUsed = min(outer, lowestLevelUsed)
        return isPure
    }

    /// Renders the program of a partial, parent or block where its tag stands.
    ///
    /// Indentation follows the template text, as in the specification's reference
    /// implementations: a tag on a line of its own (`extra` not `nil`) indents every line of the
    /// expansion by `extra` more than the current lines, and content that starts right after a
    /// block's opening tag rather than on a line of its own (`startingLine` false) gets that
    /// indentation written first. An inline tag continues the current line: its expansion's lines
    /// get the `inline` indentation, which is none for another template's text (an inline partial
    /// or parent, a block override) and the current one for a block's default content.
    private mutating func expand(_ program: TemplateProgram, in template: String, startingLine: Bool, inline: [UInt8], at indentation: [UInt8], _ extra: [UInt8]?, siteTemplate: String, line: Int, overrides: [String: MustacheBlock], depth: Int) {
        guard let extra else {
            render(program, program.all, in: template, indentation: inline, overrides: overrides, depth: depth)
            return
        }
        let inner = extra.isEmpty ? indentation : indentation.isEmpty ? extra : indentation + extra
        if !startingLine, program.operations.count > 0, !inner.isEmpty {
            if trace != nil { record(siteTemplate, line) }
            output.append(contentsOf: inner)
        }
        render(program, program.all, in: template, indentation: inner, overrides: overrides, depth: depth)
    }

    /// The template `name`: the one found last when it has that name (a strip includes its tile
    /// partial once a tile), or from the table.
    private mutating func partial(named name: String) -> CompiledTemplate? {
        if let latestPartial, latestPartial.name == name { return latestPartial }
        latestPartial = templates[name]
        return latestPartial
    }

    /// Puts `value` on top of the stack.
    private mutating func push(_ value: TemplateValue) {
        stack.append(value)
        objects.append(value.unmanagedObject)
    }

    /// Takes the top of the stack off.
    private mutating func pop() {
        stack.removeLast()
        objects.removeLast()
    }

    /// Looks the name of `site` up (``resolve(_:)``), noting it when no context knows it and
    /// unknown names are being recorded; for a name of one part, `top` (the object on top of the
    /// stack) is asked first, as the lookup down the stack would, unless names are being recorded.
    private mutating func lookUp(_ site: UnsafeMutablePointer<TemplateProgram.NameSite>, below top: Unmanaged<TemplateObject>?, in template: String) -> TemplateValue {
        if let top, unknownNames == nil, let single = site.pointee.single, let value = top._withUnsafeGuaranteedRef({ $0.value(forKey: single) }) {
            lowestLevelUsed = min(lowestLevelUsed, stack.count - 1)
            return value
        }
        let value = resolve(site)
        if unknownNames != nil { noteUnknownParts(of: site.pointee.name, in: template, at: site.pointee.position) }
        return value
    }

    private mutating func record(_ template: String, _ line: Int) {
        guard trace != nil else { return }
        if let last = trace?.last {
            if last.template == template, last.line == line { return }
            // A run that wrote nothing (an empty interpolation) gives way to the next one.
            if last.offset == output.count { trace?.removeLast() }
        }
        trace?.append(TraceEntry(offset: output.count, template: template, line: line))
    }

    /// Records the first part of `name` that no context knows, if any, with the names the
    /// objects asked do have (only when asked to: it looks the name up again).
    private mutating func noteUnknownParts(of name: MustacheName, in template: String, at position: SourcePosition) {
        guard let first = name.parts.first else { return }
        var found: TemplateValue?
        for value in stack.reversed() {
            if case .object(let object) = value, let child = object.value(forKey: first) {
                found = child
                break
            }
        }
        guard var value = found else {
            var names = Set<String>()
            for case .object(let object) in stack { names.formUnion(object.keys) }
            let amongSiteParams = stack.contains { if case .object(let object) = $0 { (object as? ParamsContext)?.isComplete == true } else { false } }
            note(UnknownName(name: name.description, part: first, owner: "", template: template, position: position, amongSiteParams: amongSiteParams), names)
            return
        }
        for (index, part) in name.parts.enumerated().dropFirst() {
            // A value that is absent here (`.null`, text) has no children to know: not a misspelling.
            guard case .object(let object) = value else { return }
            guard let child = object.value(forKey: part) else {
                let owner = name.parts[..<index].joined(separator: ".")
                note(UnknownName(name: name.description, part: part, owner: owner, template: template, position: position), Set(object.keys))
                return
            }
            value = child
        }
    }

    private mutating func note(_ unknown: UnknownName, _ names: Set<String>) {
        unknownNames?[unknown, default: []].formUnion(names)
    }

    /// Looks the name of `site` up: the first part down the stack, the rest inside what was
    /// found. The name is read where the program keeps it, not copied out (which counted a
    /// reference to its parts for every name a page looked up).
    private mutating func resolve(_ site: UnsafeMutablePointer<TemplateProgram.NameSite>) -> TemplateValue {
        let count = site.pointee.name.parts.count
        guard count > 0 else {
            lowestLevelUsed = min(lowestLevelUsed, stack.count - 1)
            return stack.last ?? .null
        }
        var level = objects.count - 1
        while level >= 0 {
            if let object = objects[level], var value = object._withUnsafeGuaranteedRef({ $0.value(forKey: site.pointee.name.parts[0]) }) {
                lowestLevelUsed = min(lowestLevelUsed, level)
                for index in 1..<count {
                    guard let object = value.unmanagedObject, let child = object._withUnsafeGuaranteedRef({ $0.value(forKey: site.pointee.name.parts[index]) }) else { return .null }
                    value = child
                }
                return value
            }
            level -= 1
        }
        lowestLevelUsed = min(lowestLevelUsed, 0)
        return .null
    }

    /// Writes a value looked up for `{{name}}` (`escaped`) or `{{{name}}}`. It takes the value
    /// over, so the text inside is read where it is, not copied and counted first.
    private mutating func write(_ value: consuming TemplateValue, escaped: Bool) {
        switch consume value {
        case .text(var text):
            if escaped || escapesEveryText {
                Self.appendEscaped(text, to: &output)
            } else {
                text.withUTF8 { output.append(contentsOf: $0) }
            }
        case .markup(var markup):
            if escaped {
                Self.appendEscaped(markup, to: &output)
            } else {
                markup.withUTF8 { output.append(contentsOf: $0) }
            }
        case .number(let number):
            Self.appendDecimal(number, to: &output)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null, .list, .object:
            break
        }
    }
}
