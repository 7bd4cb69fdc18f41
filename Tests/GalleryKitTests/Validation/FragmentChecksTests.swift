import Testing
@testable import GalleryKit

/// A page check that leaves out the fragments an earlier page's check passed in the same place
/// (``FragmentChecks``) must answer exactly as the check of the whole page: these tests hold
/// each rule of the argument to that, with a page that would pass if the rule were missing
/// while the whole page fails.
@Suite struct FragmentChecksTests {
    typealias Fixtures = ValidationFixtures

    static let outputs: Set<String> = Fixtures.outputPaths.union(["albums/a/notes.html", "albums/c/index.html", "about/index.html"])
    static let validator = PageValidator(outputPaths: outputs)

    /// A part of a test page: markup of its own, or fragment `slot`.
    enum Part: ExpressibleByStringLiteral {
        case markup(String)
        case fragment(Int)

        init(stringLiteral value: String) { self = .markup(value) }
    }

    /// The page of `parts` with the fragments `fragments` holds, and where each lies.
    static func page(_ parts: [Part], fragments: [Int: String]) -> (bytes: [UInt8], placements: [FragmentCache.Placement]) {
        var bytes: [UInt8] = []
        var placements: [FragmentCache.Placement] = []
        for part in parts {
            switch part {
            case .markup(let text):
                bytes += Array(text.utf8)
            case .fragment(let slot):
                let fragment = Array(fragments[slot, default: ""].utf8)
                placements.append(.init(offset: bytes.count, length: fragment.count, slot: slot))
                bytes += fragment
            }
        }
        return (bytes, placements)
    }

    /// An album page whose body holds `body`, with a head that passes.
    static func albumPage(_ body: [Part], prolog: String = "<!DOCTYPE html>\n", root: String = "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">") -> [Part] {
        [.markup(prolog + root + "<head><title>t</title></head><body><main>")] + body + ["</main></body></html>\n"]
    }

    /// A strip of tiles, the fragments `slots`, inside `open` … `close`.
    static func strip(_ slots: [Int], open: String = "<ol class=\"strip\">", close: String = "</ol>") -> [Part] {
        [.markup(open)] + slots.map(Part.fragment) + [.markup(close)]
    }

    static func tile(_ target: String, extra: String = "") -> String {
        "<li class=\"tile\"\(extra)><a href=\"\(target)\"><img src=\"../../covers/a.svg\" alt=\"a\" width=\"100\" height=\"100\"/></a></li>"
    }

    /// A cache that has every slot of `fragments`, as a batch's render leaves it.
    static func cache(for fragments: [Int: String]) -> FragmentCache {
        let cache = FragmentCache()
        cache.checkedIn = Array(repeating: [], count: (fragments.keys.max() ?? -1) + 1)
        return cache
    }

    /// Checks `parts` at `path` both ways with `cache`; expects the same findings, and returns them.
    @discardableResult
    static func check(_ parts: [Part], at path: String, fragments: [Int: String], cache: FragmentCache, sourceLocation: SourceLocation = #_sourceLocation) -> [Diagnostic] {
        let page = page(parts, fragments: fragments)
        let whole = validator.validateXHTML(page.bytes, path: path)
        cache.placements = page.placements
        cache.checksLeftWhole = false
        let inPart = validator.validateXHTML(page.bytes, path: path, fragments: cache)
        #expect(inPart == whole, "left-out check of \(path) disagrees with the whole page's", sourceLocation: sourceLocation)
        return inPart
    }

    @Test func leavesOutTheTilesAnEarlierPageCheckedInTheSamePlace() {
        let fragments = [0: Self.tile("../a/"), 1: Self.tile("../b/"), 2: Self.tile("../../albums/c/")]
        let cache = Self.cache(for: fragments)
        #expect(Self.check(Self.albumPage(Self.strip([0, 1, 2])), at: "albums/a/index.html", fragments: fragments, cache: cache) == [])
        #expect(cache.leftOut == 0)
        // `../a/` and `../b/` depend on the folder (from `about/` they name other files); the
        // third climbs to the root first.
        #expect(cache.checkedIn.map(\.count) == [0, 0, 1])
        #expect(Self.check(Self.albumPage(Self.strip([0, 1, 2])), at: "albums/b/index.html", fragments: fragments, cache: cache) == [])
        #expect(cache.leftOut == 1)
        // From a folder of another depth no tile is left out.
        Self.check(Self.albumPage(Self.strip([2])), at: "404.html", fragments: fragments, cache: cache)
        #expect(cache.leftOut == 1)
    }

