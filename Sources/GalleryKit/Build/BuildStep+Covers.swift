import Foundation

extension BuildStep {
    /// Gets every album's cover through the ``Library`` facade. A cover that cannot be had is a
    /// warning naming the album, the URL and the cause (an error with `--strict`); the album shows
    /// the placeholder.
    public static let fetchCovers = BuildStep(name: "fetch covers") { state, observer in
        stageAhead(&state)
        let site = state.options.site
        let entries = state.catalogue.entries
        // One fetch per distinct cover URL, however many albums share it.
        var slots = CoverSlots(entries)
        let unique = slots.firstAlbum
        let locator = CoverLocator(site: site)
        let remote = slots.urls.count { url in
            if case .success(.remote) = locator.locate(url) { return true }
            return false
        }
        if remote > 0 { observer.receive(.coversPlanned(remote: remote)) }
        let tally = CoverTally(forwardingTo: observer)
        let memo = LocalCoverMemo(cacheFolder: state.cacheFolder)
        // Each cover's thumbnails are begun as soon as it is here, while the rest download.
        let thumbnails = ThumbnailQueue.forBuild(state)
        state.thumbnailQueue = thumbnails
        let fetch = { @Sendable (library: Library) async -> [String: Result<Cover, CoverFailure>] in
            await withTaskGroup(of: (String, Result<Cover, CoverFailure>).self) { group in
                var results: [String: Result<Cover, CoverFailure>] = [:]
                var next = 0
                // The fetcher bounds downloads itself; this only keeps the task count sane.
                let width = 64
                while next < min(width, unique.count) {
                    let album = entries[unique[next]].album
                    group.addTask { (album.coverURL, await library.cover(for: album)) }
                    next += 1
                }
                for await (url, result) in group {
                    results[url] = result
                    if case .success(let cover) = result { thumbnails.add(cover) }
                    if next < unique.count {
                        let album = entries[unique[next]].album
                        group.addTask { (album.coverURL, await library.cover(for: album)) }
                        next += 1
                    }
                }
                return results
            }
        }
        let fetched: [String: Result<Cover, CoverFailure>]
        var cacheIndex: [String: FileStamp]? = [:]
        if remote > 0 {
            let cacheFolder = state.cacheFolder.appending(path: "covers", directoryHint: .isDirectory)
            // A cover cache that cannot take a download (a file named covers, a folder made
            // read-only) threw every download away, one warning per album with Foundation's
            // words (a QA pass); it is said once, as an unwritable cache folder is at load.
            if state.options.fetchMode != .offline, let why = Self.unwritable(cacheFolder.appending(path: "objects", directoryHint: .isDirectory)) {
                throw BuildFailure(step: "fetch covers", reason: "the cover cache \(SiteFolder.display(cacheFolder)) cannot be written (\(why)), so the remote covers cannot be downloaded into it; make it writable, or remove it (it is made again), or name another cache with --cache DIR")
            }
            // A damaged index was dropped without a word: every cover downloaded again, or, with
            // --offline, each said to be "not in the cover cache" though its bytes were there.
            if let problem = CoverCache.indexProblem(in: cacheFolder) {
                let again = state.options.fetchMode == .offline
                    ? "with --offline, the remote covers are missing until a build online downloads them again"
                    : "the remote covers are downloaded again, and the index written anew"
                state.report(.warning("the cover cache's index is damaged (\(problem)); \(again)", path: SiteFolder.display(CoverCache.indexFile(in: cacheFolder))), to: observer)
            }
            fetched = await Library.withRemoteCovers(
                site: site,
                mode: state.options.fetchMode,
                policy: state.config.covers.policy,
                cacheFolder: cacheFolder,
                observer: tally,
                localMemo: memo,
                fetch
            )
            // Taken once the fetcher has written the index, so it is of the index this build left.
            let index = CoverCache.indexFile(in: cacheFolder).path
            cacheIndex = FileStamp.of(index).map { [index: $0] }
        } else {
            fetched = await fetch(Library(site: site, fetcher: nil, localMemo: memo))
        }
        memo.save()
        let counts = tally.current
        let archive = state.options.site.display(state.options.site.archive)
        for diagnostic in counts.diagnostics {
            state.report(Self.naming(diagnostic, in: state.catalogue, archive: archive), to: observer)
        }
        state.summary.coversDownloaded = counts.downloaded
        state.summary.coversFromCache = counts.fromCache
        state.summary.coversRevalidated = counts.revalidated
        slots.results = slots.urls.map { fetched[$0] ?? CoverSlots.notFetched($0) }
        // The file behind each local cover that was used, by its `cover_url`.
        var localFiles: [String: String] = [:]
        // And the path it is named by, where that holds a symbolic link: the stamp of that path
        // (which follows the link) changes when the link is pointed elsewhere, and the stamp of
        // the file behind it does not, so such a build said "nothing changed".
        // (A link above the site folder, as /tmp is on macOS, is no such link.)
        var linkedPaths: [String: String] = [:]
        let sitePath = site.root.standardizedFileURL.path
        for (url, result) in fetched {
            let (location, written) = locator.locateNamed(url)
            guard case .success = result, case .success(.file(let file)) = location else { continue }
            localFiles[url] = file.path
            if let written, written.hasPrefix(sitePath), locator.root + written.dropFirst(sitePath.count) != file.path {
                linkedPaths[written] = file.path
            }
        }
        let isLocal = slots.urls.map { localFiles[$0] != nil }
        state.summary.coversLocal = slots.ofAlbum.count { isLocal[$0] }
        if var local = memo.stamps(of: localFiles.values), let cacheIndex {
            for (written, file) in linkedPaths { local[written] = local[file] }
            state.coverStamps = local.merging(cacheIndex) { $1 }
        }
        // Albums that share a cover share its failure: one finding names them all (a back
        // catalogue's 300 "artwork-coming-soon.jpg" albums are one cause, not 300 lines).
        var failed: [String: [Int]] = [:]
        var order: [String] = []
        let hasFailed = slots.results.map { if case .failure = $0 { true } else { false } }
        for (index, slot) in slots.ofAlbum.enumerated() where hasFailed[slot] {
            guard case .failure(let failure) = slots.results[slot] else { continue }
            state.summary.coversFailed += 1
            if failed[failure.description] == nil { order.append(failure.description) }
            failed[failure.description, default: []].append(index)
        }
        for cause in order {
            let indices = failed[cause] ?? []
            let entry = state.catalogue.entries[indices[0]]
            let message = indices.count == 1
                ? "album \(indices[0] + 1) (\"\(entry.album.title)\" by \(entry.album.artist)) shows a placeholder: \(cause)"
                : Self.sharedFailure(indices, catalogue: state.catalogue, cause: cause)
            state.report(Diagnostic(state.options.strict ? .error : .warning, path: archive, position: entry.position, message: message), to: observer)
            if state.options.strict { state.strictCoverErrors += 1 }
        }
        state.coverSlots = slots
    }

