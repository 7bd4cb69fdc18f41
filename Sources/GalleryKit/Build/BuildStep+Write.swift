import Foundation

extension BuildStep {
    /// Reports what the render step's checks found (the pages', the SVG strip's against its
    /// schema, the sitemap's XML, the style sheets' URLs; a template mistake repeated on many
    /// pages once), and with `--strict` turns warnings into a failure. Any error stops the build
    /// here, so nothing is written.
    public static let validate = BuildStep(name: "validate") { state, observer in
        guard state.staged != nil else { return }
        let outputFolder = SiteFolder.display(state.outputFolder)
        for var diagnostic in DiagnosticDigest.condense(state.renderFindings) {
            diagnostic.path = outputFolder + "/" + diagnostic.path
            state.report(diagnostic, to: observer)
        }
        for diagnostic in state.stylesheetFindings { state.report(diagnostic, to: observer) }
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
        // The manifest's 10k lines are made while the files move into place; only its stamp
        // waits for the end.
        let (manifest, previous, changes) = (state.manifest, state.previousManifest, state.manifestChanges)
        async let manifestLines = changes.flatMap { previous.entryLines(changedBy: $0) } ?? manifest.entryLines()
        // Every previous output this build made again was found among its records: then none is gone.
        let gone = state.previousOutputsMade == state.previousManifest.entries.count ? [] : state.previousManifest.entries.keys.filter { state.manifest.entries[$0] == nil }
        // A build that dies while it changes the folder must not leave the manifest vouching for
        // files it was replacing, nor forget one it made or was about to remove: a journal
        // beside the manifest names every output it touches, and the next build trusts none of
        // them (it writes them again, and removes what is gone; with no record at all, a deleted
        // album's page stayed published for good). A folder that is not there yet is made by
        // one rename: nothing to keep track of.
        let journal = BuildManifest.journal(of: manifestFile)
        let touched = staging.paths.union(gone)
        if !touched.isEmpty, !gone.isEmpty || FileManager.default.fileExists(atPath: output.path) {
            do {
                try BuildManifest.writeJournal(touched, to: journal)
            } catch {
                unlink(manifestFile.path)
            }
        }
        // Files no manifest knows of can only be there if the folder held some before: a cold
        // build into a new folder looks for none (walking 10,000 outputs costs a tenth of a second).
        let mayHoldStrays = state.options.cleanDestination || (state.previousManifest.entries.isEmpty && Self.holdsFiles(output))
        let committed: (moved: Int, removed: [String])
        do {
            committed = try staging.commit(into: output, replacing: Set(gone))
        } catch let error as AtomicFile.WriteError where error.refusedBeforeWriting {
            state.summary.outputUnchanged = true
            throw error
        }
        state.summary.written = committed.moved
        state.summary.pagesWritten = state.pagesStaged
        state.staged = nil
        let root = output.standardizedFileURL.path
        // Outputs the commit moved aside, as a file now stands where their folder stood (or back).
        var removed = committed.removed.count
        state.summary.pagesRemoved += committed.removed.count { $0.hasSuffix(".html") }
        // The outputs this build removed (a page a killed build never moved in is not one).
        var unlinked = Set(committed.removed)
        /// Removes an output, and the folders it leaves empty: also when the file is not there,
        /// as a build killed while it moved files in leaves a page's folder without its page.
        func remove(_ path: String) {
            if unlink(root + "/" + path) == 0 {
                removed += 1
                unlinked.insert(path)
                if path.hasSuffix(".html") { state.summary.pagesRemoved += 1 }
            } else if errno != ENOENT {
                return
            }
            var folder = PathText.parent(of: path)
            while !folder.isEmpty, rmdir(root + "/" + folder) == 0 {
                folder = PathText.parent(of: folder)
            }
        }
        for path in gone.sorted() { remove(path) }
        // An album page that goes breaks the links to it: named, as a title changed by hand in
        // the archive moves its album's page with nothing else to say so.
        let pagesGone = gone.filter { Self.isAlbumPage($0) && unlinked.contains($0) }.sorted()
        let moved = Self.movedAlbumPage(pagesGone, state: state)
        state.movedAlbumPage = moved?.move
        if !pagesGone.isEmpty {
            let named = pagesGone.prefix(5).map { String($0.dropLast("index.html".count)) }.joined(separator: ", ") + (pagesGone.count > 5 ? " and \(pagesGone.count - 5) more" : "")
            let one = pagesGone.count == 1
            state.report(.note(
                "removed \(one ? "the album page" : "\(pagesGone.count) album pages") \(named), as no album has \(one ? "its" : "their") address any more; links to \(one ? "it" : "them") now find the 404 page" + Self.movedPageHint(moved, state: state),
                path: SiteFolder.display(output)
            ), to: observer)
        }
        // Files no manifest knows of: a build that has no record of the folder (its manifest
        // lost, or never written for this path) cannot tell a deleted album's page from the rest.
        if mayHoldStrays {
            let strays = Self.filesNotMade(in: output, manifest: state.manifest)
            if state.options.cleanDestination {
                let own = Self.siteFiles(among: strays, in: root, state: state)
                for path in strays where !own.contains(path) { remove(path) }
                if !own.isEmpty {
                    let named = own.sorted().prefix(3).joined(separator: ", ") + (own.count > 3 ? " and \(own.count - 3) more" : "")
                    state.report(.warning(
                        "\(own.count == 1 ? "a file" : "\(own.count) files") here \(own.count == 1 ? "is" : "are") the site's own (\(named)), reached through a symbolic link or a cover_url that leads into the output folder, so --clean-destination leaves \(own.count == 1 ? "it" : "them"); keep the site's files out of the output folder",
                        path: SiteFolder.display(output)
                    ), to: observer)
                }
            } else if !strays.isEmpty {
                let named = strays.prefix(3).joined(separator: ", ") + (strays.count > 3 ? " and \(strays.count - 3) more" : "")
                state.report(.warning(
                    "\(strays.count) file\(strays.count == 1 ? "" : "s") here \(strays.count == 1 ? "was" : "were") not made by this build (\(named)) and \(strays.count == 1 ? "stays" : "stay") published, as no record says an earlier build made \(strays.count == 1 ? "it" : "them"); build with --clean-destination to remove \(strays.count == 1 ? "it" : "them"), or put files meant to be published in static/",
                    path: SiteFolder.display(output)
                ), to: observer)
            }
        }
        state.summary.removed = removed
        // Before the stamp, which holds the cover index's time and size.
        if state.options.gc { await removeUnusedCovers(&state, observer: observer) }
        // A build with a warning runs in full again, to show it again; a note (a page removed,
        // words left English) is said once, or by the load step each time, and stops nothing.
        if state.diagnostics.allSatisfy({ $0.severity == .note }), let inputs = state.inputDigest, let watched = state.coverStamps, let plan = state.plan {
            let summary = state.summary
            state.manifest.stamp = BuildStamp(inputs: inputs, watched: watched, counts: .init(
                albums: summary.albums, pages: plan.pages.count, coversLocal: summary.coversLocal,
                coversRemote: summary.coversDownloaded + summary.coversFromCache + summary.coversRevalidated,
                thumbnails: summary.thumbnailsMade + summary.thumbnailsCached
            ))
        }
        // A no-op rebuild's manifest is the one on disk: leave the file alone, unless this build
        // wrote files (one deleted by hand is written again, with the record it had) or had to
        // read outputs changed since the manifest was written: its time then says they need not
        // be read again.
        let lines = await manifestLines
        if state.manifest != state.previousManifest || committed.moved > 0 || state.outputFilesVerified > 0 || !FileManager.default.fileExists(atPath: manifestFile.path) {
            try state.manifest.save(to: manifestFile, lines: lines)
        }
        // Beside it, a map of the strip and the data file that the next build splices after an
        // edit; one that does not describe what is now in place is simply not used.
        if state.segmentMaps != state.previousSegmentMaps {
            let file = SegmentMaps.file(for: manifestFile)
            do { try state.segmentMaps.save(to: file) } catch { unlink(file.path) }
        }
        // The manifest now tells the truth of every output.
        unlink(journal.path)
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

    /// The files below `output` that `manifest` does not list, as paths relative to it, sorted;
    /// hidden names (and everything below a hidden folder, such as `.git/`) left out.
    static func filesNotMade(in output: URL, manifest: BuildManifest) -> [String] {
        // An output folder that is a link (public -> /srv/www) is walked as the folder it names:
        // the walker lists a link to a folder as a file.
        var root = output.standardizedFileURL.path
        if let real = realpath(root, nil) {
            root = String(cString: real)
            free(real)
        }
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var strays: [String] = []
        while let path = walker.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            let type = walker.fileAttributes?[.type] as? FileAttributeType
            if name.hasPrefix(".") {
                if type == .typeDirectory { walker.skipDescendants() }
                continue
            }
            if type != .typeDirectory, manifest.entries[path] == nil { strays.append(path) }
        }
        return strays.sorted()
    }