    @Test func theBuildsOwnAlbumPagesLeaveOutAllButTheirNewTiles() throws {
        let site = try SiteRendererTests.renderer(SiteRendererTests.catalogue((1...200).map { "Title \($0)" }))
        let validator = PageValidator(outputPaths: SiteRendererTests.outputs(site))
        let cache = FragmentCache()
        var whole = 0
        for index in 0..<64 {
            let page = SitePlan.Page.album(index: index)
            let bytes = site.render(page, fragments: cache)
            whole += cache.placements.count
            let path = site.plan.path(of: page)
            #expect(validator.validateXHTML(bytes, path: path, fragments: cache) == [], "\(path)")
        }
        // Pages after the first show the current tile, the one that entered and the ones whose
        // loading changed as new, the rest as left out.
        #expect(cache.leftOut * 10 > whole * 8, "left out \(cache.leftOut) of \(whole) tiles")
        #expect(!cache.checksLeftWhole)
    }

    /// Pages where a tile passed on page `a` and would pass if left out on page `b`, though the
    /// whole of page `b` fails: the check must not leave it out there.
    static let placeDependent: [(why: String, tile: String, a: (path: String, parts: [Part]), b: (path: String, parts: [Part]))] = [
        ("link relative to the page's folder", tile("notes.html"),
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(strip([0])))),
        ("# written as a character reference", tile("&#35;x"),
         ("albums/a/index.html", albumPage(["<p id=\"x\">x</p>"] + strip([0]))), ("albums/b/index.html", albumPage(strip([0])))),
        ("an id that page b repeats", tile("../../albums/c/", extra: " id=\"t\""),
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(["<p id=\"t\">x</p>"] + strip([0])))),
        ("an xml:id that page b repeats", tile("../../albums/c/", extra: " xml:id=\"t\""),
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(["<p xml:id=\"t\">x</p>"] + strip([0])))),
        ("a prefix page b does not bind", "<li><q:x xmlns:r=\"urn:r\"/></li>",
         ("albums/a/index.html", albumPage(strip([0], open: "<ol xmlns:q=\"urn:q\">"))), ("albums/b/index.html", albumPage(strip([0], open: "<ol>")))),
        ("a prefix page b binds to XHTML", "<li><q:linearGradient/></li>",
         ("albums/a/index.html", albumPage(strip([0], open: "<ol xmlns:q=\"urn:q\">"))), ("albums/b/index.html", albumPage(strip([0], open: "<ol xmlns:q=\"http://www.w3.org/1999/xhtml\">")))),
        ("a tile wrapper only on page b", "<li><img src=\"../../covers/a.svg\" alt=\"a\"/></li>",
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(strip([0], open: "<ol class=\"tile\">")))),
        ("SVG's spelling on page a, HTML's on page b", "<foreignObject/>",
         ("albums/a/index.html", albumPage(strip([0], open: "<svg xmlns=\"http://www.w3.org/2000/svg\">", close: "</svg>"))),
         ("albums/b/index.html", albumPage(strip([0], open: "<div>", close: "</div>")))),
        ("a default namespace only on page a", "<foreignObject/>",
         ("albums/a/index.html", albumPage(strip([0], open: "<div xmlns=\"http://www.w3.org/2000/svg\">", close: "</div>"))),
         ("albums/b/index.html", albumPage(strip([0], open: "<div>", close: "</div>")))),
        ("a tile that closes its parent and opens a tile", "</li><li class=\"tile\">",
         ("albums/a/index.html", albumPage(strip([0], open: "<ol><li>", close: "</li></ol>"))),
         ("albums/b/index.html", albumPage(strip([0], open: "<ol><li>", close: "<img src=\"../../covers/a.svg\" alt=\"\"/></li></ol>")))),
        ("a tile that closes and opens the first head", "</b></head><head><b>",
         ("albums/a/index.html", ["<!DOCTYPE html><html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><title>t</title><b>", .fragment(0), "</b></head><body/></html>"]),
         ("albums/b/index.html", ["<!DOCTYPE html><html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><b>", .fragment(0), "</b><title>t</title></head><body/></html>"])),
        ("a style attribute's relative URL", "<li style=\"background:url(notes.html)\"/>",
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(strip([0])))),
        ("a style element's relative URL", "<li><style>li{background:url(notes.html)}</style></li>",
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(strip([0])))),
        ("a srcset candidate relative to the folder", "<li><img src=\"../../covers/a.svg\" srcset=\"notes.html 2x\" alt=\"\"/></li>",
         ("albums/a/index.html", albumPage(strip([0]))), ("albums/b/index.html", albumPage(strip([0])))),
        ("a tile in the head at depth 2", "<title>t</title>",
         ("albums/a/index.html", ["<!DOCTYPE html><html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head>", .fragment(0), "</head><body/></html>"]),
         ("albums/b/index.html", ["<!DOCTYPE html><html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head></head><body>", .fragment(0), "</body></html>"])),
        ("a tile where page b opens a comment the tile ends, and an instruction like a marker after it", "<li>--><b>x</b></li>",
         ("albums/a/index.html", albumPage(strip([0]))),
         ("albums/b/index.html", albumPage(strip([0], open: "<ol><!--", close: "--><?gallery-check?></ol>")))),
        ("a tile in a style element on page b", tile("../../albums/c/"),
         ("albums/a/index.html", albumPage(strip([0]))),
         ("albums/b/index.html", albumPage(strip([0], open: "<style>", close: "{background:url(gone.png)}</style>")))),
        ("a tile in a comment on page b", tile("../../albums/c/"),
         ("albums/a/index.html", albumPage(strip([0]))),
         ("albums/b/index.html", albumPage(strip([0], open: "<!--", close: "--><a href=\"gone/\">g</a>")))),
        ("an encoding page b declares", "<li><img src=\"../../covers/a.svg\" alt=\"é\"/></li>",
         ("albums/a/index.html", albumPage(strip([0]))),
         ("albums/b/index.html", albumPage(strip([0]), prolog: "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>\n"))),
    ]

    @Test(arguments: placeDependent.indices)
    func aTileIsNotLeftOutWhereItsPlaceMakesItFail(_ index: Int) {
        let (why, tile, a, b) = Self.placeDependent[index]
        let fragments = [0: tile]
        let cache = Self.cache(for: fragments)
        #expect(Self.check(a.parts, at: a.path, fragments: fragments, cache: cache) == [], "\(why): page a passes")
        #expect(Self.check(b.parts, at: b.path, fragments: fragments, cache: cache) != [], "\(why): page b fails")
        #expect(cache.leftOut == 0, "\(why)")
    }

    /// Pages that fail whole, and whose check with markers would pass if a marker could end an
    /// instruction opened before it, split a run of bytes libxml2 reads as one, change a
    /// style's text, or leave libxml2's size limits behind (QA round 18).
    static let markersThatWouldHideAFault: [(why: String, tile: String, parts: [Part])] = [
        ("an instruction around the tile, closed inside it", #"<li><b title="?>">x</b></li>"#,
         albumPage(strip([0], open: "<ol><?foo ", close: "?></ol>"))),
        ("an instruction the tile opens and never closes", "<li>x</li><?note <b>",
         albumPage(strip([0]))),
        ("text ending in ]] before a tile starting with >", ">x</li><li>",
         albumPage(strip([0], open: "<ol><li>]]", close: "</li></ol>"))),
        ("an & before a tile that ends its name", "nbsp;<b/>",
         albumPage(strip([0], open: "<ol><li>&", close: "</li></ol>"))),
        ("a tile ending in an & that the page's text names", "<b/>&",
         albumPage(strip([0], open: "<ol><li>", close: "nbsp;</li></ol>"))),
        ("a tile inside a style whose own url() is broken", "<i>x</i>",
         albumPage(strip([0], open: "<style>a{background:url(gone.png)}", close: "</style>"))),
    ]

    @Test(arguments: markersThatWouldHideAFault.indices)
    func aCheckWithMarkersFailsWhereThePageFails(_ index: Int) {
        let (why, tile, parts) = Self.markersThatWouldHideAFault[index]
        let fragments = [0: tile]
        let cache = Self.cache(for: fragments)
        #expect(Self.check(parts, at: "albums/a/index.html", fragments: fragments, cache: cache) != [], "\(why): the page fails")
        #expect(cache.checkedIn[0].isEmpty, "\(why): the tile is not learnt")
    }

    /// Left-out tiles with only white space between them take one marker; anything else between
    /// them stays in the check.
    @Test func aRunOfLeftOutTilesTakesOneMarker() {
        let fragments = [0: Self.tile("../../albums/c/"), 1: Self.tile("/albums/b/")]
        let cache = Self.cache(for: fragments)
        Self.check(Self.albumPage(Self.strip([0, 1])), at: "albums/a/index.html", fragments: fragments, cache: cache)
        #expect(cache.checkedIn.map(\.count) == [1, 1])
        func checks(_ parts: [Part]) -> FragmentChecks? {
            let page = Self.page(parts, fragments: fragments)
            return FragmentChecks(page: page.bytes, path: "albums/b/index.html", placements: page.placements, checkedIn: cache.checkedIn)
        }
        let run = checks(Self.albumPage(["<ol>", .fragment(0), "\n ", .fragment(1), "\t", .fragment(0), "</ol>"]))
        #expect(run?.markers.count == 1)
        #expect(run?.leftOut == 3)
        let broken = checks(Self.albumPage(["<ol>", .fragment(0), "<li>x</li>", .fragment(1), "</ol>"]))
        #expect(broken?.markers.count == 2)
        #expect(broken?.leftOut == 2)
        // Between two left-out tiles, the page's own image without alt fails the page.
        let failing = Self.albumPage(["<ol>", .fragment(0), "<img src=\"../../covers/a.svg\"/>", .fragment(1), "</ol>"])
        #expect(Self.check(failing, at: "albums/b/index.html", fragments: fragments, cache: cache) != [])
    }

    @Test func aPageOver4MBIsCheckedWhole() {
        let tile = Self.tile("../../albums/c/")
        let page = Self.page(Self.albumPage(Self.strip([0], open: "<ol><li>" + String(repeating: "x", count: FragmentChecks.largestPage) + "</li>")), fragments: [0: tile])
        #expect(FragmentChecks(page: page.bytes, path: "albums/a/index.html", placements: page.placements, checkedIn: [[]]) == nil)
        let small = Self.page(Self.albumPage(Self.strip([0])), fragments: [0: tile])
        #expect(FragmentChecks(page: small.bytes, path: "albums/a/index.html", placements: small.placements, checkedIn: [[]]) != nil)
    }

    @Test func aMarkerTheParserDoesNotReadAsOneFailsTheCheck() {
        // The page's own instructions are no markers, even named like them.
        let fragments = [0: Self.tile("../../albums/c/")]
        let cache = Self.cache(for: fragments)
        Self.check(Self.albumPage(Self.strip([0])), at: "albums/a/index.html", fragments: fragments, cache: cache)
        let own = Self.albumPage(["<?gallery-check?>"] + Self.strip([0], open: "<ol><?gallery-check?>"))
        #expect(Self.check(own, at: "albums/b/index.html", fragments: fragments, cache: cache) == [])
        #expect(cache.leftOut == 1)
        // In a CDATA section the marker is text.
        let cdata = Self.albumPage(Self.strip([0], open: "<ol><![CDATA[", close: "]]></ol><a href=\"gone/\">g</a>"))
        #expect(Self.check(cdata, at: "albums/b/index.html", fragments: fragments, cache: cache) != [])
        #expect(cache.leftOut == 1)
    }

    /// A page's folder depth counts its path's non-empty segments but the last, as splitting it
    /// at its slashes does.
    @Test(arguments: ["index.html", "albums/a/index.html", "page/2/index.html", "a//b/c.html", "/top/x.html", "dir/", "a/b", "", "/", "./x/y.html"])
    func folderDepthCountsTheFoldersAbove(path: String) {
        let split = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().filter { !$0.isEmpty }.count
        #expect(FragmentChecks.folderDepth(of: path) == split, "\(path)")
    }

    @Test func placeFreeReferences() {
        func free(_ reference: String, depth: Int) -> Bool {
            Array(reference.utf8).withUnsafeBufferPointer { FragmentChecks.isPlaceFree($0, folderDepth: depth) }
        }
        #expect(free("../../albums/a/", depth: 2))
        #expect(free("../../../x", depth: 2), "escapes the root from every folder of depth 2")
        #expect(free("/albums/a/", depth: 2))
        #expect(free("https://example.com/", depth: 2))
        #expect(free("notes.html", depth: 0), "every page of depth 0 is in the root")
        #expect(!free("../a/", depth: 2))
        #expect(!free("./", depth: 2))
        #expect(!free("", depth: 2))
        #expect(!free(" ../../x", depth: 2))
        #expect(!free("?q", depth: 2))
        #expect(!free("../../albums/a/#x", depth: 2))
        #expect(!free("#x", depth: 0))
        #expect(!free("..%2F..%2Fx", depth: 2))
        #expect(!free("..\\..\\x", depth: 2))
    }

    /// Random pages of risky pieces, checked in a row with one cache: each check that leaves
    /// tiles out must agree with the whole page's.
    @Test func randomPagesAgreeWithTheWholePageCheck() {
        var generator = SeededGenerator(seed: 0x5EED_F4A6)
        let tiles = [
            Self.tile("../../albums/c/"), Self.tile("../a/"), Self.tile("notes.html"), Self.tile("/albums/b/"),
            Self.tile("../../albums/b/#x"), Self.tile("&#35;x"), Self.tile("../../albums/c/", extra: " id=\"x\""),
            "<li><img src=\"../../covers/a.svg\" alt=\"a\"/></li>", "<li><q:x/></li>", "<foreignObject/>",
            "</li><li class=\"tile\">", "<li><a href=\"https://e.example/\">e</a></li>", "<li>&amp; é</li>",
        ]
        let opens = ["<ol>", "<ol class=\"tile\">", "<ol xmlns:q=\"urn:q\">", "<svg xmlns=\"http://www.w3.org/2000/svg\">", "<ol><li>", "<div id=\"x\">"]
        let closes = ["</ol>", "</ol>", "</ol>", "</svg>", "</li></ol>", "</div>"]
        let paths = ["albums/a/index.html", "albums/b/index.html", "albums/c/index.html", "about/index.html", "404.html"]
        let fragments = Dictionary(uniqueKeysWithValues: tiles.enumerated().map { ($0.offset, $0.element) })
        var leftOut = 0
        var disagreements = 0
        for _ in 0..<60 {
            let cache = Self.cache(for: fragments)
            for _ in 0..<16 {
                let wrapper = generator.next() % 2 == 0 ? 0 : Int(generator.next() % UInt64(opens.count))
                // Mostly tiles that pass, so that pages pass and teach the cache.
                let slots = (0..<(1 + Int(generator.next() % 4))).map { _ in
                    generator.next() % 4 == 0 ? Int(generator.next() % UInt64(tiles.count)) : [0, 3, 7, 11, 12][Int(generator.next() % 5)]
                }
                let parts = Self.albumPage(Self.strip(slots, open: opens[wrapper], close: closes[wrapper]))
                let path = generator.next() % 2 == 0 ? paths[0] : paths[Int(generator.next() % UInt64(paths.count))]
                let page = Self.page(parts, fragments: fragments)
                cache.placements = page.placements
                cache.checksLeftWhole = false
                let before = cache.leftOut
                let inPart = Self.validator.validateXHTML(page.bytes, path: path, fragments: cache)
                if inPart != Self.validator.validateXHTML(page.bytes, path: path) { disagreements += 1 }
                leftOut += cache.leftOut - before
            }
        }
        #expect(disagreements == 0)
        #expect(leftOut > 50, "the random pages left out \(leftOut) tiles")
    }
}
