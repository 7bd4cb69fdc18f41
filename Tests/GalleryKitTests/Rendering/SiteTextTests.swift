import Foundation
import Testing

@testable import GalleryKit

/// `[text]`: every word gallery puts on a page comes from it, and its values are checked.
@Suite struct SiteTextTests {
    /// The text a reader meets in a page: text between tags, and the values of the attributes
    /// that are read out or shown (`alt`, labels, meta content) or that the script fills in.
    static func readable(_ page: String) -> [String] {
        var found: [String] = []
        let text = try! Regex(#">([^<]+)<"#)
        let attributes = try! Regex(#" (?:alt|aria-label|content|title|data-alt|data-alt-none|data-status)="([^"]*)""#)
        for match in page.matches(of: text) { found.append(String(page[match.range]).dropFirst().dropLast().description) }
        for match in page.matches(of: attributes) {
            let value = page[match.range].split(separator: "=", maxSplits: 1)[1]
            found.append(String(value.dropFirst().dropLast()))
        }
        return found.map { $0.replacingOccurrences(of: "&#39;", with: "'") }
    }

    /// Every output of a site of 7 albums (album 3 without a cover), with link previews, a split
    /// index, a 404 page and the strip; and the index of a site with one album and with none.
    static func outputs(text: SiteText) throws -> [String] {
        var config = SiteConfig()
        config.title = "Q"
        config.baseURL = "https://example.org/"
        config.text = text
        let catalogue = Catalogue(albums: (1...7).map { Album(title: "T\($0)", artist: "Q\($0)", genre: "G", year: 1990 + $0, coverURL: "c.png") })
        func renderer(_ catalogue: Catalogue) throws -> SiteRenderer {
            SiteRenderer(
                plan: SitePlan(catalogue: catalogue, carousel: .init(window: 2, indexPageSize: 3)),
                templates: try TemplateSet.load(overridesIn: nil), config: config,
                images: catalogue.entries.map { $0.index == 2 ? TileImage(src: "p.svg", isPlaceholder: true) : TileImage(src: "c\($0.index).webp", srcset: "d\($0.index).webp 2x", large: "e\($0.index).webp") },
                assets: AssetPaths(css: "a.css", js: "a.js")
            )
        }
        let site = try renderer(catalogue)
        var outputs = site.plan.pages.map { String(decoding: site.render($0), as: UTF8.self) }
        outputs.append(String(decoding: CarouselSVG.render(plan: site.plan, images: site.images, title: "Q", text: text), as: UTF8.self))
        for count in [1, 0] {
            let small = try renderer(Catalogue(albums: Array(catalogue.albums.prefix(count))))
            outputs.append(String(decoding: small.render(.index(number: 1)), as: UTF8.self))
        }
        return outputs
    }

    /// A site whose `[text]` gives every word ("«10»", "«23» {title} {artist}…") shows no
    /// English word of gallery's, and every word it gave; with none given, every English word is
    /// there (so the check can fail).
    @Test func everyWordOnThePagesComesFromText() throws {
        var marked = SiteText()
        // Numbers, as marks no English word is part of.
        let mark = { (entry: SiteText.Entry) in "«\(SiteText.entries.firstIndex { $0.name == entry.name }!)»" }
        for entry in SiteText.entries {
            marked.set(entry.name, to: mark(entry) + entry.placeholders.map { " {\($0)}" }.joined())
        }
        // The English, cut at its placeholders ("{title} by {artist}" → " by "), but punctuation.
        let fragments = SiteText.entries.flatMap { entry in
            TextPattern(entry.english).parts.compactMap { part -> String? in
                guard case .text(let words) = part, words.filter({ $0.isLetter }).count >= 2 else { return nil }
                return String(words)
            }
        }
        let translated = try Self.outputs(text: marked).flatMap(Self.readable)
        let english = try Self.outputs(text: SiteText()).flatMap(Self.readable)
        for fragment in Set(fragments) {
            #expect(english.contains { $0.contains(fragment) }, "the English pages never show \(fragment.debugDescription)")
            #expect(!translated.contains { $0.contains(fragment) }, "\(fragment.debugDescription) is still English: \(translated.filter { $0.contains(fragment) }.prefix(3))")
        }
        for entry in SiteText.entries {
            #expect(translated.contains { $0.contains(mark(entry)) }, "no page shows [text] \(entry.name)")
        }
        let byName = { (name: String) in mark(SiteText.byName[name]!) }
        // The patterns are filled in: a tile's alt, the strip's titles, the count, the pager.
        #expect(translated.contains(byName("album_by") + " T4 Q4 G 1994"))
        #expect(translated.contains(byName("no_cover_for") + " T3 Q3 G 1993"))
        #expect(translated.contains(byName("album_count") + " 7"))
        #expect(translated.contains(byName("album_count_one") + " 1"))
        #expect(translated.contains(byName("page_of") + " 2 3"))
        // The script's patterns stay patterns, for it to fill in.
        #expect(translated.contains(byName("status") + " {number} {count} {title} {artist} {genre} {year}"))
    }

    /// `dir="rtl"` follows the script a tag names, then the language: Punjabi in Arabic script
    /// is right to left, Sindhi in Devanagari left to right; N'Ko, Mazanderani and Northern
    /// Luri are right to left. (Each of these was wrong, by the language alone.)
    @Test func rightToLeftFollowsTheScriptThenTheLanguage() {
        for tag in ["he", "ar-EG", "fa_IR", "pa-Arab", "az-Arab-IR", "ku-Arab", "ha-Arab", "nqo", "mzn", "lrc", "yi", "ar-Arab"] {
            #expect(SiteContext.isRightToLeft(tag), "\(tag)")
        }
        for tag in ["en", "pa", "az", "sd-Deva", "ks-Deva", "ug-Cyrl", "ar-Latn", "de-CH", "zh-Hant-TW", "sr-Latn"] {
            #expect(!SiteContext.isRightToLeft(tag), "\(tag)")
        }
    }

    @Test func patternsFillTheirPlaceholdersAndLeaveOtherBracesAsText() {
        let values: (String) -> String? = { ["title": "T", "artist": "A"][$0] }
        #expect(TextPattern("{title} by {artist}").fill(values) == "T by A")
        #expect(TextPattern("{ title } {1} {} }{ {title").fill(values) == "{ title } {1} {} }{ {title")
        #expect(TextPattern("{{title}}").fill(values) == "{T}")
        #expect(TextPattern("{genre}: {title}").fill(values) == "{genre}: T")
        #expect(TextPattern("{title} by {artist}").slots == ["title", "artist"])
        #expect(SiteText().albumCount(1) == "1 album")
        #expect(SiteText().albumCount(0) == "0 albums")
    }

    @Test func textIsReadFromGalleryToml() throws {
        let (config, warnings) = try SiteConfig.parse(toml: "language = \"de\"\n[text]\nby = \"von\"\nalbum_count = \"{count} Alben\"\nstatus = \"Nr. {number}/{count} – {title}\"\nno_albums = \"Noch keine Alben {…}\\u0001\"\n", path: "gallery.toml")
        // The note of the words left English, and the control character's warning.
        #expect(warnings.map(\.severity) == [.note, .warning], "\(warnings)")
        #expect(config.text["by"] == "von")
        #expect(config.text["artist"] == "Artist")
        #expect(config.text.albumCount(3) == "3 Alben")
        #expect(config.text.albumCount(1) == "1 album")
        // A character XML forbids is replaced, as in album text.
        #expect(config.text["no_albums"] == "Noch keine Alben {…}\u{FFFD}")
        #expect(config != SiteConfig())
    }

    @Test func aPlaceholderAWordCannotFillIsAnErrorWithItsLine() {
        do {
            _ = try SiteConfig.parse(toml: "[text]\nby = \"von\"\nalbum_by = \"{titel} von {artist}\"\nnext_page = \"{count} →\"\nyear = 1\n", path: "gallery.toml")
            Issue.record("expected errors")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "gallery.toml:3:1: error: [text] album_by uses {titel}, which it does not know; it can use {title}, {artist}, {genre}, {year}",
                "gallery.toml:4:1: error: [text] next_page uses {count}, which it does not know; it takes no placeholders",
                "gallery.toml:5:1: error: [text] year must be a string in quotes",
            ])
        }
    }

