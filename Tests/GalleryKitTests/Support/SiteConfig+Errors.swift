import GalleryKit

extension SiteConfig {
    /// The messages of a `gallery.toml` that does not load; none when it loads, so comparing
    /// them with the expected errors also fails for a file that was wrongly accepted.
    static func errors(toml: String) -> [String] {
        do {
            _ = try parse(toml: toml, path: "gallery.toml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }
}
