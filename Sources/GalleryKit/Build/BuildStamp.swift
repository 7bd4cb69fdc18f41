import Foundation

/// What a build that ended without a single finding was made from, kept in the output folder's
/// manifest so the next build can see, before it decodes one album, that nothing changed.
///
/// It holds a digest of everything the build read by content (`gallery.toml`, the archive, the
/// templates, the assets, a `--base-url`), of the tool itself (its version and the stamp of its
/// executable, so a rebuilt or reinstalled `gallery` never trusts what an older one made), and
/// the ``FileStamp`` of every cover file it used and of the cover cache's index. When the digest
/// and every stamp match and every output recorded in the manifest is in place at its recorded
/// size, the build stops after loading (as `make` stops when no target is older than its
/// sources): a no-op rebuild of 10k albums then costs a read of the archive and a `stat` per
/// output, not a decode of every album and a key per page.
///
/// A build with warnings records no stamp, so it runs in full every time and shows its warnings
/// again: a cover that failed is tried again. `--clean` and `--refresh` never stop at a stamp.
struct BuildStamp: Sendable, Hashable {
    /// The digest of the inputs read by content (``digest(version:config:archive:templates:assets:baseURL:analytics:)``).
    var inputs: UInt64
    /// The stamps of the local cover files and the cover cache's index, by absolute path.
    var watched: [String: FileStamp]
    /// The stamped build's counts, for the summary of a build that stops at the stamp: the same
    /// numbers a full no-op rebuild reports.
    var counts: Counts

    /// The stamped build's counts.
    struct Counts: Sendable, Hashable {
        /// Albums.
        var albums: Int
        /// Pages among the outputs.
        var pages: Int
        /// Covers that are files in the site folder.
        var coversLocal: Int
        /// Remote covers, which a rebuild takes from the cache.
        var coversRemote: Int
        /// Thumbnails, which a rebuild takes from the thumbnail cache.
        var thumbnails: Int
    }

    /// The running executable, as far as a stamp can tell it from another build of gallery.
    static let tool: UInt64 = {
        guard let file = FileStamp.of("/proc/self/exe") else { return 0 }
        return FastHash.combine([UInt64(file.size), UInt64(bitPattern: Int64(file.modified)), UInt64(bitPattern: Int64(file.changed)), file.inode])
    }()

    /// The digest of a build's inputs. `config` is `nil` when the site has no `gallery.toml`.
    static func digest(version: String, config: [UInt8]?, archive: [UInt8], templates: String, assets: UInt64, baseURL: String?, analytics: Bool = true) -> UInt64 {
        FastHash.combine([
            FastHash.hash(version),
            tool,
            config.map { FastHash.hash($0) } ?? 0,
            config == nil ? 0 : 1,
            FastHash.hash(archive),
            FastHash.hash(templates),
            assets,
            baseURL.map(FastHash.hash) ?? 0,
            baseURL == nil ? 0 : 1,
            // A preview built into the same folder (`gallery serve --output`) has no analytics.
            analytics ? 0 : 1,
        ])
    }

    /// Whether a build whose inputs digest to `inputs` would leave the output folder as it is:
    /// the digest matches, no watched file changed, and every output in `manifest` is a regular
    /// file of its recorded size under `outputRoot`, with its recorded bytes if it changed after
    /// the manifest was written (``OutputLedger/holds(_:size:hash:)``).
    ///
    /// When it holds only after reading outputs changed since `manifestFile` was written, the
    /// file's time is moved to now (its records are true now), so the next build need not read them.
    func holds(inputs: UInt64, manifest: BuildManifest, manifestFile: URL, outputRoot: String) async -> Bool {
        guard inputs == self.inputs else { return false }
        for (path, stamp) in watched where FileStamp.of(path) != stamp {
            return false
        }
        let ledger = OutputLedger(previous: manifest, root: outputRoot)
        let outputs = Array(manifest.entries)
        let intact = try? await Parallel.mapChunks(count: outputs.count, chunkSize: 1024) { range in
            range.allSatisfy { ledger.holds(outputs[$0].key, size: outputs[$0].value.size, hash: outputs[$0].value.outputHash) }
        }
        guard intact?.allSatisfy({ $0 }) == true else { return false }
        if ledger.filesVerified > 0 { utimensat(AT_FDCWD, manifestFile.path, nil, 0) }
        return true
    }

    /// The summary of a build that stopped at this stamp: every output unchanged.
    func apply(to summary: inout BuildSummary, outputs: Int) {
        summary.upToDate = true
        summary.albums = counts.albums
        summary.unchanged = outputs
        summary.pagesUnchanged = counts.pages
        summary.coversLocal = counts.coversLocal
        summary.coversFromCache = counts.coversRemote
        summary.thumbnailsCached = counts.thumbnails
    }
}
