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
        // Gzipped SVG: the type of what it unpacks to, with `Content-Encoding: gzip`.
        "svgz": "image/svg+xml",
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
        // What else a label's or shop's static/ may carry: captions for a clip (Firefox plays no
        // text track sent as anything but text/vtt), feeds, calendars, other audio, video and
        // images, and downloads.
        "vtt": "text/vtt; charset=utf-8",
        "srt": "application/x-subrip",
        "ogv": "video/ogg",
        "opus": "audio/ogg",
        "aac": "audio/aac",
        "mov": "video/quicktime",
        "xhtml": "application/xhtml+xml",
        "tsv": "text/tab-separated-values; charset=utf-8",
        "rss": "application/rss+xml",
        "atom": "application/atom+xml",
        "ics": "text/calendar; charset=utf-8",
        "bmp": "image/bmp",
        "tif": "image/tiff",
        "tiff": "image/tiff",
        "apng": "image/apng",
        "jxl": "image/jxl",
        "heic": "image/heic",
        "heif": "image/heif",
        "eot": "application/vnd.ms-fontobject",
        "gz": "application/gzip",
        // What a music site ships besides: playlists, which a player opens only when they come
        // as playlists (as octet-stream they were downloaded), MIDI, WebM audio, and the XSLT
        // stylesheet of a styled feed, which browsers apply only when it is sent as text/xsl.
        "m3u": "audio/x-mpegurl",
        "m3u8": "application/vnd.apple.mpegurl",
        "pls": "audio/x-scpls",
        "mid": "audio/midi",
        "midi": "audio/midi",
        "weba": "audio/webm",
        "xsl": "text/xsl",
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
