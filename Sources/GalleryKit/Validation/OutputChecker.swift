import Foundation

/// Checks a finished output folder as a whole, for `gallery check DIR`.
///
/// Every regular file is listed (symbolic links are not followed out of the folder); pages are
/// validated as XHTML, the carousel SVG against its schema, other SVGs and XML files for
/// well-formedness, JSON files for syntax; every internal reference (style sheets' `url()`s too)
/// must land on a listed file.
public enum OutputChecker {
    /// Why a folder could not be checked at all.
    public struct CheckError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public enum Reason: Sendable, Hashable {
            /// There is no folder at the path.
            case notAFolder
            /// The path is a file, not a folder.
            case aFile
            /// The folder holds no page: it is not a built site.
            case noPages
            /// The folder could not be listed; the system's reason.
            case unreadable(String)
        }

        /// The folder, as the user gave it.
        public var path: String
        /// What went wrong.
        public var reason: Reason

        /// What went wrong and what to do, without the path.
        public var message: String {
            switch reason {
            case .notAFolder: "no such folder; build the site first, or name its output folder"
            case .aFile: "this is a file; name the output folder of a built site"
            case .noPages: "no page to check (no .html file); build the site first, or name its output folder"
            case .unreadable(let why): "cannot be listed: \(why)"
            }
        }

        public var description: String { "\(path): \(message)" }
    }

    /// Checks every file under `outputFolder` in parallel and returns the findings sorted by path,
    /// then position.
    ///
    /// - Parameters:
    ///   - basePath: The path part of the site's base URL; root-relative links resolve against it.
    ///   - displayPrefix: What diagnostics put before each file's relative path: the folder as the
    ///     user typed it (`public` gives `public/albums/x/index.html:12:7: error: …`). By default,
    ///     the folder URL's relative path.
    ///
    /// Files at `publishedAsIs` (the paths of the site's `static/` files) are not checked, only
    /// counted as link targets: a build copies them as they are, as Hugo does (a search console's
    /// `google123.html` is not XHTML), so a check that faulted them would fail a good build.
    public static func check(outputFolder: URL, basePath: String = "/", displayPrefix: String? = nil, publishedAsIs: Set<String> = []) throws(CheckError) -> [Diagnostic] {
        try inspect(outputFolder: outputFolder, basePath: basePath, displayPrefix: displayPrefix, publishedAsIs: publishedAsIs).diagnostics
    }

    /// What ``check(outputFolder:basePath:displayPrefix:publishedAsIs:)`` found, and how many
    /// pages it checked and files it saw, for `gallery check` to say what it looked at.
    public static func inspect(outputFolder: URL, basePath: String = "/", displayPrefix: String? = nil, publishedAsIs: Set<String> = []) throws(CheckError) -> (diagnostics: [Diagnostic], pages: Int, files: Int) {
        let prefix = displayPrefix ?? outputFolder.relativePath
        let listing = try OutputListing(folder: outputFolder, displayPrefix: prefix)
        guard listing.files.contains(where: { isPage($0) && !publishedAsIs.contains($0) }) else { throw CheckError(path: prefix, reason: .noPages) }
        let validator = PageValidator(outputPaths: Set(listing.files), basePath: basePath)
        let collected = Collected(count: listing.files.count)
        DispatchQueue.concurrentPerform(iterations: listing.files.count) { index in
            let relative = listing.files[index]
            var diagnostics = publishedAsIs.contains(relative) ? [] : check(relative, in: outputFolder, with: validator)
            let display = listing.display(relative)
            for index in diagnostics.indices { diagnostics[index].path = display }
            collected.store(diagnostics, at: index)
        }
        let pages = listing.files.count { isPage($0) && !publishedAsIs.contains($0) }
        return ((listing.diagnostics + collected.all).sorted(by: inReadingOrder), pages, listing.files.count)
    }

    /// Whether a file is checked as a page (XHTML).
    static func isPage(_ relative: String) -> Bool {
        ["html", "htm", "xhtml"].contains((relative as NSString).pathExtension.lowercased())
    }

    /// Validates one file by its extension; files of other kinds only count as link targets.
    static func check(_ relative: String, in folder: URL, with validator: PageValidator) -> [Diagnostic] {
        let kind = (relative as NSString).pathExtension.lowercased()
        guard ["html", "htm", "xhtml", "svg", "xml", "json", "css"].contains(kind) else { return [] }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: folder.appending(path: relative), options: .mappedIfSafe))
        } catch {
            return [.error("cannot be read: \(error.localizedDescription)", path: relative)]
        }
        switch kind {
        case "svg":
            return validator.validateAnySVG(bytes, path: relative)
        case "xml":
            return validator.validateWellFormed(bytes, path: relative)
        case "css":
            return validator.validateStylesheet(bytes, path: relative)
        case "json":
            // gallery's own parser, for the line and column (Foundation's says "around
            // character 33619").
            do throws(JSONParser.SyntaxError) {
                _ = try JSONParser.parse(bytes)
                return []
            } catch {
                return [.error("is not valid JSON: \(error.message)", path: relative, at: error.position)]
            }
        default:
            return validator.validateXHTML(bytes, path: relative)
        }
    }

    /// Path, then position (file-wide findings first), then message.
    static func inReadingOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        if lhs.path != rhs.path { return lhs.path < rhs.path }
        switch (lhs.position, rhs.position) {
        case (nil, .some): return true
        case (.some, nil): return false
        case let (left?, right?) where left != right: return left < right
        default: return lhs.message < rhs.message
        }
    }

    /// The per-file results of the parallel loop, each stored once under a lock.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [[Diagnostic]]

        init(count: Int) {
            results = Array(repeating: [], count: count)
        }

        func store(_ diagnostics: [Diagnostic], at index: Int) {
            lock.withLock { results[index] = diagnostics }
        }

        var all: [Diagnostic] {
            lock.withLock { results.flatMap { $0 } }
        }
    }
}
