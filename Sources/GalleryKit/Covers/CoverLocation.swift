import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where an album's cover comes from, decided by its `cover_url`: the adapter the facade uses.
public enum CoverLocation: Sendable, Hashable {
    /// A file inside the site folder (a path relative to `content/`, or a `file://` URL).
    case file(URL)
    /// An `http` or `https` URL.
    case remote(URL)

    /// Why a `cover_url` cannot be used.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// The reason, in words, with what to do.
        public var reason: String
        public var description: String { reason }
    }

    /// Resolves a `cover_url` against a site folder, refusing what would leave it.
    ///
    /// Prefer ``CoverLocator`` for many covers: it resolves the site folder's real path once.
    ///
    /// - Relative paths are relative to `content/`; `..` may move within the site folder but not
    ///   out of it, and symbolic links are followed before deciding.
    /// - `file://` URLs must point inside the site folder.
    /// - Absolute paths and other schemes are refused.
    public static func resolve(_ coverURL: String, in site: SiteFolder) -> Result<CoverLocation, Refusal> {
        CoverLocator(site: site).locate(coverURL)
    }
}

/// Resolves `cover_url`s against one site folder; see ``CoverLocation/resolve(_:in:)``.
public struct CoverLocator: Sendable {
    /// The site folder.
    public let site: SiteFolder
    /// The site folder's real path (symbolic links resolved).
    let root: String

    /// A locator for a site folder.
    public init(site: SiteFolder) {
        self.site = site
        self.root = Self.realPath(site.root.path) ?? site.root.path
    }

    /// Where a `cover_url` points, or why it is refused.
    public func locate(_ coverURL: String) -> Result<CoverLocation, CoverLocation.Refusal> {
        locateNamed(coverURL).location
    }

    /// Where a `cover_url` points, and, for a local file, the path it is named by as written,
    /// its symbolic links not followed (`content/covers/a.png`, a link to `a-v2.png`): what a
    /// build's stamp looks at, so that a link pointed elsewhere is seen as a change.
    public func locateNamed(_ coverURL: String) -> (location: Result<CoverLocation, CoverLocation.Refusal>, written: String?) {
        switch written(coverURL) {
        case .success(.file(let url)):
            let path = url.standardizedFileURL.path
            return (inside(url, path: path), path)
        case let other:
            return (other, nil)
        }
    }

    /// The cover's URL, or the local file it names before links are resolved and checked.
    private func written(_ coverURL: String) -> Result<CoverLocation, CoverLocation.Refusal> {
        typealias Refusal = CoverLocation.Refusal
        let trimmed = coverURL.trimmingCharacters(in: .whitespaces)
        if let scheme = scheme(of: trimmed) {
            switch scheme {
            case "http", "https":
                guard let url = URL(string: trimmed), url.host?.isEmpty == false else {
                    return .failure(Refusal(reason: "'\(coverURL)' is not a valid URL"))
                }
                if let port = url.port, !Self.ports.contains(port) {
                    return .failure(Refusal(reason: "'\(coverURL)' names port \(port), but ports run from 1 to 65535"))
                }
                return .success(.remote(url))
            case "file":
                // `file:covers/a.png` is no file URL: it would be read from wherever gallery runs.
                guard trimmed.lowercased().hasPrefix("file://") else {
                    return .failure(Refusal(reason: "'\(coverURL)' is not a file URL; write file:///path/inside/the/site (three slashes), or the path relative to content/ without file:"))
                }
                guard let url = URL(string: trimmed), url.isFileURL else {
                    return .failure(Refusal(reason: "'\(coverURL)' is not a valid file URL"))
                }
                if let host = url.host, !host.isEmpty, host != "localhost" {
                    return .failure(Refusal(reason: "file URLs must not name a host ('\(host)')"))
                }
                return .success(.file(url))
            default:
                return .failure(Refusal(reason: "the scheme '\(scheme):' is not supported; use a path relative to content/, a file:// URL inside the site folder, or an http(s):// URL"))
            }
        }
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("~") {
            return .failure(Refusal(reason: "absolute paths are refused ('\(coverURL)'); put the image under content/ and give its path relative to content/"))
        }
        let decoded = trimmed.removingPercentEncoding ?? trimmed
        return .success(.file(site.content.appending(path: decoded)))
    }

    /// The ports a URL may name. Foundation parses any number after the colon; SwiftNIO traps
    /// on one that does not fit in 16 bits, so a cover URL (or a redirect) must be checked first.
    static let ports = 1...65535

    private func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        // A one-letter "scheme" is a Windows drive (C:\covers), which we treat as a path.
        guard candidate.count > 1, let first = candidate.first, first.isLetter,
              candidate.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        return candidate.lowercased()
    }

    private func inside(_ url: URL, path: String) -> Result<CoverLocation, CoverLocation.Refusal> {
        // A missing file has no real path; resolve its folder and keep the name, so the caller
        // can say "no such file" about a path that is known to stay inside.
        let target = Self.realPath(path)
            ?? Self.realPath(url.deletingLastPathComponent().path).map { $0 + "/" + url.lastPathComponent }
            ?? path
        guard target == root || target.hasPrefix(root + "/") else {
            return .failure(CoverLocation.Refusal(reason: "the cover path leads outside the site folder (to \(target)); covers must live inside the site folder"))
        }
        return .success(.file(URL(fileURLWithPath: target)))
    }

    /// The path with every symbolic link and `..` resolved, or `nil` if it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
