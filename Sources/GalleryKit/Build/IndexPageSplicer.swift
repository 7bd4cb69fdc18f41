/// Renders the index pages after an edit by copying their unchanged tiles from the pages in
/// place, as the strip and the data file are spliced (see ``SegmentedFile``): a site that shows
/// all 10,000 albums on its index otherwise renders and checks 10,000 tiles to change one.
///
/// A page's previous ``FragmentMap`` is used when its context (the site's settings, templates and
/// album count, the page's number) is unchanged and the page in place has the bytes the manifest
/// and the map recorded. Each tile is then copied when its key (its album's values, its place
/// and flags) is unchanged; the bytes are always those of a full render. The page is checked
/// without the copied tiles when what lies between the tiles is unchanged, every tile is
/// isolated (no id, no `#`, whole elements) and the build makes the same files as the one that
/// checked the page: each copied tile then passed every check in the same place of the page
/// before, its links resolved among the same files (a tile may link to another album's page
/// through its params, and that album's address may move). Otherwise, or when that check finds
/// anything, the whole page is checked.
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
           let bytes = ledger.contents(path), bytes.count == entry.size, FastHash.hash(bytes) == entry.outputHash {
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
        let skeleton = splice.skeletonHash(of: bytes)
        let isolated = fragments.allSatisfy(\.isIsolated)
        let copied = splice.copiedCount
        var diagnostics: [Diagnostic]
        var checkedInPart = false
        if let previousMap, previousMap.isolated, isolated, copied > 0, previousMap.outputs == outputs,
           skeleton == previousMap.skeleton, fragments.count == previousMap.keys.count {
            diagnostics = validator.validateXHTML(splice.withoutCopied(bytes), path: path)
            checkedInPart = diagnostics.isEmpty
            if !diagnostics.isEmpty { diagnostics = validator.validateXHTML(bytes, path: path) }
        } else {
            diagnostics = validator.validateXHTML(bytes, path: path)
        }
        var map: FragmentMap?
        if diagnostics.isEmpty, !fragments.isEmpty, fragments.allSatisfy(\.isPure), bytes.count <= Int(UInt32.max) {
            map = FragmentMap(
                outputHash: 0, context: context, outputs: outputs, skeleton: skeleton, isolated: isolated,
                keys: fragments.map(\.key), offsets: fragments.map { UInt32($0.offset) }, lengths: fragments.map { UInt32($0.length) }
            )
        }
        return Rendered(bytes: bytes, diagnostics: diagnostics, map: map, spliced: copied > 0, checkedInPart: checkedInPart)
    }
}
