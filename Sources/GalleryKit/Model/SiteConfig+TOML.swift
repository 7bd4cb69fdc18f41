import Foundation
import TOMLKit

extension SiteConfig {
    /// Reads a site folder's `gallery.toml`, or the defaults when there is none.
    public static func load(from site: SiteFolder) throws(ArchiveError) -> (config: SiteConfig, warnings: [Diagnostic]) {
        try load(from: site, contents: FileManager.default.contents(atPath: site.configFile.path).map { Array($0) })
    }

    /// Reads a site folder's `gallery.toml` from bytes already read (`nil`: they could not be),
    /// or the defaults when there is no such file.
    public static func load(from site: SiteFolder, contents: [UInt8]?) throws(ArchiveError) -> (config: SiteConfig, warnings: [Diagnostic]) {
        guard let contents else {
            guard FileManager.default.fileExists(atPath: site.configFile.path) else { return (SiteConfig(), []) }
            throw ArchiveError([.error("cannot read gallery.toml: \(ReadFailure.reason(readingFileAt: site.configFile.path))", path: site.display(site.configFile))])
        }
        guard let text = String(validating: contents, as: UTF8.self) else {
            let problem = TextEncodingProblem.find(in: contents)
            throw ArchiveError([.error(problem?.message("gallery.toml") ?? "cannot read gallery.toml as UTF-8 text", path: site.display(site.configFile), at: problem?.position)])
        }
        return try parse(toml: text, path: site.display(site.configFile))
    }

    /// Where `gallery.toml` sets a key, for a finding made after it was read: the file is read
    /// again, so call it only when there is something to report.
    static func position(of key: String, in section: String, site: SiteFolder) -> SourcePosition? {
        guard let bytes = FileManager.default.contents(atPath: site.configFile.path) else { return nil }
        return TOMLReader(text: String(decoding: bytes, as: UTF8.self), path: "").position(of: key, in: section)
    }