    /// A finding the fetcher made about a cover URL (a `--refresh` that could not revalidate
    /// it), as one about the albums that show it: at the first one's place in the archive,
    /// naming it and how many more share the cover. Other findings are left as they are.
    static func naming(_ diagnostic: Diagnostic, in catalogue: Catalogue, archive: String) -> Diagnostic {
        let indices = catalogue.entries.indices.filter { catalogue.entries[$0].album.coverURL == diagnostic.path }
        guard let first = indices.first else { return diagnostic }
        let album = catalogue.entries[first].album
        let others = indices.count > 1 ? " and \(indices.count - 1) more album\(indices.count == 2 ? "" : "s") (\(AlbumNumbers.ranges(indices)))" : ""
        var named = diagnostic
        named.path = archive
        named.position = catalogue.entries[first].position
        named.message = "album \(first + 1) (\"\(album.title)\" by \(album.artist))\(others): cover '\(diagnostic.path)': \(diagnostic.message)"
        return named
    }

    /// "albums 3 ("A" by X), 9 ("B" by Y) and 302 more (3, 9, 12–14, …) show a placeholder:
    /// cover '…': cause", for albums that share one failed cover.
    static func sharedFailure(_ indices: [Int], catalogue: Catalogue, cause: String) -> String {
        let named = indices.prefix(2).map { index -> String in
            let album = catalogue.entries[index].album
            return "\(index + 1) (\"\(album.title)\" by \(album.artist))"
        }
        let rest = indices.count - named.count
        var text = "\(indices.count) albums share this cover and show a placeholder: album\(named.count == 1 ? "" : "s") \(named.joined(separator: ", "))"
        if rest > 0 { text += " and \(rest) more (albums \(AlbumNumbers.ranges(indices)))" }
        return text + ": " + cause
    }

