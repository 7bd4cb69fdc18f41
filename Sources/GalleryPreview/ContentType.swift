/// The `Content-Type` of a served file, by its extension.
public enum ContentType {
    /// Types by lowercased extension; text types say their charset, since every text file a
    /// build writes is UTF-8.
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "json": "application/json",
        "xml": "application/xml",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "webmanifest": "application/manifest+json",
        "map": "application/json",
        "csv": "text/csv; charset=utf-8",
        "md": "text/markdown; charset=utf-8",
        "markdown": "text/markdown; charset=utf-8",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "wasm": "application/wasm",
        "mp3": "audio/mpeg",
        "m4a": "audio/mp4",
        "ogg": "audio/ogg",
        "oga": "audio/ogg",
        "wav": "audio/wav",
        "flac": "audio/flac",
        "mp4": "video/mp4",
        "m4v": "video/mp4",
        "webm": "video/webm",
        "ttf": "font/ttf",
        "otf": "font/otf",
    ]

    /// The type for a file path: by its extension; `text/plain` for a name without one (`CNAME`,
    /// `LICENSE`, `.nojekyll`: the files a static site carries for its host are text);
    /// `application/octet-stream` for extensions not in the table.
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "text/plain; charset=utf-8" }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Whether a type is an HTML page (which gets the reload script when served).
    public static func isHTML(_ type: String) -> Bool {
        type.hasPrefix("text/html")
    }
}