    /// Reads `gallery.toml` text. Unknown keys give warnings (a typo should not pass silently),
    /// wrong types and out-of-range values give errors.
    ///
    /// - Returns: The settings and any warnings.
    /// - Throws: ``ArchiveError`` holding every error found (the type carries diagnostics for any file).
    public static func parse(toml text: String, path: String) throws(ArchiveError) -> (config: SiteConfig, warnings: [Diagnostic]) {
        let bytes = Array(text.utf8)
        if let problem = controlCharacterProblem(in: bytes) ?? escapedNULProblem(in: bytes) ?? tableHeaderProblem(in: bytes) {
            throw ArchiveError([.error(problem.message, path: path, at: problem.position)])
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let position = SourcePosition(line: error.source.begin.line, column: error.source.begin.column)
            // toml++ words a string left open as "unescaped control characters…" (it read on to
            // the line's end); say what the user most likely did.
            let line = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }.dropFirst(max(0, position.line - 1)).first ?? ""
            let quotes = line.prefix { $0 != "#" }.filter { $0 == "\"" }.count
            let hint = error.description.contains("unescaped control characters") && quotes % 2 == 1 ? "; is a closing quote missing?" : ""
            throw ArchiveError([.error("malformed TOML: \(error.description)\(hint)", path: path, at: position)])
        } catch {
            throw ArchiveError([.error("malformed TOML: \(error)", path: path)])
        }
        var reader = TOMLReader(text: text, path: path)
        var config = SiteConfig()
        // gallery's names and Hugo's: with both, Hugo's is not read (in sorted order it came
        // last for language, and won, while the warning said language was used).
        var shadowed: Set<String> = []
        for (ours, hugos) in [("base_url", "baseURL"), ("language", "languageCode")] where table.contains(key: ours) && table.contains(key: hugos) {
            reader.diagnostics.append(.warning("both \(ours) and \(hugos) (Hugo's name for it) are set; \(ours) is used, so delete one", path: path, at: reader.position(of: hugos, in: nil)))
            shadowed.insert(hugos)
        }
        reader.read(table, section: nil) { reader, key, value in
            if shadowed.contains(key) { return true }
            switch key {
            case "title":
                guard let title = reader.string(value, key: key) else { return true }
                if title.allSatisfy(\.isWhitespace) {
                    reader.error("title is empty; every page's <title> and header show it, so give the site a name", key: key, section: nil)
                } else {
                    config.title = title
                }
            case "description": reader.string(value, key: key).map { config.description = $0 }
            case "base_url", "baseURL":
                guard let url = reader.string(value, key: key) else { return true }
                if let problem = SiteConfig.baseURLProblem(url) {
                    reader.error("\(key) \(problem)", key: key, section: nil)
                } else {
                    config.baseURL = SiteConfig.normalizedBaseURL(url)
                }
            case "language", "languageCode":
                guard let language = reader.string(value, key: key) else { return true }
                if SiteConfig.isLanguageTag(language) {
                    config.language = language
                } else {
                    reader.error("\(key) is \"\(language)\"; it must be a language tag, such as en, fr or pt-BR", key: key, section: nil)
                }
            case "carousel":
                guard let section = reader.table(value, key: key) else { return true }
                reader.read(section, section: "carousel") { reader, key, value in
                    let carousel = "carousel"
                    switch key {
                    case "padding": reader.int(value, key: key, section: carousel, in: 0...10_000).map { config.carousel.metrics.padding = $0 }
                    case "dimension": reader.int(value, key: key, section: carousel, in: 1...1024).map { config.carousel.metrics.dimension = $0 }
                    case "offset": reader.int(value, key: key, section: carousel, in: 0...100_000).map { config.carousel.metrics.offset = $0 }
                    case "window": reader.int(value, key: key, section: carousel, in: 0...10_000).map { config.carousel.window = $0 }
                    case "index_page_size": reader.int(value, key: key, section: carousel, in: 1...1_000_000).map { config.carousel.indexPageSize = $0 }
                    case "initial_album":
                        if let number = value.int {
                            config.carousel.initialAlbum = .number(number)
                        } else if let slug = value.string {
                            config.carousel.initialAlbum = .slug(slug)
                        } else {
                            reader.error("[carousel] initial_album must be an album number (1 is the first) or a slug", key: key, section: carousel)
                        }
                    default: return false
                    }
                    return true
                }
            case "build":
                guard let section = reader.table(value, key: key) else { return true }
                reader.read(section, section: "build") { reader, key, value in
                    switch key {
                    case "output": reader.string(value, key: key, section: "build").map { config.build.output = $0 }
                    case "cache": reader.string(value, key: key, section: "build").map { config.build.cache = $0 }
                    default: return false
                    }
                    return true
                }
            case "covers":
                guard let section = reader.table(value, key: key) else { return true }
                reader.read(section, section: "covers") { reader, key, value in
                    let covers = "covers"
                    switch key {
                    case "concurrency": reader.int(value, key: key, section: covers, in: 1...256).map { config.covers.policy.concurrency = $0 }
                    case "per_host": reader.int(value, key: key, section: covers, in: 1...256).map { config.covers.policy.perHost = $0 }
                    case "connect_timeout": reader.int(value, key: key, section: covers, in: 1...3600).map { config.covers.policy.connectTimeout = .seconds($0) }
                    case "read_timeout": reader.int(value, key: key, section: covers, in: 1...3600).map { config.covers.policy.readTimeout = .seconds($0) }
                    case "timeout": reader.int(value, key: key, section: covers, in: 1...3600).map { config.covers.policy.totalTimeout = .seconds($0) }
                    case "max_redirects": reader.int(value, key: key, section: covers, in: 0...20).map { config.covers.policy.maxRedirects = $0 }
                    case "max_bytes": reader.int(value, key: key, section: covers, in: 1024...1_000_000_000).map { config.covers.policy.maxBodyBytes = $0 }
                    case "retries": reader.int(value, key: key, section: covers, in: 0...10).map { config.covers.policy.retries = $0 }
                    case "private_hosts": reader.choice(value, key: key, section: covers, of: PrivateHosts.self).map { config.covers.policy.privateHosts = $0 }
                    default: return false
                    }
                    return true
                }
            case "thumbnails":
                guard let section = reader.table(value, key: key) else { return true }
                reader.readThumbnails(section, into: &config.thumbnails)
            case "analytics":
                guard let section = reader.table(value, key: key) else { return true }
                config.analytics = reader.readAnalytics(section)
            case "text":
                guard let section = reader.table(value, key: key) else { return true }
                reader.readText(section, into: &config.text)
            case "params":
                guard let section = reader.table(value, key: key) else { return true }
                reader.readParams(section, into: &config.params)
            case "library":
                guard let section = reader.table(value, key: key) else { return true }
                reader.read(section, section: "library") { reader, key, value in
                    switch key {
                    case "undo_limit": reader.int(value, key: key, section: "library", in: 0...100_000).map { config.library.undoLimit = $0 }
                    default: return false
                    }
                    return true
                }
            default: return false
            }
            return true
        }
        // A language other than English without the words: the pages would be English words
        // marked as that language, which a screen reader reads with the wrong voice. A note,
        // not a warning: a theme may write its own words (and --strict failed sites that passed),
        // and none for und, zxx and mul, which name no one language.
        if let key = ["language", "languageCode"].first(where: { table.contains(key: $0) }),
           let primary = config.language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first?.lowercased(),
           !["en", "und", "zxx", "mul"].contains(primary) {
            let missing = SiteText.entries.map(\.name).filter { config.text.given[$0] == nil }
            if config.text.given.isEmpty {
                reader.diagnostics.append(.note(
                    "\(key) is \"\(config.language)\", but [text] gives none of the words gallery puts on pages, so they are English (\"Previous album\", \"Artist\"…) on pages marked as \(config.language), which screen readers read in its voice; give them under [text] (README.md's \"Pages in another language\" lists them)",
                    path: path, at: reader.position(of: key, in: nil)))
            } else if !missing.isEmpty {
                // A word added in a later version, which a translated [text] does not have yet.
                let named = missing.prefix(4).map { "\($0) (\"\(SiteText.byName[$0]?.english ?? "")\")" }.joined(separator: ", ") + (missing.count > 4 ? " and \(missing.count - 4) more" : "")
                reader.diagnostics.append(.note(
                    "[text] gives no \(named), so \(missing.count == 1 ? "it stays" : "they stay") English on pages marked as \(config.language); give \(missing.count == 1 ? "it" : "them") under [text] (README.md's \"Pages in another language\" lists the words)",
                    path: path, at: reader.position(of: key, in: nil)))
            }
        }
        // Keys are read in sorted order; findings are told in the order of the file's lines.
        let findings = reader.diagnostics.sorted { ($0.position?.line ?? 0) < ($1.position?.line ?? 0) }
        if findings.containsErrors { throw ArchiveError(findings) }
        return (config, findings)
    }
}

