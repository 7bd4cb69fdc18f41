import Foundation

extension BuildStep {
    /// Gets every album's cover through the ``Library`` facade. A cover that cannot be had is a
    /// warning naming the album, the URL and the cause (an error with `--strict`); the album shows
    /// the placeholder.
    public static let fetchCovers = BuildStep(name: "fetch covers") { state, observer in
        let library = Library(site: state.options.site)
        let albums = state.catalogue.albums
        state.covers = await withTaskGroup(of: (Int, Result<Cover, CoverFailure>).self) { group in
            var results = [Result<Cover, CoverFailure>?](repeating: nil, count: albums.count)
            var next = 0
            let width = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)
            func addTask(_ index: Int) {
                group.addTask { (index, await library.cover(for: albums[index])) }
            }
            while next < min(width, albums.count) { addTask(next); next += 1 }
            for await (index, result) in group {
                results[index] = result
                if next < albums.count { addTask(next); next += 1 }
            }
            return results.map { $0 ?? .failure(CoverFailure(url: "", reason: "not fetched")) }
        }
        let archive = state.options.site.display(state.options.site.archive)
        for (index, result) in state.covers.enumerated() {
            guard case .failure(let failure) = result else { continue }
            state.summary.coversFailed += 1
            let entry = state.catalogue.entries[index]
            let message = "album \(index + 1) (\"\(entry.album.title)\" by \(entry.album.artist)) shows a placeholder: \(failure.description)"
            state.report(Diagnostic(state.options.strict ? .error : .warning, path: archive, position: entry.position, message: message), to: observer)
        }
    }

    /// Turns each cover into the images the pages use. Covers are copied into `covers/` under a
    /// content-hashed name (identical covers are written once); albums without a cover get the
    /// placeholder.
    public static let makeThumbnails = BuildStep(name: "make thumbnails") { state, _ in
        guard let assets = state.assets else { return }
        var written: Set<String> = []
        state.images = state.covers.map { result in
            guard case .success(let cover) = result else {
                return TileImage(src: assets.placeholder, isPlaceholder: true)
            }
            let path = "covers/\(cover.contentHash.prefix(16)).\(cover.kind.fileExtension)"
            if written.insert(path).inserted {
                state.files.append(OutputFile(path: path, content: .copy(of: cover.file)))
            }
            return TileImage(src: path)
        }
        state.files.append(contentsOf: assets.files)
    }

    /// Places the tiles and decides every page and its path.
    public static let layout = BuildStep(name: "layout") { state, _ in
        state.plan = SitePlan(catalogue: state.catalogue, carousel: state.config.carousel, basePath: state.config.basePath)
    }
}
