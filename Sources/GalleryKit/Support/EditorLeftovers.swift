/// The files editors leave beside the one being edited, which are never meant to be published
/// nor to start a rebuild: backups (`site.css~`, Emacs's `#site.css#`), Vim's swap files
/// (`.site.css.swp`, `.swo`, `.swx`), Emacs's lock links (`.#site.css`), and gallery's own
/// files on their way to a rename (`.x.tmp-…`).
public enum EditorLeftovers {
    /// Whether a file of this name (its last path component) is such a file.
    public static func contains(_ name: some StringProtocol) -> Bool {
        if name.hasSuffix("~") || (name.count > 1 && name.hasPrefix("#") && name.hasSuffix("#")) { return true }
        guard name.hasPrefix(".") else { return false }
        return name.hasPrefix(".#") || name.hasSuffix(".swp") || name.hasSuffix(".swo") || name.hasSuffix(".swx") || name.contains(".tmp-")
    }
}
