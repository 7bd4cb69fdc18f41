import Foundation

/// The one door to a site's albums and covers: the seed's `LibraryAPI` facade.
///
/// Albums come from the archive store; covers from ``cover(for:)``, whichever source the album's
/// `cover_url` names. Callers never learn whether a cover came from the network, the cache or a
/// local file.
public struct Library: Sendable {
    /// The site folder.
    public let site: SiteFolder
    /// The archive.
    public let store: ArchiveStore
    /// Resolves local cover paths.
    let locator: CoverLocator

    /// A library for a site folder.
    public init(site: SiteFolder) {
        self.site = site
        self.store = ArchiveStore(site: site)
        self.locator = CoverLocator(site: site)
    }

    /// The albums with their slugs.
    ///
    /// - Returns: The catalogue and any warnings.
    /// - Throws: ``ArchiveError`` for a missing or invalid archive.
    public func catalogue() throws(ArchiveError) -> (catalogue: Catalogue, warnings: [Diagnostic]) {
        let (archive, warnings) = try store.load()
        return (Catalogue(albums: archive.albums, positions: archive.positions), warnings)
    }

    /// The cover of an album.
    public func cover(for album: Album) async -> Result<Cover, CoverFailure> {
        switch locator.locate(album.coverURL) {
        case .failure(let refusal):
            return .failure(CoverFailure(url: album.coverURL, reason: refusal.reason))
        case .success(.file(let url)):
            return Self.localCover(at: url, url: album.coverURL)
        case .success(.remote):
            return .failure(CoverFailure(url: album.coverURL, reason: "remote covers are not fetched yet; download the image into content/ and point cover_url at it"))
        }
    }

    /// Reads and checks a cover file inside the site folder.
    static func localCover(at file: URL, url: String) -> Result<Cover, CoverFailure> {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: file.path)
            return .failure(CoverFailure(url: url, reason: missing ? "no such file (\(SiteFolder.display(file))); check the path, which is relative to content/" : "cannot read \(SiteFolder.display(file)): \(error.localizedDescription)"))
        }
        guard let kind = ImageKind.sniff(data) else {
            return .failure(CoverFailure(url: url, reason: "\(SiteFolder.display(file)) is not a JPEG, PNG, WebP, GIF or SVG image"))
        }
        return .success(Cover(file: file, kind: kind, contentHash: ContentHash.of(data), size: data.count))
    }
}
