import Foundation

extension BuildStep {
    /// Turns each cover into the images the pages use: a tile of `[carousel] dimension` pixels, one
    /// twice as large for high-density screens (`srcset`) and the album page's image, all from the
    /// thumbnail cache when it has them. Output names are content-hashed (`covers/3fa2…-100.webp`),
    /// so identical thumbnails are written once. Covers are encoded in parallel, by the
    /// ``ThumbnailQueue`` the fetch step began as the covers came in; this step waits for the
    /// rest, on a thread per core and one more.
    ///
    /// A cover that cannot be decoded, or that claims more than `[thumbnails] max_pixels`, gives the
    /// placeholder and a warning naming the album, the cover and the cause (an error with
    /// `--strict`), like a cover that could not be fetched. An SVG cover that libvips cannot read
    /// (a libvips without librsvg) is copied as it is. A libvips that cannot be loaded fails the
    /// build.
    public static let makeThumbnails = BuildStep(name: "make thumbnails") { state, observer in
        guard let assets = state.assets else { return }
        // Begun by the fetch step as the covers came in (a state without one starts here).
        let queue = state.thumbnailQueue ?? ThumbnailQueue.forBuild(state)
        state.thumbnailQueue = nil
        let cache = queue.cache
        let specs = queue.specs
        // The albums' covers by distinct URL (a pipeline without the fetch step has none).
        let slots = state.coverSlots ?? CoverSlots(unfetched: state.catalogue.entries)
        // One job per distinct cover content, however many albums or URLs share it.
        var covers: [Cover] = []
        var job: [String: Int] = [:]
        // For each slot, its job, or nil for a cover that could not be had.
        var jobOfSlot: [Int?] = []
        jobOfSlot.reserveCapacity(slots.urls.count)
        for result in slots.results {
            guard case .success(let cover) = result else {
                jobOfSlot.append(nil)
                continue
            }
            let index = job[cover.contentHash, default: covers.count]
            if index == covers.count {
                job[cover.contentHash] = index
                covers.append(cover)
            }
            jobOfSlot.append(index)
        }
        if !covers.isEmpty { observer.receive(.thumbnailsPlanned(covers: covers.count)) }
        await queue.finish(adding: covers) { cover, outcome in
            switch outcome {
            case .success(let entries):
                observer.receive(.thumbnailSettled(failed: false, made: entries.contains { $0.wasMade }))
            case .failure(let error):
                observer.receive(.thumbnailSettled(failed: !Self.isCopiedAsIs(cover, after: error)))
            }
        }
        let results = covers.map { cover in
            queue.outcome(of: cover.contentHash) ?? .failure(ThumbnailError(.corrupt("not made")))
        }
        // Without libvips every cover would fail alike: say so once and stop, rather than publish
        // a site of placeholders. (A build whose thumbnails are all cached never loads it.)
        for case .failure(let error) in results {
            if case .libraryMissing(let why) = error.reason {
                throw BuildFailure(step: "make thumbnails", reason: "cannot make thumbnails: \(why)")
            }
            if case .systemLimit = error.reason {
                throw BuildFailure(step: "make thumbnails", reason: "cannot make thumbnails: \(error.description)")
            }
        }

        var images: [TileImage?] = Array(repeating: nil, count: covers.count)
        var written: Set<String> = []
        func add(_ path: String, _ content: OutputFile.Content, key: String) {
            guard written.insert(path).inserted else { return }
            state.files.append(OutputFile(path: path, content: content, contentKey: FastHash.hash(key)))
        }
        if state.options.gc {
            var used = Set(covers.map { cache.sizeFile(forCover: $0.contentHash).path })
            for case .success(let entries) in results {
                for case let file? in entries.map(\.file) { used.insert(file.standardizedFileURL.path) }
            }
            state.thumbnailsUsed = (cache, used)
        }
        for (index, result) in results.enumerated() {
            let cover = covers[index]
            switch result {
            case .success(let entries):
                let paths = zip(entries, specs).map { entry, spec in
                    let hash = ContentHash.of(entry.bytes)
                    let path = "covers/\(hash.prefix(16))-\(spec.size).\(spec.format.fileExtension)"
                    add(path, entry.file.map { .copy(of: $0) } ?? .bytes(entry.bytes), key: hash)
                    return path
                }
                images[index] = TileImage(src: paths[0], srcset: "\(paths[1]) 2x", large: paths[2])
                state.summary.thumbnailsMade += entries.count { $0.wasMade }
                state.summary.thumbnailsCached += entries.count { !$0.wasMade }
            case .failure(let error) where Self.isCopiedAsIs(cover, after: error):
                let path = "covers/\(cover.contentHash.prefix(16)).\(cover.kind.fileExtension)"
                add(path, .copy(of: cover.file), key: cover.contentHash)
                images[index] = TileImage(src: path)
            case .failure:
                break
            }
        }

        let archive = state.options.site.display(state.options.site.archive)
        let placeholder = TileImage(src: assets.placeholder, isPlaceholder: true)
        // Each URL's image, and its event, in the order of the first album naming it.
        var reportedJobs: Set<Int> = []
        var slotImages: [TileImage] = []
        slotImages.reserveCapacity(slots.urls.count)
        for (slot, url) in slots.urls.enumerated() {
            guard let index = jobOfSlot[slot] else {
                slotImages.append(placeholder)
                continue
            }
            if let image = images[index] {
                slotImages.append(image)
                if case .success(let entries) = results[index] {
                    // Only the first URL of a shared cover reports its thumbnails, made or
                    // cached, so the events add up to the summary.
                    let first = reportedJobs.insert(index).inserted
                    let made = first ? entries.count { $0.wasMade } : 0
                    observer.receive(.cover(.thumbnailed(url: url, made: made, cached: first ? entries.count - made : 0)))
                }
                continue
            }
            slotImages.append(placeholder)
            if case .failure(let error) = results[index] {
                observer.receive(.cover(.failed(url: url, reason: error.description)))
            }
        }
        let finalImages = slots.ofAlbum.map { slotImages[$0] }
        // The albums of each cover that could not be thumbnailed, in the order first met: one
        // finding per cover, as for a cover that could not be had (1,000 albums of one damaged
        // JPEG were 1,000 warnings).
        var failed: [(job: Int, url: String, albums: [Int])] = []
        var failedAt: [Int: Int] = [:]
        let thumbnailFailed = slots.urls.indices.map { slot in
            guard let index = jobOfSlot[slot], images[index] == nil, case .failure = results[index] else { return false }
            return true
        }
        for (albumIndex, slot) in slots.ofAlbum.enumerated() where thumbnailFailed[slot] {
            guard let index = jobOfSlot[slot] else { continue }
            let url = slots.urls[slot]
            state.summary.coversFailed += 1
            if let at = failedAt[index] {
                failed[at].albums.append(albumIndex)
            } else {
                failedAt[index] = failed.count
                failed.append((index, url, [albumIndex]))
            }
        }
        // A download that turned out damaged is forgotten by the cover cache, so the next build
        // online downloads it again (the server may have sent a cut or half-written file) rather
        // than keep the damage for good (a QA pass: every build after showed the placeholder).
        var damagedDownloads: [URL] = []
        let locator = CoverLocator(site: state.options.site)
        for (job, url, albums) in failed {
            guard case .failure(let error) = results[job] else { continue }
            let entry = state.catalogue.entries[albums[0]]
            var cause = "cover '\(url)': \(error.description)"
            if error.isDamage {
                // The address as the fetcher keys the cache by (spaces and the like encoded).
                if case .success(.remote(let address)) = locator.locate(url) {
                    damagedDownloads.append(address)
                    cause += "; the next build online downloads it again: if it stays damaged, point cover_url at a good copy"
                } else {
                    cause += "; replace the file with a good copy"
                }
            }
            let message = albums.count == 1
                ? "album \(albums[0] + 1) (\"\(entry.album.title)\" by \(entry.album.artist)) shows a placeholder: \(cause)"
                : Self.sharedFailure(albums, catalogue: state.catalogue, cause: cause)
            state.report(Diagnostic(state.options.strict ? .error : .warning, path: archive, position: entry.position, message: message), to: observer)
        }
        if !damagedDownloads.isEmpty {
            let coverCache = CoverCache(folder: state.cacheFolder.appending(path: "covers", directoryHint: .isDirectory))
            for url in damagedDownloads {
                await coverCache.forget(url, because: "the image it sent is damaged and cannot be decoded")
            }
            try? await coverCache.flush()
        }
        state.images = finalImages
        state.files.append(contentsOf: assets.files)
    }

    /// Whether a cover that could not be thumbnailed is copied as it is instead: an SVG that this
    /// libvips cannot read (one built without librsvg). That is not a failure.
    static func isCopiedAsIs(_ cover: Cover, after error: ThumbnailError) -> Bool {
        cover.kind == .svg && error.reason == .unsupported
    }
}
