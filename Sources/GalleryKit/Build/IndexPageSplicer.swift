/// Renders the index pages after an edit by copying their unchanged tiles from the pages in
/// place, as the strip and the data file are spliced (see ``SegmentedFile``): a site that shows
/// all 10,000 albums on its index otherwise renders and checks 10,000 tiles to change one.
///
/// A page's previous ``FragmentMap`` is used when its context (the site's settings, templates and
/// album count, the page's number) is unchanged and the page in place has the bytes the manifest
/// and the map recorded. Each tile is then copied when its key (its album's values, its place
/// and flags) is unchanged; the bytes are always those of a full render. The page is checked as
/// album pages are, with ``FragmentChecks``: a copied tile is left out where it stands in the
/// place it passed the last check in (the map records each tile's signature), when the build
/// makes the same files as the one that checked it (a tile may link to another album's page
/// through its params, and that album's address may move); the others are checked where they
/// stand and learnt for the next build. When that check fails, the whole page is checked, for
/// its findings.
struct IndexPageSplicer: Sendable {
    /// The previous build's maps of the index pages, by path.
    let maps: [String: FragmentMap]
    /// What every page depends on (``PageKeys/global``).
    let context: UInt64
    /// Every output path of this build, hashed.
    let outputs: UInt64
    /// Each album's key, as a tile shows it.
    let tileKeys: [UInt64]

    /// A splicer for this build's index pages, whose outputs are `outputPaths`.
    init(maps: [String: FragmentMap], keys: PageKeys, outputPaths: Set<String>) {
        self.maps = maps
        var outputs: UInt64 = 0
        for path in outputPaths { outputs &+= FastHash.hash(path) }
        self.outputs = FastHash.combine([outputs, UInt64(outputPaths.count)])
        context = FastHash.combine([keys.global, 300])
        tileKeys = keys.tilesShowParams ? keys.albumsWithParams : keys.albums
    }

    /// What rendering one index page came to.
    struct Rendered {
        var bytes: [UInt8]
        /// The check's findings, of the whole page.
        var diagnostics: [Diagnostic]
        /// The page's map for the next build (its output hash left for the caller to set), when
        /// the page is clean and every tile was made from its album alone.
        var map: FragmentMap?
        /// Whether any tile was copied.
        var spliced: Bool
        /// Whether the page was checked without the tiles it copied.
        var checkedInPart: Bool
    }

    /// Renders and checks index page `number` at `path`.
    func render(_ page: SitePlan.Page, number: Int, path: String, renderer: SiteRenderer, validator: PageValidator, ledger: OutputLedger) -> Rendered {
        let context = FastHash.combine([self.context, UInt64(number)])
        var previousMap: FragmentMap?
        var old: [UInt8] = []
        if let map = maps[path], map.context == context, let entry = ledger.previous.entries[path], entry.outputHash == map.outputHash,
           let bytes = ledger.contents(path), bytes.count == entry.size, FastHash.contentHash(bytes) == entry.outputHash {
            previousMap = map
            old = bytes
        }
        let tileKeys = tileKeys
        let splice = FragmentSplice(objectKey: { object in
            guard let tile = object as? TileContext, let identity = tile.fragmentKey, tileKeys.indices.contains(tile.index) else { return nil }
            return withUnsafeBytes(of: (tileKeys[tile.index], UInt64(bitPattern: Int64(identity)))) { FastHash.hash($0) }
        }, old: old, previous: previousMap?.fragments ?? [])
        let bytes = renderer.render(page, splice: splice)
        let fragments = splice.fragments
        // A copied tile is left out of the check where it stands in the place it passed in (its
        // signature), its links resolving among the same files; every other tile is checked
        // where it stands, and learnt. A map whose tiles were never checked so (a template that
        // puts them in a `<style>`, say) is not tried again: the page is checked whole.
        var checkedIn = Array(repeating: [UInt64](), count: fragments.count)
        var tried = true
        if let previousMap, previousMap.signatures.count == previousMap.keys.count {
            tried = previousMap.signatures.contains { $0 != 0 }
            if previousMap.outputs == outputs {
                for (index, fragment) in fragments.enumerated() where fragment.copied && index < previousMap.signatures.count && previousMap.signatures[index] != 0 {
                    checkedIn[index] = [previousMap.signatures[index]]
                }
            }
        }
        var diagnostics: [Diagnostic] = []
        var signatures = Array(repeating: UInt64(0), count: fragments.count)
        var checkedInPart = false
        let placements = fragments.enumerated().map { FragmentCache.Placement(offset: $0.element.offset, length: $0.element.length, slot: $0.offset) }
        if tried, let checks = FragmentChecks(page: bytes, path: path, placements: placements, checkedIn: checkedIn),
           let learnt = XHTMLStreamCheck.passes(checks, resolver: validator.resolver(for: path)) {
            for (index, known) in checkedIn.enumerated() { if let signature = known.first { signatures[index] = signature } }
            for (slot, signature) in learnt { signatures[slot] = signature }
            checkedInPart = checks.leftOut > 0
        } else {
            signatures = Array(repeating: 0, count: fragments.count)
            diagnostics = validator.validateXHTML(bytes, path: path)
        }
        var map: FragmentMap?
        if diagnostics.isEmpty, !fragments.isEmpty, fragments.allSatisfy(\.isPure), bytes.count <= Int(UInt32.max) {
            map = FragmentMap(
                outputHash: 0, context: context, outputs: outputs,
                keys: fragments.map(\.key), offsets: fragments.map { UInt32($0.offset) }, lengths: fragments.map { UInt32($0.length) },
                signatures: signatures
            )
        }
        return Rendered(bytes: bytes, diagnostics: diagnostics, map: map, spliced: splice.copiedCount > 0, checkedInPart: checkedInPart)
    }
}
