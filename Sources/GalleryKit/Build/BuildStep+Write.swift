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
    public static let write = BuildStep(name: "write") { state, _ in
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
        // Only now that the site is written: a failed build keeps every thumbnail it may want.
        if let used = state.thumbnailsUsed {
            state.summary.thumbnailsRemoved = used.cache.removeAll(but: used.files)
        }
    }
}
