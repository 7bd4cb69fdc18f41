import Foundation

/// Where a build keeps its record of an output folder in the cache (`builds/HASH.manifest`, and
/// beside it the segment maps, the journal, the base URL and the lock), and the move of a
/// record an earlier gallery kept under another name.
extension BuildManifest {
    /// The manifest file for an output folder, in the cache folder.
    ///
    /// Named by the folder's real path (its symbolic links resolved), so a folder built by two
    /// paths (`public`, and `site-link/public` through a link) has one manifest: with one each,
    /// the second build trusted its own stale record of files the first had since rewritten.
    ///
    /// An output folder inside the folder that really holds the cache (the site folder, for the
    /// default `.gallery-cache`) is named by its path from there, so a site folder moved or
    /// renamed with its cache (a CI workspace at another path) keeps its record: named by the
    /// whole path, it lost it, rewrote every file, and left a deleted album's page published.
    public static func file(for output: URL, cache: URL) -> URL {
        let real = realPath(output)
        // Where the cache really is: a `.gallery-cache` that is a link to one cache shared by
        // several sites is held by the shared folder's parent, not by each site (whose
        // `./public` would be one record for all).
        let holder = PathText.parent(of: realPath(cache))
        let key = real.hasPrefix(holder + "/") ? "." + real.dropFirst(holder.count) : Substring(real)
        return cache.appending(path: "builds/\(FastHash.hash(String(key)).hex16).manifest")
    }

    /// Where the manifest of `output` was kept before it was named by its path from the
    /// cache's folder: by the whole path (see ``adoptEarlierRecord(for:cache:)``).
    static func earlierFile(for output: URL, cache: URL) -> URL {
        cache.appending(path: "builds/\(FastHash.hash(realPath(output)).hex16).manifest")
    }

    /// Moves the record a gallery before this one kept of `output` (its manifest, segment maps,
    /// journal and base URL, named by the whole path) to where this one looks, if it has none there, so
    /// the first build after an update is not a full rewrite.
    static func adoptEarlierRecord(for output: URL, cache: URL) {
        let now = file(for: output, cache: cache), earlier = earlierFile(for: output, cache: cache)
        guard now != earlier, !FileManager.default.fileExists(atPath: now.path), FileManager.default.fileExists(atPath: earlier.path) else { return }
        for kind in ["segments", "journal", "base-url", "manifest"] {
            rename(earlier.deletingPathExtension().appendingPathExtension(kind).path, now.deletingPathExtension().appendingPathExtension(kind).path)
        }
    }
}

/// The previous build's record of an output folder, read before this build holds the folder's
/// lock: beside the templates, the assets and the archive, on a core that had nothing to do,
/// rather than after them (10k lines, some 8 ms of a one-album edit at 10k albums, on its path).
///
/// Good only if the files it was read from are as they were: ``current()`` compares their
/// stamps, taken before they were read, with theirs once the lock is held, and reads them again
/// if another build replaced them meanwhile (it writes them by renaming, so the inode changes;
/// a change in place changes the change time), or an earlier record was adopted in their place.
struct EarlyManifest: Sendable {
    let output: URL
    let cache: URL
    /// The manifest file it was read from.
    let file: URL
    /// The stamps of the manifest and of its journal before they were read (`nil`: none).
    let stamps: [FileStamp?]
    /// What they held.
    let manifest: BuildManifest

    /// Reads the record of `output` kept in `cache`, as ``BuildManifest/load(for:cache:)`` does.
    static func read(for output: URL, cache: URL) -> EarlyManifest {
        let file = BuildManifest.file(for: output, cache: cache)
        let stamps = Self.stamps(of: file)
        return EarlyManifest(output: output, cache: cache, file: file, stamps: stamps, manifest: BuildManifest.load(for: output, cache: cache))
    }

    /// The record as its files hold it now: the one read, if they have not changed since.
    func current() -> BuildManifest {
        let file = BuildManifest.file(for: output, cache: cache)
        return file == self.file && Self.stamps(of: file) == stamps ? manifest : BuildManifest.load(for: output, cache: cache)
    }

    private static func stamps(of file: URL) -> [FileStamp?] {
        [FileStamp.of(file.path), FileStamp.of(BuildManifest.journal(of: file).path)]
    }
}
