import Mustache

@testable import GalleryKit

/// Renders `template` (named `main`) with `partials` through gallery's engine, as a string.
func renderWithGallery(_ template: String, partials: [String: String] = [:], context: TemplateValue = .object(TemplateDictionary([:]))) throws -> String {
    let (output, _) = try renderTracedWithGallery(template, partials: partials, context: context)
    return output
}

/// Renders like ``renderWithGallery(_:partials:context:)`` with tracing on, returning the output
/// bytes as a string and the trace.
func renderTracedWithGallery(_ template: String, partials: [String: String] = [:], context: TemplateValue = .object(TemplateDictionary([:]))) throws -> (String, [MustacheRenderer.TraceEntry]) {
    var templates = ["main": try CompiledTemplate(name: "main", text: template)]
    for (name, text) in partials {
        templates[name] = try CompiledTemplate(name: name, text: text)
    }
    var renderer = MustacheRenderer(templates: templates, tracing: true)
    renderer.render("main", context: context)
    return (String(decoding: renderer.output, as: UTF8.self), renderer.trace ?? [])
}

/// Renders `template` (named `main`) with `partials` through swift-mustache, the reference.
func renderWithSwiftMustache(_ template: String, partials: [String: String] = [:], context: Any) throws -> String? {
    var templates = ["main": try MustacheTemplate(string: template)]
    for (name, text) in partials {
        templates[name] = try MustacheTemplate(string: text)
    }
    return MustacheLibrary(templates: templates).render(context, withTemplate: "main")
}

/// A shorthand for dictionary contexts in tests.
func object(_ values: [String: TemplateValue]) -> TemplateValue {
    .object(TemplateDictionary(values))
}

/// Shows gallery's typed contexts to swift-mustache: objects answer by name through
/// `MustacheParent`, so the very same page contexts render through both engines.
struct ReferenceObject: MustacheParent {
    let object: TemplateObject

    func child(named name: String) -> Any? {
        object.value(forKey: name).map(ReferenceObject.bridge)
    }

    /// A ``TemplateValue`` as swift-mustache expects it.
    static func bridge(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let text), .markup(let text): text
        case .number(let number): number
        case .bool(let flag): flag
        case .list(let items): items.map(bridge)
        case .object(let object): ReferenceObject(object: object)
        case .null: ReferenceNull()
        }
    }
}

/// A key that is present but empty (`.null`): it stops the lookup down the context stack, is
/// falsey and renders nothing, in swift-mustache as in gallery.
struct ReferenceNull: MustacheCustomRenderable {
    var renderText: String { "" }
    var isNull: Bool { true }
}