    /// An empty word left a region without a name, a cover read as decoration (`alt=""`) and a
    /// row without a heading, with no warning.
    @Test func anEmptyWordIsAnErrorWithItsLine() {
        #expect(SiteConfig.errors(toml: "[text]\nalbums = \"\"\ncover_of = \"  \"\nby = \"von\"\n") == [
            "gallery.toml:2:1: error: [text] albums is empty, but pages show it or read it out to screen readers (in English, \"Albums\"); give it words, or delete the line to keep the English",
            "gallery.toml:3:1: error: [text] cover_of is empty, but pages show it or read it out to screen readers (in English, \"Cover of {title} by {artist}\"); give it words, or delete the line to keep the English",
        ])
    }

    @Test func anUnknownWordIsAWarningWithTheNearestName() throws {
        let (_, warnings) = try SiteConfig.parse(toml: "[text]\nartsit = \"Künstler\"\nwhatever = \"x\"\n[txt]\n", path: "gallery.toml")
        #expect(warnings.map(\.description) == [
            "gallery.toml:2:1: warning: unknown setting [text] artsit is ignored; did you mean artist?",
            "gallery.toml:3:1: warning: unknown setting [text] whatever is ignored; README.md lists every gallery.toml key",
            "gallery.toml:4:1: warning: unknown setting txt is ignored; did you mean text?",
        ])
    }

    /// The README's table of words is the list gallery uses, with the same English.
    @Test func theReadmeListsEveryWordWithItsEnglish() throws {
        let section = try Repository.readme(from: "### Pages in another language", until: "## Covers")
        for entry in SiteText.entries {
            #expect(section.contains("| `\(entry.name)` | \(entry.english) |"), "the README does not list \(entry.name) as \(entry.english.debugDescription)")
        }
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == SiteText.entries.count)
    }
}
