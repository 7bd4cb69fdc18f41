import Foundation
import Testing

@testable import GalleryKit

@Suite struct SiteConfigTests {
    @Test func readsEveryKey() throws {
        let (config, warnings) = try SiteConfig.parse(toml: """
        title = "Shop"
        description = "Records"
        base_url = "https://example.org/shop"
        language = "de"
        [carousel]
        padding = 4
        dimension = 80
        offset = 0
        initial_album = "some-slug"
        window = 3
        index_page_size = 50
        [build]
        output = "site"
        [text]
        by = "von"
        """, path: "gallery.toml")
        // Only the note of the words [text] leaves English.
        #expect(warnings.map(\.severity) == [.note], "\(warnings)")
        #expect(config.title == "Shop")
        #expect(config.baseURL == "https://example.org/shop/")
        #expect(config.basePath == "/shop/")
        #expect(config.language == "de")
        #expect(config.carousel.metrics == ScrollerMetrics(padding: 4, dimension: 80, offset: 0))
        #expect(config.carousel.initialAlbum == .slug("some-slug"))
        #expect(config.carousel.window == 3)
        #expect(config.carousel.indexPageSize == 50)
        #expect(config.build.output == "site")
    }

    @Test func aMissingFileGivesTheDefaultsAndAnUnreadableOneAnError() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "gallery-config-\(UUID().uuidString)", directoryHint: .isDirectory)
        defer { try? FileManager.default.removeItem(at: root) }
        let site = SiteFolder(root: root)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        #expect(try SiteConfig.load(from: site).config == SiteConfig())
        // A folder where the file should be cannot be read: an error, not the defaults.
        try FileManager.default.createDirectory(at: site.configFile, withIntermediateDirectories: true)
        #expect {
            _ = try SiteConfig.load(from: site)
        } throws: { error in
            let messages = (error as? ArchiveError)?.diagnostics.map(\.description) ?? []
            return messages.count == 1 && messages[0].hasSuffix("/gallery.toml: error: cannot read gallery.toml: it is a folder, not a file")
        }
        // Out of descriptors (a preview with many connections open), the system's reason and
        // what to do, not Foundation's "NSCocoaErrorDomain error 256", as Foundation reports it.
        let emfile = NSError(domain: NSCocoaErrorDomain, code: 256, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EMFILE))])
        #expect(ReadFailure.reason(emfile) == "Too many open files (too many files are open at once; raise the limit with ulimit -n, or close some)")
        // And a write that meets the limit (a staged page, a lock) says the same; another
        // failure only the system's reason.
        errno = EMFILE
        let outOfDescriptors = AtomicFile.systemError()
        errno = ENOSPC
        let diskFull = AtomicFile.systemError()
        #expect(outOfDescriptors == "Too many open files (too many files are open at once; raise the limit with ulimit -n, or close some)")
        #expect(diskFull == String(cString: strerror(ENOSPC)))
        try FileManager.default.removeItem(at: site.configFile)
        try Data([0xFF, 0xFE, 0x00]).write(to: site.configFile)
        #expect(throws: ArchiveError.self) { try SiteConfig.load(from: site) }
    }

    /// TOML's parser stops at a NUL: the settings after one, and a UTF-16 file's, were ignored
    /// without a word. Refused at the byte, with what to do.
    @Test func controlCharactersAreRefusedWhereTheyAre() throws {
        let site = SiteFolder(root: URL(fileURLWithPath: "/nonexistent"))
        func message(_ bytes: [UInt8]) -> String? {
            do {
                _ = try SiteConfig.load(from: site, contents: bytes)
                return nil
            } catch {
                return error.diagnostics.first?.description
            }
        }
        #expect(message(Array("title = \"Before\"\n\u{0}\ntitle = \"dup\"\n".utf8))?.hasSuffix("gallery.toml:2:1: error: gallery.toml holds the control character U+0000 (NUL), which TOML does not allow; delete it") == true)
        // Escaped, a NUL ended the string there: `title = "a\u0000bc"` published "a".
        for escaped in [#"title = "a\u0000bc""#, #"[params]\nx = "b\U00000000c""#] {
            #expect(message(Array(escaped.utf8))?.contains("(NUL) in a string, where the text would end: what follows it would be lost; delete it") == true, "\(escaped)")
        }
        #expect(message(Array(#"title = "a\\u0000bc""#.utf8)) == nil)
        #expect(message(Array("title = \"a\u{7}b\"\n".utf8))?.hasSuffix("gallery.toml:1:11: error: gallery.toml holds the control character U+0007, which TOML does not allow; delete it (or write \\u0007 inside a string, if it is meant)") == true)
        let utf16: [UInt8] = Array("title = \"Mine\"\n".utf8).flatMap { [UInt8(0), $0] }
        #expect(message(utf16)?.hasSuffix("gallery.toml:1:1: error: gallery.toml holds the control character U+0000 (NUL), which TOML does not allow; the file looks like UTF-16 (every other byte is zero); save it as UTF-8") == true)
        // UTF-16 with its byte-order mark, as Windows's editors save "Unicode": said so, not Latin-1.
        #expect(message([0xFF, 0xFE] + Array("title".utf8).flatMap { [$0, UInt8(0)] })?.hasSuffix("gallery.toml:1:1: error: gallery.toml is not UTF-8 text: it starts with the byte-order mark of UTF-16 (an editor's \"Unicode\"); save the file as UTF-8") == true)
        // Written as an escape, it is a string's character no page can show.
        let escaped = try SiteConfig.parse(toml: "title = \"a\\u0007b\"\n", path: "gallery.toml").warnings.map(\.description)
        #expect(escaped == ["gallery.toml:1:1: warning: title holds the control character U+0007, which no page can show, so pages show \u{FFFD} in its place; delete it"])
        // Tabs and Windows line ends are TOML.
        #expect(message(Array("title = \"a\tb\"\r\n".utf8)) == nil)
    }

    /// A file saved with Windows line ends ("\r\n", one Character) was one line to the key
    /// finder: its findings had no line numbers.
    @Test func windowsLineEndsKeepTheLineNumbers() throws {
        let (_, warnings) = try SiteConfig.parse(toml: "titel = \"a\"\r\n[carousel]\r\nfoo = 1\r\n", path: "gallery.toml")
        #expect(warnings.map(\.description).map { $0.prefix(17) } == ["gallery.toml:1:1:", "gallery.toml:3:1:"])
        #expect(SiteConfig.errors(toml: "title = \"x\"\r\n[carousel]\r\nwindow = -1\r\n") == ["gallery.toml:3:1: error: [carousel] window is -1; it must be from 0 to 10000"])
    }

    /// WCAG 3.1.2: English words on pages marked as another language are read with the wrong
    /// voice, so a language other than English with no [text], or a [text] without some words
    /// (one added in a later version), is a note at its line: a note, as a theme may write its
    /// own words, and --strict fails on warnings.
    @Test func aLanguageOtherThanEnglishWithoutItsWordsIsANote() throws {
        let (_, warnings) = try SiteConfig.parse(toml: "title = \"Archiv\"\nlanguage = \"ar\"\n", path: "gallery.toml")
        #expect(warnings.map(\.description) == [
            "gallery.toml:2:1: note: language is \"ar\", but [text] gives none of the words gallery puts on pages, so they are English (\"Previous album\", \"Artist\"…) on pages marked as ar, which screen readers read in its voice; give them under [text] (README.md's \"Pages in another language\" lists them)",
        ])
        let all = SiteText.entries.map { "\($0.name) = \"x\"" }.joined(separator: "\n")
        for quiet in ["language = \"en-GB\"", "languageCode = \"EN-us\"", "language = \"ar\"\n[text]\n" + all, "language = \"und\"", "language = \"zxx\"", "language = \"mul\"", ""] {
            #expect(try SiteConfig.parse(toml: quiet, path: "gallery.toml").warnings.isEmpty, "\(quiet)")
        }
        // A translated [text] of an older version, without the word for the skip link.
        let older = SiteText.entries.filter { $0.name != "skip_albums" }.map { "\($0.name) = \"x\"" }.joined(separator: "\n")
        let partial = try SiteConfig.parse(toml: "language = \"de\"\n[text]\n" + older, path: "gallery.toml").warnings
        #expect(partial.map(\.description) == [
            "gallery.toml:1:1: note: [text] gives no skip_albums (\"Skip the album covers\"), so it stays English on pages marked as de; give it under [text] (README.md's \"Pages in another language\" lists the words)",
        ])
        let hugo = try SiteConfig.parse(toml: "languageCode = \"fr\"", path: "gallery.toml").warnings
        #expect(hugo.map(\.message).first?.hasPrefix("languageCode is \"fr\", but [text]") == true, "\(hugo)")
    }

    /// A key with a space is written quoted; its finding is at its own line, not its table's.
    @Test func aQuotedKeysFindingIsAtItsLine() throws {
        #expect {
            _ = try SiteConfig.parse(toml: "title = \"Shop\"\n\n[params]\nphone = \"1\"\n\"label name\" = \"Nightjar\"\n", path: "gallery.toml")
        } throws: { error in
            let found = (error as? ArchiveError)?.diagnostics.map(\.description) ?? []
            return found.count == 1 && found[0].hasPrefix("gallery.toml:5:1: error: \"label name\" cannot name a param")
        }
    }

    @Test func defaultsAreTheSeeds() throws {
        let (config, _) = try SiteConfig.parse(toml: "", path: "gallery.toml")
        #expect(config.carousel.metrics == .seed)
        #expect(config.carousel.window == 15)
        #expect(config.carousel.initialAlbum == .number(1))
        #expect(config.basePath == "/")
    }

    /// The starter `gallery.toml` that `gallery init` writes shows each key with its default, so a
    /// new user reads what the build really does (it once said 500 albums an index page while the
    /// default was 300).
    @Test func theStarterSettingsStateTheDefaults() throws {
        let text = try #require(BuiltinResources.data(at: "gallery.toml").map { String(decoding: $0, as: UTF8.self) })
        let (starter, warnings) = try SiteConfig.parse(toml: text, path: "gallery.toml")
        #expect(warnings.isEmpty)
        var expected = SiteConfig()
        // The site's own words are the starter's to choose; every setting is the default.
        expected.description = starter.description
        #expect(!starter.description.isEmpty)
        #expect(starter == expected)
    }

    /// And it shows every key, the same as the README's list of settings.
    @Test func theStarterSettingsShowEveryKeyTheReadmeLists() throws {
        let settings = try Repository.readme(from: "## Settings: `gallery.toml`", until: "### Analytics")
        let block = try #require(settings.components(separatedBy: "```toml\n").dropFirst().first?.components(separatedBy: "```").first)
        let starter = try #require(BuiltinResources.data(at: "gallery.toml").map { String(decoding: $0, as: UTF8.self) })
        /// `section.key` for every key set (not commented out).
        func keys(_ toml: some StringProtocol) -> [String] {
            var section = ""
            var found: [String] = []
            for line in toml.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix(" ") {
                if line.hasPrefix("[") { section = String(line.dropFirst().prefix { $0 != "]" }) + "."; continue }
                if let equals = line.firstIndex(of: "=") { found.append(section + line[..<equals].trimmingSpaces()) }
            }
            return found
        }
        let listed = keys(block)
        #expect(listed.count > 20)
        #expect(keys(starter) == listed)
    }

    @Test func badValuesAreErrorsWithTheirLine() {
        do {
            _ = try SiteConfig.parse(toml: "title = 3\n\n[carousel]\n  padding = -1\ndimension = \"big\"\nwindow = 1.0\noffset = \"10\"\nindex_page_size = 2.5\n", path: "gallery.toml")
            Issue.record("expected an error")
        } catch {
            // In the order of the file's lines; a number written as text or with a point is
            // told how to write it.
            #expect(error.diagnostics.map(\.description) == [
                "gallery.toml:1:1: error: title must be a string in quotes",
                "gallery.toml:4:3: error: [carousel] padding is -1; it must be from 0 to 10000",
                "gallery.toml:5:1: error: [carousel] dimension must be a whole number, not the text \"big\"",
                "gallery.toml:6:1: error: [carousel] window must be a whole number, not 1.0; write 1, without the point",
                "gallery.toml:7:1: error: [carousel] offset must be a whole number, not the text \"10\"; write 10, without quotes",
                "gallery.toml:8:1: error: [carousel] index_page_size must be a whole number, not 2.5",
            ])
        }
    }

    /// A tile larger than a screen is a mistake, and its 2× image (20,000 px for 10,000) is
    /// past what WebP can hold: refused at load, not after minutes of failed thumbnails.
    @Test func aTileIsAtMost1024Pixels() throws {
        #expect(try SiteConfig.parse(toml: "[carousel]\ndimension = 1024\n", path: "gallery.toml").config.carousel.metrics.dimension == 1024)
        do {
            _ = try SiteConfig.parse(toml: "[carousel]\ndimension = 10000\n", path: "gallery.toml")
            Issue.record("dimension = 10000 was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["gallery.toml:2:1: error: [carousel] dimension is 10000; it must be from 1 to 1024"])
        }
    }

    @Test func aBaseURLMustBeAnHTTPAddressOrAPath() throws {
        for good in ["/", "", "/albums/", "/albums", "/html/", "/v1.2/", "https://example.org", "http://127.0.0.1:8080/x/", "http://[::1]:8080/", "http://[::1]/", "https://example.org//", "HTTPS://Example.org/a b".replacingOccurrences(of: " ", with: "")] {
            #expect(SiteConfig.baseURLProblem(good) == nil, "\(good)")
            let (config, _) = try SiteConfig.parse(toml: "base_url = \"\(good)\"\n", path: "gallery.toml")
            #expect(config.baseURL == SiteConfig.normalizedBaseURL(good))
        }
        let bad = [
            ("not a url", "has spaces or control characters"),
            ("ftp://example.org/", "is not an http or https URL"),
            ("javascript:alert(1)", "is neither a URL nor a path that starts with /"),
            ("albums/", "is neither a URL nor a path that starts with /"),
            ("https:///albums/", "has no host"),
            ("//example.org/", "starts with //"),
            ("https://x.org/albums/?q=1#f", "has a query (?…), which every link would carry in its middle"),
            ("/albums#top", "has a fragment (#…), which every link would carry in its middle"),
            ("https://label.github.io/catalogue/index.html", "ends in a page (.html), not a folder; give the folder the site is published in, such as https://label.github.io/catalogue/"),
            ("/index.php", "ends in a page (.php), not a folder; give the folder the site is published in, such as /"),
            ("https://user:pw@example.org/", "has a user name or password (before @), which every page would publish; give the address without it"),
            // `//repo/` at the start of a path names a host: 404.html's links led off the site.
            ("https://user.github.io//repo/", "has an empty path segment (//), which browsers keep, so every link would lead elsewhere; write https://user.github.io/repo/"),
            ("/repo//x/", "has an empty path segment (//), which browsers keep, so every link would lead elsewhere; write /repo/x/"),
            ("http://h:8080x/", "names port 8080x, which does not exist (ports run from 1 to 65535); give a port in that range, or none (h)"),
            ("http://h:99999/", "names port 99999, which does not exist (ports run from 1 to 65535); give a port in that range, or none (h)"),
            ("http://h:0/", "names port 0, which does not exist (ports run from 1 to 65535); give a port in that range, or none (h)"),
            ("https://bücher.example/", "has a host that is not ASCII (bücher.example); give its ASCII form, which begins xn-- (`idn2 bücher.example` prints it)"),
            ("http://[::1]:-1/", "names port -1, which does not exist (ports run from 1 to 65535); give a port in that range, or none ([::1])"),
        ]
        for (url, problem) in bad {
            do {
                _ = try SiteConfig.parse(toml: "title = \"x\"\nbase_url = \"\(url)\"\n", path: "gallery.toml")
                Issue.record("\(url) was accepted")
            } catch {
                // A page's name has advice of its own: the folder to give.
                let advice = problem.contains("give the folder") || problem.contains("without it") || problem.contains("; give a port") || problem.contains("; write ") || problem.contains("xn--") ? "" : "; give the site's address, such as https://example.org/albums/, or a path that starts with /, such as /albums/"
                #expect(error.diagnostics.map(\.description) == [
                    "gallery.toml:2:1: error: base_url \"\(url)\" \(problem)\(advice)",
                ])
            }
        }
    }

    /// `HTTPS://` is `https://`: it was a path to the canonical links and a URL to the sitemap.
    /// The host is written in lower case too (the canonical links kept `Music.Example.ORG`,
    /// the analytics' domain did not); the path keeps its case.
    @Test func aBaseURLsSchemeAndHostAreWrittenInLowerCase() throws {
        #expect(SiteConfig.normalizedBaseURL("HTTPS://Example.ORG:8080/Sub") == "https://example.org:8080/Sub/")
        #expect(SiteConfig.normalizedBaseURL("/Sub/") == "/Sub/")
        // Non-ASCII, and what no URL holds as it is, percent-encoded as browsers send it (the
        // sitemap protocol asks it; `gallery serve` compared the raw path with the encoded one);
        // what is encoded already stays.
        #expect(SiteConfig.normalizedBaseURL("https://example.org/música/") == "https://example.org/m%C3%BAsica/")
        #expect(SiteConfig.normalizedBaseURL("/süb/a{b}/") == "/s%C3%BCb/a%7Bb%7D/")
        #expect(SiteConfig.normalizedBaseURL("/m%C3%BAsica/") == "/m%C3%BAsica/")
        // A % that begins no escape is one itself: as written, every link was a broken escape.
        #expect(SiteConfig.normalizedBaseURL("/50%off/") == "/50%25off/")
        #expect(SiteConfig.normalizedBaseURL("/a%2/") == "/a%252/")
        let (encoded, _) = try SiteConfig.parse(toml: "base_url = \"https://example.org/süb/\"\n", path: "gallery.toml")
        #expect(encoded.basePath == "/s%C3%BCb/")
        let (config, _) = try SiteConfig.parse(toml: "base_url = \"HTTPS://example.org/Sub/\"\n", path: "gallery.toml")
        #expect(config.hasAbsoluteBaseURL)
        #expect(config.baseURL == "https://example.org/Sub/")
    }

    @Test func aLanguageMustBeALanguageTag() throws {
        for good in ["en", "pt-BR", "zh-Hant-TW", "de-CH-1996"] {
            #expect(try SiteConfig.parse(toml: "language = \"\(good)\"\n", path: "gallery.toml").config.language == good)
        }
        for bad in ["en US", "en_US", "", "en-", "x<y", "français"] {
            #expect(throws: ArchiveError.self, "\(bad)") { try SiteConfig.parse(toml: "language = \"\(bad)\"\n", path: "gallery.toml") }
        }
    }

    @Test func unknownKeysWarnAndSyntaxErrorsHavePositions() throws {
        let (_, warnings) = try SiteConfig.parse(toml: "titel = \"x\"\n[carousel]\npaddin = 3\n[carousels]\nwindow = 3\n[covers.extra]\n[build]\nouput = \"o\"\nbaseurl = 1\n[analytics]\nprovidr = \"x\"\n[library]\nwhatever = 1\n", path: "gallery.toml")
        #expect(warnings.map(\.description) == [
            "gallery.toml:1:1: warning: unknown setting titel is ignored; did you mean title?",
            "gallery.toml:3:1: warning: unknown setting [carousel] paddin is ignored; did you mean padding?",
            "gallery.toml:4:1: warning: unknown setting carousels is ignored; did you mean carousel?",
            "gallery.toml:6:1: warning: unknown setting [covers] extra is ignored; README.md lists every gallery.toml key",
            "gallery.toml:8:1: warning: unknown setting [build] ouput is ignored; did you mean output?",
            "gallery.toml:9:1: warning: unknown setting [build] baseurl is ignored; README.md lists every gallery.toml key",
            "gallery.toml:11:1: warning: unknown setting [analytics] providr is ignored; did you mean provider?",
            "gallery.toml:13:1: warning: unknown setting [library] whatever is ignored; README.md lists every gallery.toml key",
        ])
        #expect(try SiteConfig.parse(toml: "baseurl = \"/\"\n", path: "gallery.toml").warnings.map(\.message) == ["unknown setting baseurl is ignored; did you mean base_url?"])
        // A section written as an array of tables: said where, and how to write it.
        #expect(SiteConfig.errors(toml: "title = \"x\"\n[[carousel]]\npadding = 1\n") == ["gallery.toml:2:1: error: carousel must be a section, [carousel] with single brackets (it is written [[carousel]])"])
        // A section name that starts with a character no name starts with: toml++ asserted
        // (SIGABRT) instead of reporting it, so every command that reads the settings died.
        #expect(SiteConfig.errors(toml: "[é]\n") == ["gallery.toml:1:2: error: a section name cannot start with 'é': a name is ASCII letters, digits, _ and -, or any text in quotes (as [\"é…\"])"])
        for header in ["[=]", "[#]", "[.]", "[|humbnails]", "[ |a]", "[[|a]]", "  [ [!a]]"] {
            #expect(SiteConfig.errors(toml: "title = \"x\"\n\(header)\n").first?.hasPrefix("gallery.toml:2:") == true, "\(header)")
        }
        // A line that starts with `[` inside a string or an array that spans lines is no header.
        let spanning = #"""
        title = """
        [é]
        """
        description = '''
        [=]'''
        m = [
          [+1, 2], # [é]
          [{ a = "[=]" }],
        ]
        ["é"]
        x = 1
        """#
        #expect(SiteConfig.errors(toml: spanning) == [])
        // A key in the wrong place: where it belongs.
        #expect(try SiteConfig.parse(toml: "padding = 5\n[build]\ntitle = \"x\"\n", path: "gallery.toml").warnings.map(\.message) == [
            "unknown setting padding is ignored; padding is a setting of [carousel]: put it below that line",
            "unknown setting [build] title is ignored; title is a top-level setting: put it above the first [section] line",
        ])
        // Both a key and its Hugo name: said, and gallery's wins.
        let (both, bothWarnings) = try SiteConfig.parse(toml: "base_url = \"/a/\"\nbaseURL = \"/b/\"\n", path: "gallery.toml")
        #expect(both.baseURL == "/a/")
        #expect(bothWarnings.map(\.description) == ["gallery.toml:2:1: warning: both base_url and baseURL (Hugo's name for it) are set; base_url is used, so delete one"])
        // In either order, and for language too, which Hugo's name won though the warning said not.
        for toml in ["language = \"fr\"\nlanguageCode = \"de\"\n", "languageCode = \"de\"\nlanguage = \"fr\"\n", "baseURL = \"/b/\"\nbase_url = \"/a/\"\n"] {
            let (config, warnings) = try SiteConfig.parse(toml: toml, path: "gallery.toml")
            #expect(toml.hasPrefix("base") ? config.baseURL == "/a/" : config.language == "fr", "\(toml)")
            let both = warnings.filter { $0.message.contains("Hugo's name for it") }
            #expect(both.count == 1 && both[0].message.contains(toml.hasPrefix("base") ? "base_url is used" : "language is used"), "\(warnings)")
        }
        do {
            _ = try SiteConfig.parse(toml: "title = \"x\n", path: "gallery.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.first?.position?.line == 1)
            #expect(error.diagnostics.first?.message.hasPrefix("malformed TOML") == true)
            #expect(error.diagnostics.first?.message.hasSuffix("; is a closing quote missing?") == true, "\(error.diagnostics)")
        }
        #expect(throws: ArchiveError.self) { try SiteConfig.parse(toml: "title = \" \"\n", path: "gallery.toml") }
    }

    @Test func readsTheThumbnailKeys() throws {
        let (defaults, _) = try SiteConfig.parse(toml: "", path: "gallery.toml")
        #expect(defaults.thumbnails == SiteConfig.Thumbnails())
        #expect(defaults.thumbnails.specs(tileSize: 100) == [100, 200, 300].map { ThumbnailSpec(size: $0, fit: .crop, format: .webp, quality: 80) })
        let (config, warnings) = try SiteConfig.parse(toml: """
        [thumbnails]
        format = "jpeg"
        quality = 65
        fit = "attention"
        large = 480
        max_pixels = 1000000
        """, path: "gallery.toml")
        #expect(warnings.isEmpty)
        #expect(config.thumbnails.specs(tileSize: 80) == [80, 160, 480].map { ThumbnailSpec(size: $0, fit: .attention, format: .jpeg, quality: 65) })
        #expect(config.thumbnails.maxPixels == 1_000_000)
    }

    @Test func badThumbnailValuesNameTheKey() {
        do {
            _ = try SiteConfig.parse(toml: "[thumbnails]\nformat = \"gif\"\nquality = 0\nfit = \"stretch\"\nlarge = 5\nmax_pixels = 0\n", path: "gallery.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "gallery.toml:2:1: error: [thumbnails] format is \"gif\"; it must be \"webp\" or \"jpeg\" or \"png\" or \"avif\"",
                "gallery.toml:3:1: error: [thumbnails] quality is 0; it must be from 1 to 100",
                "gallery.toml:4:1: error: [thumbnails] fit is \"stretch\"; it must be \"crop\" or \"contain\" or \"attention\"",
                "gallery.toml:5:1: error: [thumbnails] large is 5; it must be from 16 to 4096",
                "gallery.toml:6:1: error: [thumbnails] max_pixels is 0; it must be from 1 to 1000000000",
            ])
        }
    }

    @Test func avifIsAcceptedOnlyWhereLibvipsCanWriteIt() throws {
        let toml = "[thumbnails]\nformat = \"avif\"\n"
        if ThumbnailFormat.avif.isSupported {
            #expect(try SiteConfig.parse(toml: toml, path: "gallery.toml").0.thumbnails.format == .avif)
        } else {
            #expect {
                _ = try SiteConfig.parse(toml: toml, path: "gallery.toml")
            } throws: { error in
                (error as? ArchiveError)?.diagnostics.first?.description.hasPrefix("gallery.toml:2:1: error: [thumbnails] format is \"avif\", but this libvips cannot write it") == true
            }
        }
        let (png, _) = try SiteConfig.parse(toml: "[thumbnails]\nformat = \"png\"\n", path: "gallery.toml")
        #expect(png.thumbnails.format == .png)
    }
}