    /// Places the tiles and decides every page and its path.
    public static let layout = BuildStep(name: "layout") { state, observer in
        state.plan = SitePlan(catalogue: state.catalogue, carousel: state.config.carousel, basePath: state.config.basePath)
        if case .slug(let slug) = state.config.carousel.initialAlbum, !state.catalogue.entries.isEmpty, !state.catalogue.entries.contains(where: { $0.slug == slug }) {
            let site = state.options.site
            // A number in quotes is a slug to TOML: say how to write the number.
            let advice = !slug.isEmpty && slug.allSatisfy(\.isASCII) && Int(slug) != nil
                ? "write it without quotes (initial_album = \(slug)) to mean album \(slug)"
                : "`gallery list` shows the slugs"
            state.report(.warning(
                "[carousel] initial_album is \"\(slug)\", which is no album's slug, so the index opens on the first album; \(advice)",
                path: site.display(site.configFile), at: SiteConfig.position(of: "initial_album", in: "carousel", site: site)
            ), to: observer)
        }
        // The home page shows the first index page's albums; an initial album beyond them opens
        // only the index page that holds it.
        if let plan = state.plan, plan.indexPageCount > 1, !plan.albums(onIndexPage: 1).contains(plan.initialIndex) {
            let site = state.options.site
            let page = (1...plan.indexPageCount).first { plan.albums(onIndexPage: $0).contains(plan.initialIndex) } ?? 1
            // A number past the last album was taken as the last: say what was written.
            var given = "album \(plan.initialIndex + 1)"
            if case .number(let number) = state.config.carousel.initialAlbum, number != plan.initialIndex + 1 {
                given = "\(number), past the last album, so album \(plan.initialIndex + 1)"
            }
            state.report(.warning(
                "[carousel] initial_album is \(given), which is on index page \(page) (\(plan.path(of: .index(number: page)))), not on the home page, which opens on album 1; raise index_page_size to \(plan.initialIndex + 1) or more, or choose an album from 1 to \(plan.albums(onIndexPage: 1).upperBound)",
                path: site.display(site.configFile), at: SiteConfig.position(of: "initial_album", in: "carousel", site: site)
            ), to: observer)
        }
        if let plan = state.plan { Self.reportStripTooWide(plan, state: &state, observer: observer) }
    }

    /// The widest strip every browser lays out: Firefox counts lengths in 1/60 px in 32 bits
    /// (17,895,697 px); Chrome stops at 33,554,428 px.
    static let widestStrip = 17_895_697

    /// A warning when the strip is wider than a browser can lay out: past that width the tiles
    /// are all drawn at the strip's end, on top of each other, and an album page's own tile is
    /// not where the page centres (album pages place their tiles at their true positions, so
    /// paging the index does not help). 149,000 albums of the default tiles; 36,000 of 1024 px.
    static func reportStripTooWide(_ plan: SitePlan, state: inout BuildState, observer: any BuildObserving) {
        let layout = plan.layout
        // A tile past it, not only the space after the last tile (which browsers cut harmlessly).
        guard let last = layout.count > 0 ? layout.frame(at: layout.count - 1) : nil, last.x + last.width > widestStrip else { return }
        // The first tile whose right edge, offset + padding + i·stride + dimension, passes it.
        let tile = layout.frame(at: 0)
        let first = min(layout.count - 1, max(0, (widestStrip - tile.x - tile.width) / layout.stride + 1))
        let site = state.options.site
        state.report(.warning(
            "[carousel] the strip is \(layout.contentWidth) px wide, more than browsers lay out (Firefox \(widestStrip) px, Chrome 33554428 px): from album \(first + 1) on, tiles are drawn on top of each other at the strip's end; make the tiles smaller ([carousel] dimension and padding)",
            path: site.display(site.configFile), at: SiteConfig.position(of: "dimension", in: "carousel", site: site)
        ), to: observer)
    }
}

extension BuildStep {
    /// Starts making the staging folder, with a folder for every album page, when the build
    /// will write every page (no earlier build's pages to keep, or `--clean`): in the time the
    /// covers take, which leaves a core idle while libvips loads. An incremental build makes
    /// the folders of the few pages it writes as it writes them.
    static func stageAhead(_ state: inout BuildState) {
        let entries = state.catalogue.entries
        guard state.stagingAhead == nil, !entries.isEmpty, state.options.clean || state.previousManifest.entries.isEmpty else { return }
        let output = state.outputFolder
        let slugs = entries.map(\.slug)
        state.stagingAhead = Task {
            var folders = ["albums"]
            folders.reserveCapacity(slugs.count + 1)
            for slug in slugs { folders.append("albums/" + slug) }
            return try StagingArea(for: output, folders: folders)
        }
    }
}
