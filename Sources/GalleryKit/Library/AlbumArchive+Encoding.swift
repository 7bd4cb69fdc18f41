extension AlbumArchive {
    /// The archive as the store writes it: two-space indented, keys in a fixed order (an
    /// album's keys that gallery does not use last, as they came), one album per object, ending with a newline.
    /// The same albums always give the same bytes, so the archive diffs well under version
    /// control.
    ///
    /// Top-level keys gallery does not use stand between `"version"` and `"albums"`, as they
    /// came: above the long list, where a note about the archive is seen.
    public func encoded() -> [UInt8] {
        var text = "{\n  \"version\": \(Self.currentVersion),\n"
        for extra in extras { text += "  \(Escape.jsonString(extra.key)): \(extra.json),\n" }
        text += "  \"albums\": ["
        for (offset, album) in albums.enumerated() {
            text += offset == 0 ? "\n" : ",\n"
            text += "    {\n"
            text += "      \"title\": \(Escape.jsonString(album.title)),\n"
            text += "      \"artist\": \(Escape.jsonString(album.artist)),\n"
            text += "      \"genre\": \(Escape.jsonString(album.genre)),\n"
            text += "      \"year\": \(album.year),\n"
            text += "      \"cover_url\": \(Escape.jsonString(album.coverURL))"
            if let slug = album.slug { text += ",\n      \"slug\": \(Escape.jsonString(slug))" }
            for extra in album.extras { text += ",\n      \(Escape.jsonString(extra.key)): \(extra.json)" }
            text += "\n    }"
        }
        text += albums.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Array(text.utf8)
    }
}
