import Foundation

extension BuildStep {
    /// Reports what the render step's checks found (the pages', the SVG strip's against its
    /// schema, the sitemap's XML; a template mistake repeated on many pages once), and with
    /// `--strict` turns warnings into a failure. Any error stops the build here, so nothing is
    /// written.
    public static let validate = BuildStep(name: "validate") { state, observer in
        guard state.staged != nil else { return }
        let outputFolder = SiteFolder.display(state.outputFolder)
        for var diagnostic in DiagnosticDigest.condense(state.renderFindings) {
            diagnostic.path = outputFolder + "/" + diagnostic.path
            state.report(diagnostic, to: observer)
        }
        let warnings = state.diagnostics.count { $0.severity == .warning }
        if state.options.strict, warnings > 0 {
            state.report(.error("--strict: the build has \(warnings) warning\(warnings == 1 ? "" : "s") (above), so nothing was written", path: ""), to: observer)
        }
    }

    /// Moves the staged files into the output folder, deletes the outputs of the previous build
    /// that this one no longer makes (pages of removed albums), and records the new manifest,
    /// with a ``BuildStamp`` when the build found nothing to report.
    public static let write = BuildStep(name: "write") { state, observer in
        guard let staging = state.staged else { return }
        let output = state.outputFolder
        let manifestFile = BuildManifest.file(for: output, cache: state.cacheFolder)
        let gone = state.previousManifest.entries.keys.filter { state.manifest.entries[$0] == nil }
        // A build that dies while it changes the folder must not leave a manifest vouching for
        // what was there before: without one, the next build compares every output again.
        if !staging.paths.isEmpty || !gone.isEmpty { unlink(manifestFile.path) }
        state.summary.written = try staging.commit(into: output)
        state.summary.pagesWritten = state.pagesStaged
        state.staged = nil
        let root = output.standardizedFileURL.path
        var removed = 0
        for path in gone.sorted() {
            guard unlink(root + "/" + path) == 0 else { continue }
            removed += 1
            if path.hasSuffix(".html") { state.summary.pagesRemoved += 1 }
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty, rmdir(root + "/" + folder) == 0 {
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        state.summary.removed = removed
        // Before the stamp, which holds the cover index's time and size.
        if state.options.gc { await removeUnusedCovers(&state, observer: observer) }
        if state.diagnostics.isEmpty, let inputs = state.inputDigest, let watched = state.coverStamps, let plan = state.plan {
            let summary = state.summary
            state.manifest.stamp = BuildStamp(inputs: inputs, watched: watched, counts: .init(
                albums: summary.albums, pages: plan.pages.count, coversLocal: summary.coversLocal,
                coversRemote: summary.coversDownloaded + summary.coversFromCache + summary.coversRevalidated,
                thumbnails: summary.thumbnailsMade + summary.thumbnailsCached
            ))
        }
        // A no-op rebuild's manifest is the one on disk: leave the file alone.
        if state.manifest != state.previousManifest || !FileManager.default.fileExists(atPath: manifestFile.path) {
            try state.manifest.save(to: manifestFile)
        }
        try BuildManifest.recordBaseURL(state.config.baseURL, for: output, cache: state.cacheFolder)
        // Only now that the site is written: a failed build keeps every thumbnail it may want.
        if let used = state.thumbnailsUsed {
            state.summary.thumbnailsRemoved = used.cache.removeAll(but: used.files)
        }
    }

    /// `--gc`: removes the cached covers whose URL no album names any more, and keeps the stamp
    /// in step with the index it rewrites. A cache that cannot be tidied is a warning: the site
    /// is written.
    private static func removeUnusedCovers(_ state: inout BuildState, observer: any BuildObserving) async {
        let folder = state.cacheFolder.appending(path: "covers", directoryHint: .isDirectory)
        let index = CoverCache.indexFile(in: folder).path
        guard FileManager.default.fileExists(atPath: index) else { return }
        let locator = CoverLocator(site: state.options.site)
        var urls: Set<String> = []
        for album in state.catalogue.albums {
            if case .success(.remote(let url)) = locator.locate(album.coverURL) { urls.insert(url.absoluteString) }
        }
        let cache = CoverCache(folder: folder)
        do throws(CoverCacheError) {
            state.summary.coversRemoved = try await cache.removeAll(but: urls)
        } catch {
            state.report(.warning("--gc could not tidy the cover cache: \(error.reason); the site was written, and the next build with --gc tries again", path: error.path), to: observer)
        }
        if state.coverStamps?[index] != nil { state.coverStamps?[index] = FileStamp.of(index) }
    }
}
