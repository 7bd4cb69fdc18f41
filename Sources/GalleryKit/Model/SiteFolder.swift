import Foundation

/// The places in a site folder: `content/albums.json`, `gallery.toml`, `templates/`, `assets/`,
/// and the output folder.
public struct SiteFolder: Sendable, Hashable {
    /// The site folder itself.
    public let root: URL

    /// Creates a site folder at `root` (made absolute and standardised).
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// `content/`: the archive and local covers.
    public var content: URL { root.appending(path: "content", directoryHint: .isDirectory) }
    /// `content/albums.json`: the album archive.
    public var archive: URL { content.appending(path: "albums.json") }
    /// `gallery.toml`: the settings (optional).
    public var configFile: URL { root.appending(path: "gallery.toml") }
    /// `templates/`: template overrides (optional).
    public var templates: URL { root.appending(path: "templates", directoryHint: .isDirectory) }
    /// `assets/`: stylesheet, script and other files overriding or adding to the built-in assets.
    public var assets: URL { root.appending(path: "assets", directoryHint: .isDirectory) }

    /// The output folder: `output` if given (relative to the current directory), else the
    /// configured folder relative to the site.
    public func output(configured: String, override: URL?) -> URL {
        if let override { return override.standardizedFileURL }
        return root.appending(path: configured, directoryHint: .isDirectory).standardizedFileURL
    }

    /// How messages name a file: relative to the current directory when it is inside it, else
    /// the absolute path.
    public func display(_ url: URL) -> String {
        Self.display(url)
    }

    /// How messages name any file: relative to the current directory when inside it.
    public static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath
        if path == current { return "." }
        if path.hasPrefix(current + "/") { return String(path.dropFirst(current.count + 1)) }
        return path
    }
}