    /// The files among `strays` (paths in the output folder at `root`) that are the site's own:
    /// where a symbolic link in `content/`, `templates/`, `assets/` or `static/` leads
    /// (`content/covers -> ../public/covers`), or a local cover (`../public/orig/a.svg`).
    /// --clean-destination removed them: the site's covers and partials were lost.
    static func siteFiles(among strays: [String], in root: String, state: BuildState) -> Set<String> {
        guard !strays.isEmpty else { return [] }
        let site = state.options.site
        // Where links lead (a file, or a folder and all in it), and the covers' files.
        var linked: [String] = []
        for folder in site.inputFolders {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isSymbolicLinkKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true {
                linked.append(BuildManifest.realPath(url))
            }
        }
        var covers: Set<String> = []
        for entry in state.catalogue.entries {
            let cover = entry.album.coverURL
            guard !cover.contains("://") || cover.hasPrefix("file://") else { continue }
            let path = cover.hasPrefix("file://") ? URL(string: cover)?.path ?? "" : site.content.appending(path: cover).path
            covers.insert(BuildManifest.realPath(URL(fileURLWithPath: path)))
        }
        let base = BuildManifest.realPath(URL(fileURLWithPath: root))
        return Set(strays.filter { stray in
            let real = BuildManifest.realPath(URL(fileURLWithPath: base + "/" + stray))
            return covers.contains(real) || linked.contains { real == $0 || real.hasPrefix($0 + "/") }
        })
    }

