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
    /// Gets `http(s)://` covers; without one, remote covers fail with a hint.
    public let fetcher: (any CoverFetching)?
    /// How remote covers may use the network.
    public let fetchMode: FetchMode
    /// What earlier builds learnt of local cover files, so untouched ones are not hashed again.
    public let localMemo: LocalCoverMemo?

    /// A library for a site folder, with no way to fetch remote covers.
    public init(site: SiteFolder) {
        self.init(site: site, fetcher: nil)
    }

    /// A library for a site folder whose remote covers come through `fetcher`.
    ///
    /// The caller owns the fetcher and shuts it down; ``withRemoteCovers(site:mode:policy:cacheFolder:observer:isolation:_:)``
    /// does both for you.
    public init(site: SiteFolder, fetcher: (any CoverFetching)?, mode: FetchMode = .useCache, localMemo: LocalCoverMemo? = nil) {
        self.site = site
        self.store = ArchiveStore(site: site)
        self.locator = CoverLocator(site: site)
        self.fetcher = fetcher
        self.fetchMode = mode
        self.localMemo = localMemo
    }

    /// Runs `body` with a library that fetches remote covers into the site's cover cache, then
    /// shuts the fetcher down (writing the cache index), whether `body` returns or throws.
    ///
    /// - Parameters:
    ///   - cacheFolder: The cover cache; `.gallery-cache/covers/` in the site folder by default.
    ///   - observer: Receives the fetcher's `.cover` events.
    public static func withRemoteCovers<T>(
        site: SiteFolder,
        mode: FetchMode = .useCache,
        policy: CoverFetchPolicy = CoverFetchPolicy(),
        cacheFolder: URL? = nil,
        observer: any BuildObserving = SilentObserver(),
        localMemo: LocalCoverMemo? = nil,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Library) async throws -> T
    ) async rethrows -> T {
        let cache = CoverCache(folder: cacheFolder ?? CoverCache.defaultFolder(for: site))
        let fetcher = CoverFetcher(cache: cache, policy: policy, observer: observer)
        do {
            let result = try await body(Library(site: site, fetcher: fetcher, mode: mode, localMemo: localMemo))
            await fetcher.shutdown()
            return result
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    /// The albums with their slugs.
    ///
    /// - Returns: The catalogue and any warnings.
    /// - Throws: ``ArchiveError`` for a missing or invalid archive.
    public func catalogue() throws(ArchiveError) -> (catalogue: Catalogue, warnings: [Diagnostic]) {
        try catalogue(decoding: store.read())
    }

    /// The albums with their slugs, from archive bytes already read (``ArchiveStore/read()``).
    public func catalogue(decoding bytes: [UInt8]) throws(ArchiveError) -> (catalogue: Catalogue, warnings: [Diagnostic]) {
        do throws(ArchiveError) {
            let (archive, warnings) = try AlbumArchive.decode(bytes, path: store.displayPath)
            let catalogue = Catalogue(albums: archive.albums, positions: archive.positions)
            return (catalogue, warnings + Self.displacementWarnings(catalogue, path: store.displayPath))
        } catch {
            // A hand edit that broke the file: the copy a command kept is a good version to
            // compare with (the archive before the last library command).
            guard error.diagnostics.contains(where: { $0.message.hasPrefix("malformed JSON") }),
                  FileManager.default.fileExists(atPath: store.backup.path) else { throw error }
            let backup = SiteFolder.display(store.backup)
            throw ArchiveError(error.diagnostics + [.note("\(backup) is the archive before the last library command changed it, a version that was read well: `diff \(backup) \(store.displayPath)` shows the lines changed since", path: store.displayPath)])
        }
    }

    /// A warning for each album whose page another album's own slug moved (`gallery add --slug`
    /// refuses such a slug; an archive edited by hand got it without a word), at that slug.
    static func displacementWarnings(_ catalogue: Catalogue, path: String) -> [Diagnostic] {
        catalogue.displaced.map { moved in
            let taker = catalogue.entries[moved.by], lost = catalogue.entries[moved.index]
            return .warning(
                "album \(moved.by + 1), \(LibraryChange.name(taker.album)), has the slug \"\(taker.slug)\", which album \(moved.index + 1), \(LibraryChange.name(lost.album)), has from its artist and title, so that album's page is albums/\(lost.slug)/ instead; give album \(moved.by + 1) another slug, unless that is meant",
                path: path, at: taker.position
            )
        }
    }

    /// The cover of an album, from a file in the site folder, the cover cache or the network.
    ///
    /// Failures name the album's `cover_url` as written in the archive.
    public func cover(for album: Album) async -> Result<Cover, CoverFailure> {
        switch locator.locate(album.coverURL) {
        case .failure(let refusal):
            return .failure(CoverFailure(url: album.coverURL, reason: refusal.reason))
        case .success(.file(let url)):
            if let known = localMemo?.cover(at: url) { return .success(known) }
            let stamp = localMemo.flatMap { _ in FileStamp.of(url.path) }
            let result = Self.localCover(at: url, url: album.coverURL)
            if case .success(let cover) = result { localMemo?.record(cover, stamp: stamp) }
            return result
        case .success(.remote(let url)):
            guard let fetcher else {
                return .failure(CoverFailure(url: album.coverURL, reason: "remote covers are not fetched here; download the image into content/ and point cover_url at it"))
            }
            return await fetcher.cover(for: url, mode: fetchMode).mapError {
                CoverFailure(url: album.coverURL, reason: $0.reason)
            }
        }
    }

    /// Why a cover file that is not there may have been meant otherwise, after its name: a
    /// Windows path (`C:\\Users\\…`, `covers\\red.jpg`), or a file whose name differs only in
    /// case (names are case-sensitive here, not on a Mac or Windows); `nil` when neither.
    static func missingCoverHint(_ coverURL: String, file: URL) -> String? {
        let bytes = Array(coverURL.utf8)
        if bytes.count > 2, bytes[1] == UInt8(ascii: ":"), bytes[0] < 0x80, Character(Unicode.Scalar(bytes[0])).isLetter {
            return "; '\(coverURL)' is a path on a Windows computer: copy the image into content/covers/ and name it covers/NAME (with /)"
        }
        if coverURL.contains("\\") {
            return "; a path separates its folders with /, not \\: write \(coverURL.replacingOccurrences(of: "\\", with: "/"))"
        }
        // A symbolic link to nothing is there by its name: the link is what to mend (a QA pass got
        // the Unicode hint below, the name being found as itself).
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file.path) {
            return "; \(file.lastPathComponent) is a symbolic link to \(target), which does not exist: point it at the image, or copy the image in its place"
        }
        let folder = file.deletingLastPathComponent()
        let name = file.lastPathComponent.lowercased()
        if let other = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first(where: { $0.lowercased() == name }) {
            // Swift's strings compare `é` as one character and as `e` and an accent alike; the
            // file system does not.
            if other == file.lastPathComponent {
                return "; \(other) is there, the same name with its accents written another way in Unicode (an accented letter as one character, or as a letter and a combining accent), which counts here: rename the file, or retype cover_url, so both are written alike"
            }
            return "; \(other) is there, a name that differs in case, which counts here: write it as the file is named"
        }
        return nil
    }

    /// The most bytes a local cover file may have: well above any cover (a 64-megapixel PNG
    /// of noise, the most `max_pixels` lets through, is under 200 MB), so that a video or a disk
    /// image named as a cover is refused before it is read into memory.
    static let largestLocalCover = 256 << 20

    /// Reads and checks a cover file inside the site folder.
    static func localCover(at file: URL, url: String) -> Result<Cover, CoverFailure> {
        let display = SiteFolder.display(file)
        // Without waiting for a writer, as a plain open of a named pipe would.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            let reason = switch code {
            case ENOENT, ENOTDIR: "no such file (\(display))\(Self.missingCoverHint(url, file: file) ?? "; check the path, which is relative to content/")"
            case ELOOP: "\(display) is a symbolic link that leads back to itself; point it at the image"
            case EACCES, EPERM: "cannot read \(display): \(String(cString: strerror(code))); check its permissions"
            default: "cannot read \(display): \(ReadFailure.reason(errno: code))"
            }
            return .failure(CoverFailure(url: url, reason: reason))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return .failure(CoverFailure(url: url, reason: "cannot read \(display): \(ReadFailure.reason(errno: errno))"))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(CoverFailure(url: url, reason: "\(display) is a folder, not an image; name the image file in it"))
        case let type:
            let what = type == S_IFIFO ? "a named pipe" : type == S_IFSOCK ? "a socket" : "a device"
            return .failure(CoverFailure(url: url, reason: "\(display) is \(what), not an image file; name an image file"))
        }
        guard Int(info.st_size) <= Self.largestLocalCover else {
            return .failure(CoverFailure(url: url, reason: "\(display) is \(Int(info.st_size) >> 20) MB, more than a cover can be (at most \(Self.largestLocalCover >> 20) MB); use a smaller image"))
        }
        let size = Int(info.st_size)
        var readError: Int32?
        let data = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            errno = 0
            count = FileBytes.fill(buffer, from: descriptor) ?? 0
            // Cut short: an error, or a file that shrank while it was read.
            if count < size { readError = errno }
        }
        if let readError {
            let why = readError == 0 ? "it changed while it was read; build again" : String(cString: strerror(readError))
            return .failure(CoverFailure(url: url, reason: "cannot read \(display): \(why)"))
        }
        guard let kind = ImageKind.sniff(data) else {
            let reason = NotACover.identify(data).map { "\(SiteFolder.display(file)) is \($0.what); \($0.advice)" }
                ?? "\(SiteFolder.display(file)) is not a JPEG, PNG, WebP, GIF or SVG image"
            return .failure(CoverFailure(url: url, reason: reason))
        }
        return .success(Cover(file: file, kind: kind, contentHash: ContentHash.of(data), size: data.count))
    }
}
