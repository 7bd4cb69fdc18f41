import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The covers downloaded so far, on disk: the seed's `PersistencyManager` image cache.
///
/// Layout of the folder (by default `.gallery-cache/covers/` in the site folder):
/// - `objects/ab/abcdef….png`: the bytes, named by their SHA-256, so covers shared by several
///   URLs are stored once;
/// - `index.json`: one ``CoverCacheEntry`` per URL.
///
/// Every file is written to a temporary file in its final folder and renamed into place, so a
/// killed build leaves either the old file or the new one, never part of one. Temporary files a
/// killed process left behind are removed when a cache opens. A missing or corrupt index is
/// treated as empty. An entry whose object is missing or has the wrong size counts as absent.
///
/// Index changes are written at most once per ``flushInterval`` while covers arrive; call
/// ``flush()`` when done (``CoverFetcher/shutdown()`` does).
public actor CoverCache {
    /// The cache folder.
    public nonisolated let folder: URL
    /// The most time index changes wait before they are written.
    public nonisolated let flushInterval: Duration
    private var entries: [String: CoverCacheEntry]
    /// Why the covers the cache does not hold could not be downloaded, by URL: what an offline
    /// build says of them.
    private var failures: [String: Failure]
    private var dirty = false
    private var lastFlush = ContinuousClock.now
    /// The URLs whose entry or failure this cache changed since the index was last written:
    /// what it writes over the index on disk, which another build sharing the cache (`--cache`)
    /// may have written meanwhile. Entries of other URLs are taken from the disk.
    private var touched: Set<String> = []
    /// The index file as last read or written here (inode, size, change time), to tell whether
    /// another build wrote it since.
    private var indexState: FileStamp?

    /// Opens (or prepares to create) the cache in `folder`.
    public init(folder: URL, flushInterval: Duration = .seconds(1)) {
        self.folder = folder.standardizedFileURL
        self.flushInterval = flushInterval
        self.indexState = FileStamp.of(Self.indexFile(in: self.folder).path)
        (self.entries, self.failures) = Self.loadIndex(from: Self.indexFile(in: self.folder))
        Self.removeAbandonedTemporaryFiles(in: self.folder)
    }

    /// The default cache folder of a site: `.gallery-cache/covers/` in the site folder.
    public static func defaultFolder(for site: SiteFolder) -> URL {
        site.root.appending(path: ".gallery-cache/covers", directoryHint: .isDirectory)
    }

    /// The index file.
    public nonisolated var indexFile: URL { Self.indexFile(in: folder) }

    /// The index file of the cache in `folder`.
    public static func indexFile(in folder: URL) -> URL { folder.standardizedFileURL.appending(path: "index.json") }

    /// Where the object with this hash and format lives.
    public nonisolated func objectFile(contentHash: String, kind: ImageKind) -> URL {
        folder.appending(path: "objects/\(contentHash.prefix(2))/\(contentHash).\(kind.fileExtension)")
    }

    /// The entry for a URL, if the cache holds it and its object is intact.
    public func entry(for url: URL) -> CoverCacheEntry? {
        let key = url.absoluteString
        guard let entry = entries[key] else { return nil }
        let file = objectFile(contentHash: entry.contentHash, kind: entry.kind)
        guard Self.fileSize(file.path) == entry.size else {
            entries[key] = nil
            touched.insert(key)
            dirty = true
            return nil
        }
        return entry
    }

    /// Why a cover could not be downloaded, and since when.
    public struct Failure: Codable, Sendable, Hashable {
        /// The cause, as the build's warning gave it.
        public var reason: String
        /// When a download first failed for it (ISO 8601, UTC).
        public var since: String
    }

    /// Why the last download of `url` failed, if it did and none has succeeded since.
    public func lastFailure(for url: URL) -> Failure? {
        failures[url.absoluteString]
    }

    /// Notes that downloading `url` failed; a failure with the same reason keeps the date of
    /// the first, so a build that fails as the one before writes nothing.
    public func recordFailure(_ url: URL, reason: String) {
        let key = url.absoluteString
        guard failures[key]?.reason != reason else { return }
        failures[key] = Failure(reason: reason, since: Self.timestamp())
        touched.insert(key)
        dirty = true
    }

    /// Forgets the cover of `url` (its object stays for other URLs of the same bytes, until
    /// `--gc`) and notes `reason` as why it could not be had: for a download whose bytes turned
    /// out damaged, so the next build online downloads it again rather than keep the damage,
    /// and an offline one says why it is missing.
    public func forget(_ url: URL, because reason: String) {
        let key = url.absoluteString
        guard entries[key] != nil else { return }
        entries[key] = nil
        touched.insert(key)
        dirty = true
        recordFailure(url, reason: reason)
    }

    /// The cached cover of a URL, if the cache holds it and its object is intact.
    public func cover(for url: URL) -> Cover? {
        entry(for: url).map(cover(of:))
    }

    /// Stores the bytes of a cover and records them for `url`.
    ///
    /// The bytes are hashed and written outside the actor; only the index update is serialised.
    /// - Throws: ``CoverCacheError`` if the object cannot be written.
    public nonisolated func store(
        _ bytes: [UInt8], kind: ImageKind, for url: URL,
        etag: String? = nil, lastModified: String? = nil, contentType: String? = nil
    ) async throws(CoverCacheError) -> Cover {
        let hash = ContentHash.of(bytes)
        let file = objectFile(contentHash: hash, kind: kind)
        if Self.fileSize(file.path) != bytes.count {
            try Self.writeObject(bytes, to: file)
        }
        let entry = CoverCacheEntry(
            url: url.absoluteString, etag: etag, lastModified: lastModified, contentType: contentType,
            size: bytes.count, contentHash: hash, kind: kind, fetchedAt: Self.timestamp()
        )
        await record(entry)
        return Cover(file: file, kind: kind, contentHash: hash, size: bytes.count)
    }

    /// Notes that the server confirmed the cached copy of `url` (a `304 Not Modified`), keeping
    /// any new validators it sent, and returns the cover; `nil` if the cache no longer holds it.
    public func confirm(_ url: URL, etag: String?, lastModified: String?) -> Cover? {
        guard var entry = entry(for: url) else { return nil }
        entry.etag = etag ?? entry.etag
        entry.lastModified = lastModified ?? entry.lastModified
        entry.fetchedAt = Self.timestamp()
        record(entry)
        return cover(of: entry)
    }

    /// Forgets every URL not in `urls` (as the archive writes them) and removes the objects no
    /// URL left names, for `gallery build --gc`; then writes the index.
    ///
    /// - Returns: How many objects were removed.
    /// - Throws: ``CoverCacheError`` if the index cannot be written (the objects are then kept).
    public func removeAll(but urls: Set<String>) throws(CoverCacheError) -> Int {
        let (entryCount, failureCount) = (entries.count, failures.count)
        touched.formUnion(entries.keys.filter { !urls.contains($0) })
        touched.formUnion(failures.keys.filter { !urls.contains($0) })
        entries = entries.filter { urls.contains($0.key) }
        failures = failures.filter { urls.contains($0.key) }
        if entries.count != entryCount || failures.count != failureCount { dirty = true }
        // The index first: an object is removed only once no index on disk names it.
        try flush()
        let kept = Set(entries.values.map { objectFile(contentHash: $0.contentHash, kind: $0.kind).path })
        return ShardedFolder.removeAll(in: folder.appending(path: "objects").path, but: kept)
    }

    /// Writes the index if it changed since it was last written.
    /// - Throws: ``CoverCacheError`` if it cannot be written.
    ///
    /// Under a lock (`index.lock`), the entries another build wrote to the index since this
    /// cache read it (two sites sharing one cache) are taken in first, but for the URLs this
    /// cache changed: two builds at once each wrote the index they had read, and the second
    /// lost the first's covers.
    public func flush() throws(CoverCacheError) {
        guard dirty else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CoverCacheError(path: folder.path, reason: error.localizedDescription)
        }
        let lock = open(folder.appending(path: "index.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 { _ = FileLock.exclusive(lock) }
        let current = FileStamp.of(indexFile.path)
        if let current, current != indexState {
            var (covers, failed) = Self.loadIndex(from: indexFile)
            for key in touched {
                covers[key] = entries[key]
                failed[key] = failures[key]
            }
            (entries, failures) = (covers, failed)
        }
        let index = Index(version: Index.currentVersion, covers: entries, failures: failures.isEmpty ? nil : failures)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(index) } catch {
            throw CoverCacheError(path: indexFile.path, reason: "cannot encode the index: \(error)")
        }
        do throws(AtomicFile.WriteError) { try AtomicFile.write(data, to: indexFile) } catch {
            throw CoverCacheError(path: error.path, reason: error.reason)
        }
        indexState = FileStamp.of(indexFile.path)
        touched = []
        dirty = false
        lastFlush = .now
    }

    private func record(_ entry: CoverCacheEntry) {
        entries[entry.url] = entry
        failures[entry.url] = nil
        touched.insert(entry.url)
        dirty = true
        // A failed periodic write is tried again at the next change and at flush(), which reports it.
        if ContinuousClock.now - lastFlush >= flushInterval { try? flush() }
    }

    private nonisolated func cover(of entry: CoverCacheEntry) -> Cover {
        Cover(file: objectFile(contentHash: entry.contentHash, kind: entry.kind), kind: entry.kind, contentHash: entry.contentHash, size: entry.size)
    }

    /// The shape of `index.json`.
    struct Index: Codable {
        /// The version this code writes; an index of another version is ignored.
        static let currentVersion = 1
        /// The index's version.
        var version: Int
        /// The entries by URL.
        var covers: [String: CoverCacheEntry]
        /// The covers that could not be downloaded, by URL (absent when none; in an index
        /// written before failures were kept, too).
        var failures: [String: Failure]?
    }

    /// Writes an object. Objects are not fsynced: the rename still guarantees no partial file
    /// after a killed build, and the size check on lookup catches a torn write after a power cut.
    private static func writeObject(_ bytes: [UInt8], to file: URL) throws(CoverCacheError) {
        // The shard folder exists for all but the first covers of a shard: try first, and only
        // create it when the write fails.
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(bytes, to: file, sync: false)
            return
        } catch {}
        let shard = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        } catch {
            throw CoverCacheError(path: shard.path, reason: error.localizedDescription)
        }
        do throws(AtomicFile.WriteError) { try AtomicFile.write(bytes, to: file, sync: false) } catch {
            throw CoverCacheError(path: error.path, reason: error.reason)
        }
    }

    /// Why the index in `folder` cannot be read, when there is one that cannot (cut short,
    /// edited by hand); `nil` when it reads, or there is none yet.
    public static func indexProblem(in folder: URL) -> String? {
        let file = indexFile(in: folder)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        guard let data = try? Data(contentsOf: file) else { return "it cannot be read" }
        do {
            _ = try JSONDecoder().decode(Index.self, from: data)
            return nil
        } catch {
            return data.isEmpty ? "it is empty" : "it is not JSON the cache wrote"
        }
    }

    private static func loadIndex(from file: URL) -> (covers: [String: CoverCacheEntry], failures: [String: Failure]) {
        guard let data = try? Data(contentsOf: file),
              let index = try? JSONDecoder().decode(Index.self, from: data),
              index.version == Index.currentVersion
        else { return ([:], [:]) }
        // Keep only entries whose key matches their URL and whose hash can name a file.
        let covers = index.covers.filter { key, entry in
            key == entry.url && entry.contentHash.count == 64 && entry.contentHash.allSatisfy(\.isHexDigit)
        }
        return (covers, index.failures ?? [:])
    }

    /// Removes temporary files (`AtomicFile`'s `.name.tmp-PID-RANDOM`) whose process has ended.
    private static func removeAbandonedTemporaryFiles(in folder: URL) {
        let manager = FileManager.default
        var folders = [folder.path]
        let objects = folder.appending(path: "objects").path
        if let shards = try? manager.contentsOfDirectory(atPath: objects) {
            folders += shards.map { objects + "/" + $0 }
        }
        for path in folders {
            guard let names = try? manager.contentsOfDirectory(atPath: path) else { continue }
            for name in names where name.hasPrefix(".") {
                guard let marker = name.range(of: ".tmp-") else { continue }
                let pid = name[marker.upperBound...].prefix { $0.isNumber }
                guard let number = Int32(pid), !isRunning(number) else { continue }
                unlink(path + "/" + name)
            }
        }
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// The size of a regular file, or `nil` if there is none at `path`.
    static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Now, as ISO-8601 in UTC.
    static func timestamp() -> String {
        Date.now.ISO8601Format()
    }
}

