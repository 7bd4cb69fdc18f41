internal import CLibXML2

/// Streaming answers to "would `PageValidator` find anything in this file?", through libxml2's
/// `xmlTextReader` instead of a tree, for the two files that grow with the whole collection: the
/// SVG strip (with the RelaxNG schema attached) and the sitemap (well-formedness only).
///
/// The strip holds a tile per album: at 10k albums its tree took 29 MB and at 100k about ten
/// times that, all alive at once while the schema walked it. The reader keeps only the node it is
/// on (and, where the schema needs one, that element's subtree), validates against the same
/// compiled schema as it goes, and hands each element to the same `MarkupChecker` rules: unique
/// ids, tile sizes, references that must resolve, fragments.
///
/// Each only says yes or no, and says no whenever it is unsure: any libxml2 error or warning, a
/// document type declaration, a schema violation, a finding. `PageValidator` then runs the
/// tree-based validation, which gives the exact diagnostics. `XMLStreamCheckTests` holds both to
/// never passing a file that validation faults.
enum XMLStreamCheck {
    /// Whether the SVG strip `bytes` parse without a single libxml2 issue, match `schema`, and
    /// break none of the SVG rules, with references resolved by `resolver`.
    static func passesCarousel(_ bytes: [UInt8], schema: RelaxNGSchema, resolver: ReferenceResolver) -> Bool {
        schema.withSchema { compiled in
            read(bytes) { reader in
                guard xmlTextReaderRelaxNGSetSchema(reader, compiled) == 0 else { return false }
                return checkEveryElement(reader, resolver: resolver) && xmlTextReaderIsValid(reader) == 1
            }
        }
    }

    /// Whether `bytes` are well-formed XML that libxml2 reads without a single issue.
    static func parsesCleanly(_ bytes: [UInt8]) -> Bool {
        read(bytes) { reader in
            while true {
                switch xmlTextReaderRead(reader) {
                case 0: return true
                case 1: if xmlTextReaderNodeType(reader) == Int32(bitPattern: XML_READER_TYPE_DOCUMENT_TYPE.rawValue) { return false }
                default: return false
                }
            }
        }
    }

    /// Runs `body` with a reader over `bytes` (parsed with `XMLDocument`'s options); `true` only
    /// when `body` says so and libxml2 reported nothing at all.
    private static func read(_ bytes: [UInt8], _ body: (xmlTextReaderPtr) -> Bool) -> Bool {
        _ = XMLDocument.libraryReady
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return false }
        let collector = IssueCollector()
        let passed = collector.collecting {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars -> Bool in
                    guard let reader = xmlReaderForMemory(chars.baseAddress, Int32(chars.count), nil, nil, XMLDocument.options) else { return false }
                    defer { xmlFreeTextReader(reader) }
                    xmlTextReaderSetStructuredErrorHandler(reader, collectIssue, collector.context)
                    return body(reader)
                }
            }
        }
        return passed && collector.issues.isEmpty
    }

    /// Reads to the end, checking each element as the reader reaches it; `false` at the first
    /// doubt.
    private static func checkEveryElement(_ reader: xmlTextReaderPtr, resolver: ReferenceResolver) -> Bool {
        let element = Int32(bitPattern: XML_READER_TYPE_ELEMENT.rawValue)
        let documentType = Int32(bitPattern: XML_READER_TYPE_DOCUMENT_TYPE.rawValue)
        var checker = MarkupChecker(dialect: .svg, resolver: resolver, findings: Findings(path: ""))
        // The depths of the open elements with class `tile`: their descendants are inside a tile.
        var tiles: [Int32] = []
        while true {
            switch xmlTextReaderRead(reader) {
            case 0:
                checker.checkFragments()
                return !checker.findings.containsErrors
            case 1:
                break
            default:
                return false
            }
            let type = xmlTextReaderNodeType(reader)
            // A DTD can declare defaults and entities that change what the tree holds.
            if type == documentType { return false }
            guard type == element, let node = xmlTextReaderCurrentNode(reader) else { continue }
            let depth = xmlTextReaderDepth(reader)
            while let open = tiles.last, open >= depth { tiles.removeLast() }
            let insideTile = !tiles.isEmpty
            if checker.check(XMLDocument.Element(streamed: node), in: MarkupChecker.Scope(insideTile: insideTile)).insideTile, !insideTile {
                tiles.append(depth)
            }
            if checker.findings.containsErrors { return false }
        }
    }
}
