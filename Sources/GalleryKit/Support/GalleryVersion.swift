/// gallery's version, for `--version` and the HTTP User-Agent.
public enum GalleryVersion {
    /// The version string.
    public static let current = "0.1.0"
}
