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
