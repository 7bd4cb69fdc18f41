import Foundation
import Testing

@testable import GalleryKit

/// An index page is rendered after an edit by copying its unchanged tiles from the page in place
/// (``FragmentSplice``): the bytes must be a full render's, only changed tiles rendered, and a
/// tile that looked below its own object never taken as its object's alone.
@Suite struct FragmentSpliceTests {
    /// A tile's values, as a test's objects.
    final class Item: TemplateObject, @unchecked Sendable {
        let index: Int
        let title: String
        let current: Bool

        init(index: Int, title: String, current: Bool = false) {
            self.index = index
            self.title = title
            self.current = current
        }

        override func value(forKey key: String) -> TemplateValue? {
            switch key {
            case "index": .number(index)
            case "title": .text(title)
            case "current": .bool(current)
            default: nil
            }
        }

        override var keys: [String] { ["index", "title", "current"] }
    }

    /// The built-in templates and a page `list` that shows `items` with the partial `item`.
    static func templates(item: String = "<li class=\"tile\" data-index=\"{{index}}\">{{title}}{{#current}} <b>now</b>{{/current}}</li>\n") throws -> TemplateSet {
        var sources = try TemplateSet.load(overridesIn: nil).sources
        sources["list"] = .init(text: "<ol title=\"{{heading}}\">\n{{#items}}\n  {{>item}}\n{{/items}}\n</ol>\n", origin: .site(path: "templates/list.mustache"))
        sources["item"] = .init(text: item, origin: .site(path: "templates/item.mustache"))
        return try TemplateSet(sources: sources)
    }

    static func context(_ titles: [String], heading: String = "Albums", current: Int = 0) -> TemplateValue {
        .object(TemplateDictionary([
            "heading": .text(heading),
            "site": .text("Site"),
            "items": .list(titles.enumerated().map { .object(Item(index: $0, title: $1, current: $0 == current)) }),
        ]))
    }

    /// Each item's key: its values, as a build keys a tile.
    static func splice(old: [UInt8] = [], previous: [FragmentSplice.Fragment] = []) -> FragmentSplice {
        FragmentSplice(objectKey: { object in
            (object as? Item).map { FastHash.hash("\($0.index)\u{0}\($0.title)\u{0}\($0.current)") }
        }, old: old, previous: previous)
    }

    @Test func aSplicedRenderHasTheBytesOfAFullOneAndRendersOnlyWhatChanged() throws {
        let templates = try Self.templates()
        let titles = (0..<40).map { "Title \($0) & <b>" }
        let first = Self.splice()
        let old = templates.render("list", context: Self.context(titles), fragments: nil, splice: first)
        #expect(old == templates.render("list", context: Self.context(titles)))
        #expect(first.fragments.count == 40 && first.copiedCount == 0)
        #expect(first.fragments.allSatisfy { $0.isPure })
        for fragment in first.fragments {
            #expect(String(decoding: old[fragment.range], as: UTF8.self).hasPrefix("  <li class=\"tile\""), "a fragment is the partial's output, its indentation too")
        }

        let edits: [(titles: [String], heading: String, current: Int, copied: Int, what: Comment)] = [
            (titles.enumerated().map { $0 == 17 ? "Retitled ✓" : $1 }, "Albums", 0, 39, "one title"),
            (titles, "Albums", 5, 38, "another current item: two tiles change"),
            (titles, "Other heading", 0, 40, "the page around the tiles"),
            (Array(titles.dropLast()), "Albums", 0, 39, "one item fewer"),
            (titles + ["New"], "Albums", 0, 40, "one item more"),
            (titles.reversed(), "Albums", 0, 0, "a new order"),
        ]
        for edit in edits {
            let splice = Self.splice(old: old, previous: first.fragments)
            let bytes = templates.render("list", context: Self.context(edit.titles, heading: edit.heading, current: edit.current), fragments: nil, splice: splice)
            #expect(bytes == templates.render("list", context: Self.context(edit.titles, heading: edit.heading, current: edit.current)), edit.what)
            #expect(splice.copiedCount == edit.copied, edit.what)
            #expect(splice.fragments.count == edit.titles.count, edit.what)
        }
    }

    @Test func aTileThatLooksBelowItsObjectIsNotPure() throws {
        // `{{site}}` is not the item's: the tile's bytes depend on the page, so no map keeps it.
        let templates = try Self.templates(item: "<li>{{title}} of {{site}}</li>\n")
        let splice = Self.splice()
        _ = templates.render("list", context: Self.context(["A", "B"]), fragments: nil, splice: splice)
        #expect(splice.fragments.count == 2)
        #expect(splice.fragments.allSatisfy { !$0.isPure })
    }

    @Test func aPreviousMapBeyondItsPageIsNotUsed() throws {
        let templates = try Self.templates()
        let first = Self.splice()
        let old = templates.render("list", context: Self.context(["A", "B"]), fragments: nil, splice: first)
        var beyond = first.fragments
        beyond[1].length += 1000
        let splice = Self.splice(old: old, previous: beyond)
        let bytes = templates.render("list", context: Self.context(["A", "B"]), fragments: nil, splice: splice)
        #expect(splice.copiedCount == 0)
        #expect(bytes == old)
    }
}
