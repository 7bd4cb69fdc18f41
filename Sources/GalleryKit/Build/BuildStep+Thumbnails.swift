import Foundation

extension BuildStep {
    /// Turns each cover into the images the pages use: a tile of `[carousel] dimension` pixels, one
    /// twice as large for high-density screens (`srcset`) and the album page's image, all from the
    /// thumbnail cache when it has them. Output names are content-hashed (`covers/3fa2…-100.webp`),
    /// so identical thumbnails are written once. Covers are encoded in parallel, on a thread per core
    /// and one more.
    ///
    /// A cover that cannot be decoded, or that claims more than `[thumbnails] max_pixels`, gives the
    /// placeholder and a warning naming the album, the cover and the cause (an error with
    /// `--strict`), like a cover that could not be fetched. An SVG cover that libvips cannot read
    /// (a libvips without librsvg) is copied as it is. A libvips that cannot be loaded fails the
    /// build.
    public static let makeThumbnails = BuildStep(name: "make thumbnails") { state, observer in
        guard let assets = state.assets else { return }
        let settings = state.config.thumbnails
        let specs = settings.specs(tileSize: state.config.carousel.metrics.dimension)
        let cache = ThumbnailCache(
            folder: state.cacheFolder.appending(path: "thumbnails", directoryHint: .isDirectory),
            thumbnailer: Thumbnailer(maxPixels: settings.maxPixels)
        )
        // One job per distinct cover content, however many albums or URLs share it.
        var covers: [Cover] = []
        var job: [String: Int] = [:]
        for case .success(let cover) in state.covers where job[cover.contentHash] == nil {
            job[cover.contentHash] = covers.count
            covers.append(cover)
        }
        let jobs = covers
        // libvips calls block their thread, and part of each is spent waiting (reading the cover,
        // handing work to libvips's own worker thread): one thread more than there are cores keeps
        // every core busy. They run outside Swift's cooperative pool, which they would block.
        let threads = ProcessInfo.processInfo.activeProcessorCount + 1
        if !jobs.isEmpty { observer.receive(.thumbnailsPlanned(covers: jobs.count)) }
        let results = await Parallel.onThreads(count: jobs.count, threads: threads, finished: Thumbnailer.threadFinished) { index -> Result<[ThumbnailCache.Entry], ThumbnailError> in
            do throws(ThumbnailError) {
                let entries = try cache.thumbnails(of: jobs[index], as: specs)
                observer.receive(.thumbnailSettled(failed: false, made: entries.contains { $0.wasMade }))
                return .success(entries)
            } catch {
                observer.receive(.thumbnailSettled(failed: !Self.isCopiedAsIs(jobs[index], after: error)))
                return .failure(error)
            }
        }
        // Without libvips every cover would fail alike: say so once and stop, rather than publish
        // a site of placeholders. (A build whose thumbnails are all cached never loads it.)
        for case .failure(let error) in results {
            if case .libraryMissing(let why) = error.reason {
                throw BuildFailure(step: "make thumbnails", reason: "cannot make thumbnails: \(why)")
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
        var announced: Set<String> = []
        var reportedJobs: Set<Int> = []
        var finalImages: [TileImage] = []
        for (albumIndex, result) in state.covers.enumerated() {
            guard case .success(let cover) = result, let index = job[cover.contentHash] else {
                finalImages.append(TileImage(src: assets.placeholder, isPlaceholder: true))
                continue
            }
            let url = state.catalogue.entries[albumIndex].album.coverURL
            if let image = images[index] {
                finalImages.append(image)
                if announced.insert(url).inserted, case .success(let entries) = results[index] {
                    // Only the first URL of a shared cover reports its encodes, so events add up.
                    let made = reportedJobs.insert(index).inserted ? entries.count { $0.wasMade } : 0
                    observer.receive(.cover(.thumbnailed(url: url, made: made, cached: entries.count - made)))
                }
                continue
            }
            finalImages.append(TileImage(src: assets.placeholder, isPlaceholder: true))
            guard case .failure(let error) = results[index] else { continue }
            state.summary.coversFailed += 1
            if announced.insert(url).inserted {
                observer.receive(.cover(.failed(url: url, reason: error.description)))
            }
            let entry = state.catalogue.entries[albumIndex]
            let message = "album \(albumIndex + 1) (\"\(entry.album.title)\" by \(entry.album.artist)) shows a placeholder: cover '\(url)': \(error.description)"
            state.report(Diagnostic(state.options.strict ? .error : .warning, path: archive, position: entry.position, message: message), to: observer)
        }
        state.images = finalImages
        state.files.append(contentsOf: assets.files)
    }

    /// Whether a cover that could not be thumbnailed is copied as it is instead: an SVG that this
    /// libvips cannot read (one built without librsvg). That is not a failure.
    private static func isCopiedAsIs(_ cover: Cover, after error: ThumbnailError) -> Bool {
        cover.kind == .svg && error.reason == .unsupported
    }
}
