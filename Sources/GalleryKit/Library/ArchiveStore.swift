import Foundation

/// Loads and saves the album archive, `content/albums.json`: the seed's PersistencyManager.
///
/// Saving is atomic (temporary file, `fsync`, rename), so a crash leaves the old archive or the
/// new one, never a mix.
public struct ArchiveStore: Sendable {
    /// The archive file.
    public let url: URL
    /// How messages name it.
    public let displayPath: String

    /// A store for the archive of a site folder.
    public init(site: SiteFolder) {
        self.url = site.archive
        self.displayPath = site.display(site.archive)
    }

    /// A store for an archive file anywhere.
    public init(url: URL, displayPath: String? = nil) {
        self.url = url.standardizedFileURL
        self.displayPath = displayPath ?? SiteFolder.display(url)
    }

    /// Reads and checks the archive.
    ///
    /// - Returns: The archive and any warnings.
    /// - Throws: ``ArchiveError`` naming every problem, or that there is no archive (suggesting
    ///   `gallery init`).
    public func load() throws(ArchiveError) -> (archive: AlbumArchive, warnings: [Diagnostic]) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) {
                throw ArchiveError([.error(
                    "there is no album archive here; run `gallery init DIR` to start a new site, or pass --site DIR to build one elsewhere",
                    path: displayPath
                )])
            }
            throw ArchiveError([.error("cannot read the archive: \(error.localizedDescription)", path: displayPath)])
        }
        return try AlbumArchive.decode(Array(data), path: displayPath)
    }

    /// Writes the archive atomically, creating `content/` if needed.
    public func save(_ archive: AlbumArchive) throws(AtomicFile.WriteError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AtomicFile.WriteError(path: displayPath, reason: error.localizedDescription)
        }
        try AtomicFile.write(archive.encoded(), to: url)
    }
}
