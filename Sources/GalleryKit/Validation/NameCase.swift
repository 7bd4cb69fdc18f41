/// How a browser spells element and attribute names when it reads a page as HTML, as it reads
/// gallery's `.html` files, while gallery's checks read the same page as XML.
///
/// The HTML parser lowercases every tag and attribute name, then gives back their mixed case to
/// the names SVG and MathML define (`viewBox`, `linearGradient`, `definitionURL`) inside inline
/// `<svg>` and `<math>`. XML keeps names as written, so in a page with `<IMG>` a browser shows an
/// image that the `alt` check, looking for `img`, never sees; the same goes for `<A HREF>` and
/// the link check, or `ID` and the id check. So a name with an ASCII capital must be spelt as the
/// browser spells it (polyglot XHTML asks the same). An all-lowercase name is never faulted, even
/// where SVG spells it otherwise (`viewbox`): that is no way around a check.
///
/// Only names with a capital cost more than a scan of their bytes.
enum NameCase: Equatable {
    /// XHTML: every name in lowercase.
    case html
    /// SVG: lowercase, except the mixed-case element and attribute names SVG defines.
    case svg
    /// MathML: lowercase, except the attribute `definitionURL`.
    case mathML

    private static let xhtmlNamespace: StaticString = "http://www.w3.org/1999/xhtml"
    private static let svgNamespace: StaticString = "http://www.w3.org/2000/svg"
    private static let mathMLNamespace: StaticString = "http://www.w3.org/1998/Math/MathML"

    /// The rules for the names of an element named `name` in the namespace `uri`, where elements
    /// of the XHTML namespace follow `inherited` (see `inherited(byChildrenOf:in:inherited:)`);
    /// `nil` for an element of another namespace, which no browser knows.
    static func rules(forElement name: UnsafePointer<UInt8>, in uri: UnsafePointer<UInt8>?, inherited: NameCase) -> NameCase? {
        if matches(uri, xhtmlNamespace) {
            guard inherited == .html else { return inherited }
            if lowercaseEquals(name, "svg") { return .svg }
            if lowercaseEquals(name, "math") { return .mathML }
            return .html
        }
        if matches(uri, svgNamespace) { return .svg }
        if matches(uri, mathMLNamespace) { return .mathML }
        return nil
    }

    /// The rules that the XHTML-namespace children of an element follow: SVG's or MathML's under
    /// an `<svg>` or `<math>` written without its own `xmlns` (XML puts it in the XHTML
    /// namespace, a browser reads it as SVG or MathML all the same), XHTML's anywhere else.
    ///
    /// `inherited` is what the element itself was handed (`.html` at the root). Cheap for the
    /// elements of a page: the namespace is compared only for one named `svg` or `math`, or inside one.
    @inline(__always)
    static func inherited(byChildrenOf name: UnsafePointer<UInt8>, in uri: UnsafePointer<UInt8>?, inherited: NameCase) -> NameCase {
        guard inherited == .html else { return matches(uri, xhtmlNamespace) ? inherited : .html }
        let first = name[0] | 0x20
        guard first == UInt8(ascii: "s") || first == UInt8(ascii: "m") else { return .html }
        guard lowercaseEquals(name, "svg") || lowercaseEquals(name, "math"), matches(uri, xhtmlNamespace) else { return .html }
        return lowercaseEquals(name, "svg") ? .svg : .mathML
    }

    /// How a browser spells the element name `name`, when it has a capital and is spelt otherwise;
    /// `nil` when it is right.
    func correctedElement(_ name: UnsafePointer<UInt8>) -> String? {
        guard Self.hasCapital(name) else { return nil }
        let lower = Self.lowercased(name)
        let right = self == .svg ? Self.svgElements[lower] ?? lower : lower
        return right == String(cString: name) ? nil : right
    }

    /// How a browser spells the attribute name `name` (in the namespace `uri`, such as XLink's),
    /// when it has a capital and is spelt otherwise; `nil` when it is right.
    func correctedAttribute(_ name: UnsafePointer<UInt8>, in uri: UnsafePointer<UInt8>?) -> String? {
        guard Self.hasCapital(name) else { return nil }
        let lower = Self.lowercased(name)
        var right = lower
        if uri == nil {
            switch self {
            case .html: break
            case .svg: right = Self.svgAttributes[lower] ?? lower
            case .mathML: right = lower == "definitionurl" ? "definitionURL" : lower
            }
        }
        return right == String(cString: name) ? nil : right
    }

    /// How a message says where the right spelling comes from.
    var rule: String {
        switch self {
        case .html: "in lowercase in XHTML"
        case .svg: "as SVG spells it"
        case .mathML: "as MathML spells it"
        }
    }

    /// Whether the NUL-terminated `name` has an ASCII capital.
    @inline(__always)
    static func hasCapital(_ name: UnsafePointer<UInt8>) -> Bool {
        var cursor = name
        while true {
            let byte = cursor.pointee
            if byte == 0 { return false }
            if byte &- UInt8(ascii: "A") < 26 { return true }
            cursor += 1
        }
    }

    private static func lowercased(_ name: UnsafePointer<UInt8>) -> String {
        var bytes: [UInt8] = []
        var index = 0
        while name[index] != 0 {
            let byte = name[index]
            bytes.append(byte &- UInt8(ascii: "A") < 26 ? byte + 32 : byte)
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `name`, with its ASCII capitals lowercased, is `lower`.
    private static func lowercaseEquals(_ name: UnsafePointer<UInt8>, _ lower: StaticString) -> Bool {
        lower.withUTF8Buffer { expected in
            for index in 0..<expected.count where name[index] | 0x20 != expected[index] { return false }
            return name[expected.count] == 0
        }
    }

    /// The HTML parser's spelling of SVG's mixed-case element names ("adjust SVG tag name").
    private static let svgElements: [String: String] = Dictionary(uniqueKeysWithValues: [
        "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform", "clipPath",
        "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
        "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR",
        "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
        "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence", "foreignObject", "glyphRef", "linearGradient",
        "radialGradient", "textPath",
    ].map { ($0.lowercased(), $0) })

    /// The HTML parser's spelling of SVG's mixed-case attribute names ("adjust SVG attributes").
    private static let svgAttributes: [String: String] = Dictionary(uniqueKeysWithValues: [
        "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits", "diffuseConstant",
        "edgeMode", "filterUnits", "glyphRef", "gradientTransform", "gradientUnits", "kernelMatrix", "kernelUnitLength",
        "keyPoints", "keySplines", "keyTimes", "lengthAdjust", "limitingConeAngle", "markerHeight", "markerUnits",
        "markerWidth", "maskContentUnits", "maskUnits", "numOctaves", "pathLength", "patternContentUnits",
        "patternTransform", "patternUnits", "pointsAtX", "pointsAtY", "pointsAtZ", "preserveAlpha", "preserveAspectRatio",
        "primitiveUnits", "refX", "refY", "repeatCount", "repeatDur", "requiredExtensions", "requiredFeatures",
        "specularConstant", "specularExponent", "spreadMethod", "startOffset", "stdDeviation", "stitchTiles",
        "surfaceScale", "systemLanguage", "tableValues", "targetX", "targetY", "textLength", "viewBox", "viewTarget",
        "xChannelSelector", "yChannelSelector", "zoomAndPan",
    ].map { ($0.lowercased(), $0) })
}