    /// Whether a folder exists and holds anything but hidden names.
    static func holdsFiles(_ folder: URL) -> Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { !$0.hasPrefix(".") }
    }

    /// How to keep the old address of a page that moved: an album page new in this build beside
    /// the ones gone means an album was renamed (its title or artist changed, and with them its
    /// slug). One of each, and as many album pages as before (`moved`, as
    /// ``movedAlbumPage(_:state:)`` found it), names the album and the command; none new (an
    /// album deleted) says nothing.
    static func movedPageHint(_ moved: (index: Int, move: PageMove)?, state: BuildState) -> String {
        guard state.manifest.entries.keys.contains(where: { isAlbumPage($0) && state.previousManifest.entries[$0] == nil }) else { return "" }
        if let (index, move) = moved {
            let slug = move.from.dropFirst("albums/".count).dropLast()
            // A slug of its own moved it (`gallery edit 1 --slug bowie`), else its name did.
            let cause = state.catalogue.entries[index].album.slug != nil ? "slug" : "title or artist"
            return " (album \(index + 1) moved to \(move.to) with its new \(cause); `gallery edit \(index + 1) --slug \(slug)` gives it back its old address)"
        }
        return " (an album whose title or artist changes moves to a new address unless it keeps its slug: gallery edit NUMBER --slug OLD)"
    }

    /// Whether an output is an album's page.
    private static func isAlbumPage(_ path: String) -> Bool { path.hasPrefix("albums/") && path.hasSuffix("/index.html") }

    /// The album whose page moved, when `gone` (the album pages removed) and the pages new in
    /// this build are one each and the number of album pages is as before: an album renamed.
    static func movedAlbumPage(_ gone: [String], state: BuildState) -> (index: Int, move: PageMove)? {
        // Every build passes here: the pages are looked through only when one went.
        guard gone.count == 1 else { return nil }
        let before = state.previousManifest.entries
        let new = state.manifest.entries.keys.filter { isAlbumPage($0) && before[$0] == nil }
        func slug(_ page: String) -> String { String(page.dropFirst("albums/".count).dropLast("/index.html".count)) }
        guard new.count == 1, let moved = new.first,
              before.keys.count(where: isAlbumPage) == state.manifest.entries.keys.count(where: isAlbumPage),
              let index = state.catalogue.entries.firstIndex(where: { $0.slug == slug(moved) }),
              // Moved by a new title or artist, or a slug of its own, not pushed to `-2` by a slug
              // given to another album (whose advice took it back to the other's address).
              [state.catalogue.entries[index].album.slug, Catalogue.derivedSlug(for: state.catalogue.entries[index].album)].contains(slug(moved)) else { return nil }
        return (index, PageMove(from: String(gone[0].dropLast("index.html".count)), to: String(moved.dropLast("index.html".count))))
    }
}
