import Foundation

/// The files built into the binary: the default templates, assets, schemas and starter content.
public enum BuiltinResources {
    /// The relative paths of every built-in file, sorted.
    public static var paths: [String] { EmbeddedResources.files.keys.sorted() }

    /// The bytes of a built-in file, or `nil` if there is none at `path` (e.g. `"assets/gallery.css"`).
    public static func data(at path: String) -> Data? {
        switch EmbeddedResources.files[path] {
        case .text(let text)?: Data(text.utf8)
        case .base64(let encoded)?: Data(base64Encoded: encoded)
        case nil: nil
        }
    }

    /// The text of a built-in file, or `nil` if there is none or it is binary.
    public static func text(at path: String) -> String? {
        if case .text(let text)? = EmbeddedResources.files[path] { return text }
        return nil
    }

    /// The built-in files under a folder (`"templates/"`), as (path relative to that folder, path).
    public static func files(under folder: String) -> [(name: String, path: String)] {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return paths.filter { $0.hasPrefix(prefix) }.map { (String($0.dropFirst(prefix.count)), $0) }
    }
}