/// Reads typed values out of TOMLKit tables and words findings with the key's line.
struct TOMLReader {
    let lines: [Substring]
    let path: String
    var diagnostics: [Diagnostic] = []

    init(text: String, path: String) {
        // A Character "\r\n" is no "\n": a file saved on Windows was one line, and its findings lost their line numbers.
        self.lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        self.path = path
    }

    /// Calls `handle` for each key; a key it does not know (returns false) gets a warning.
    mutating func read(_ table: TOMLTable, section: String?, handle: (inout TOMLReader, String, any TOMLValueConvertible) -> Bool) {
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            if !handle(&self, key, value) {
                let name = section.map { "[\($0)] \(key)" } ?? key
                let known = Self.documentedKeys[section ?? ""] ?? []
                // A key of another section, written above every section header or under
                // another one (`padding = 5` at the top): where it belongs.
                let home = Self.documentedKeys.filter { $0.key != (section ?? "") && !$0.key.isEmpty && $0.value.contains(key) }.keys.sorted().first
                let topLevel = section != nil && (Self.documentedKeys[""] ?? []).contains(key)
                let hint: String
                if let nearest = Spelling.nearest(key, among: known) {
                    hint = "; did you mean \(nearest)?"
                } else if topLevel {
                    hint = "; \(key) is a top-level setting: put it above the first [section] line"
                } else if let home {
                    hint = "; \(key) is a setting of [\(home)]: put it below that line"
                } else {
                    hint = "; README.md lists every gallery.toml key"
                }
                diagnostics.append(.warning("unknown setting \(name) is ignored\(hint)", path: path, at: position(of: key, in: section)))
            }
        }
    }

    /// The keys of each section (`""`: the top level, whose keys include the sections), as the
    /// starter `gallery.toml` shows them, commented-out ones too: the names a misspelt key is
    /// compared with.
    static let documentedKeys: [String: Set<String>] = {
        var keys: [String: Set<String>] = ["": ["baseURL", "languageCode"]]
        var section = ""
        for line in (BuiltinResources.text(at: "gallery.toml") ?? "").split(separator: "\n") {
            var text = line.drop { $0 == " " }
            if text.hasPrefix("#") { text = text.dropFirst().drop { $0 == " " } }
            if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
                section = String(text[text.index(after: text.startIndex)..<end])
                keys[""]?.insert(section)
            } else if let equals = text.range(of: " = ") {
                let key = text[..<equals.lowerBound]
                if !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "_" }) { keys[section, default: []].insert(String(key)) }
            }
        }
        // [text]'s words are listed in the README, not in the starter file.
        keys["text", default: []].formUnion(SiteText.names)
        return keys
    }()

    /// The line where `key` is set, found by looking for `key =` inside its section.
    func position(of key: String, in section: String?) -> SourcePosition? {
        var current: String?
        for (number, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") {
                current = String(trimmed.dropFirst().prefix { $0 != "]" }).trimmingSpaces()
                continue
            }
            guard current == section else { continue }
            // A bare key, or a quoted one ("label name" = …), which is how a key with a space is written.
            for written in [key, "\"" + key + "\"", "'" + key + "'"] where trimmed.hasPrefix(written) {
                let rest = trimmed.dropFirst(written.count).drop { $0 == " " || $0 == "\t" }
                if rest.hasPrefix("=") {
                    return SourcePosition(line: number + 1, column: line.count - trimmed.count + 1)
                }
            }
        }
        // A key that is a section of its own: `[key]`, or `[section.key]` below a section, or
        // written as an array of tables (`[[key]]`), which gallery's sections are not.
        let header = "[" + (section.map { $0 + "." } ?? "") + key + "]"
        for (number, line) in lines.enumerated() where line.trimmingSpaces() == header || line.trimmingSpaces() == "[" + header + "]" {
            return SourcePosition(line: number + 1, column: 1)
        }
        if let section {
            for (number, line) in lines.enumerated() where line.trimmingSpaces() == "[\(section)]" {
                return SourcePosition(line: number + 1, column: 1)
            }
        }
        return nil
    }

    mutating func error(_ message: String, key: String, section: String?) {
        diagnostics.append(.error(message, path: path, at: position(of: key, in: section)))
    }

    mutating func string(_ value: any TOMLValueConvertible, key: String, section: String? = nil) -> String? {
        if let text = value.string {
            // Written as an escape (`"a\u0007b"`): XML has no such character, so pages show
            // U+FFFD in its place, as for an album's text. That was done without a word.
            if let bad = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r") || (0x7F...0x9F).contains($0.value) }) {
                let hex = String(bad.value, radix: 16, uppercase: true)
                diagnostics.append(.warning("\(section.map { "[\($0)] " } ?? "")\(key) holds the control character U+\(String(repeating: "0", count: 4 - hex.count) + hex), which no page can show, so pages show \u{FFFD} in its place; delete it", path: path, at: position(of: key, in: section)))
            }
            return text
        }
        error("\(section.map { "[\($0)] " } ?? "")\(key) must be a string in quotes", key: key, section: section)
        return nil
    }

    mutating func int(_ value: any TOMLValueConvertible, key: String, section: String, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.int else {
            // Said what it is instead, and how to write it: `1.0` and `"10"` read as numbers.
            let instead: String
            if let double = value.double {
                instead = double == double.rounded() && abs(double) < 1e15 ? ", not \(double); write \(Int(double)), without the point" : ", not \(double)"
            } else if let text = value.string {
                instead = Int(text.trimmingSpaces()) != nil ? ", not the text \"\(text.clippedForMessage)\"; write \(text.trimmingSpaces()), without quotes" : ", not the text \"\(text.clippedForMessage)\""
            } else {
                instead = ""
            }
            error("[\(section)] \(key) must be a whole number\(instead)", key: key, section: section)
            return nil
        }
        guard range.contains(number) else {
            error("[\(section)] \(key) is \(number); it must be from \(range.lowerBound) to \(range.upperBound)", key: key, section: section)
            return nil
        }
        return number
    }

    mutating func table(_ value: any TOMLValueConvertible, key: String) -> TOMLTable? {
        if let table = value.table { return table }
        let doubled = value.array != nil ? " with single brackets (it is written [[\(key)]])" : ""
        error("\(key) must be a section, [\(key)]\(doubled)", key: key, section: nil)
        return nil
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

extension TOMLReader {
    /// `[params]`: strings, numbers and true/false, each under a name a template can write.
    mutating func readParams(_ section: TOMLTable, into params: inout [String: Album.Param]) {
        read(section, section: "params") { reader, key, value in
            if let problem = Album.paramNameProblem(key) {
                reader.error(problem.replacingOccurrences(of: "{{album.params.NAME}}", with: "{{site.params.NAME}}"), key: key, section: "params")
                return true
            }
            if let text = value.string {
                params[key] = .text(Escape.xmlCharacters(text))
            } else if let flag = value.bool {
                params[key] = .flag(flag)
            } else if let number = value.int {
                params[key] = .number(String(number))
            } else if let number = value.double, number.isFinite {
                params[key] = .number(String(number))
            } else {
                reader.error("[params] \(key) must be a string in quotes, a number or true/false; a template shows it as {{site.params.\(key)}}", key: key, section: "params")
            }
            return true
        }
    }
}
