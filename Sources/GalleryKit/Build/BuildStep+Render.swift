import Foundation

extension BuildStep {
    /// Renders every page whose inputs changed, the SVG strip, the data files and the sitemap,
    /// checks each while its bytes are in memory, and stages what differs from the output folder.
    ///
    /// Everything renders in one parallel pass over a list of work: runs of pages
    /// (``runs(of:cores:)``), and each file made from every album (or a chunk of them). The
    /// longest items go first (the run that holds the index pages, then the strip and the data
    /// file), so no core is left waiting on one at the end: after a one-album edit they are most
    /// of the work. A build holds only a few outputs at a time; the findings wait for the
    /// validate step. An output whose input key matches the previous build's manifest, and whose
    /// file is in place, is skipped. Nothing reaches the output folder yet.
    public static let render = BuildStep(name: "render") { state, observer in
        guard let plan = state.plan, let templates = state.templates, let assets = state.assets else {
            throw BuildFailure(step: "render", reason: "nothing to render: an earlier step did not finish")
        }
        // The keys, the validator's index of every output and the renderer's tiles each take a
        // pass over every album (0.08 s apiece at 100k albums): made side by side.
        let (config, images) = (state.config, state.images)
        async let pageKeys = PageKeys(plan: plan, config: config, templates: templates, assets: assets.paths, placeholder: assets.placeholder, images: images)
        let renderer = SiteRenderer(plan: plan, templates: templates, config: config, images: images, assets: assets.paths)
        let ahead = state.stagingAhead
        state.stagingAhead = nil
        let staging = try await ahead?.value ?? StagingArea(for: state.outputFolder)
        state.staged = staging
        let pages = plan.pages
        let pagePaths = pages.map(plan.path(of:))
        let sitemapLimit = state.options.sitemapLimit
        // The data files and the sitemap's parts (a site of over 50,000 pages), made from a
        // range of the albums each.
        let chunks = DataFile.chunkPaths(count: plan.catalogue.count) + Sitemap.partPaths(plan: plan, limit: sitemapLimit)
        // The validator's index of every output path, made beside the keys (at 10k albums each
        // is a few milliseconds that an edit would otherwise wait for in turn).
        let filePaths = state.files.map(\.path)
        let basePath = config.basePath
        async let madeValidator = PageValidator(outputPaths: Set(pagePaths + filePaths + SiteFiles.generated + chunks), basePath: basePath)
        if !assets.staticPaths.isEmpty {
            Self.reportStaticFilesInTheWay(assets.staticPaths, made: Set(pagePaths + SiteFiles.generated + chunks), state: &state, observer: observer)
            if state.diagnostics.containsErrors { return }
        }
        let validator = await madeValidator
        // How the validate step names the output folder, for a page named in a message.
        let outputFolder = SiteFolder.display(state.outputFolder)
        let keys = await pageKeys
        // --clean still reads the old manifest, to delete what is gone, but compares with nothing
        // (the load step takes no survey of it either: the survey holds the records it was of).
        let ledger = OutputLedger(
            previous: state.options.clean ? BuildManifest() : state.previousManifest,
            root: state.outputFolder.standardizedFileURL.path,
            survey: state.options.clean ? nil : await state.outputSurvey?.value
        )
        state.outputSurvey = nil
        // Where each album's line lies in the strip and the data file as the last build wrote them.
        let segmentMapsFile = SegmentMaps.file(for: BuildManifest.file(for: state.outputFolder, cache: state.cacheFolder))
        let previousMaps = state.options.clean ? SegmentMaps() : SegmentMaps.load(from: segmentMapsFile)
        state.previousSegmentMaps = previousMaps

        // Made from every album (or a chunk of them), and skipped like pages when their key says
        // nothing they show has changed: at 10k albums they are most of a no-op rebuild's work.
        let (title, text, language) = (config.title, config.text, config.language)
        let baseURL = config.baseURL
        var generated = [
            GeneratedFile(path: SiteFiles.carousel, key: keys.key(forGenerated: CarouselSVG.keyTag), check: .svg, segments: .init(
                file: CarouselSVG.segmented(plan: plan, images: images, title: title, text: text, language: language),
                context: keys.context(forGenerated: CarouselSVG.keyTag), keys: keys.albums
            )),
            GeneratedFile(path: SiteFiles.data, key: keys.key(forGenerated: 2, withParams: true), check: nil, segments: .init(
                file: DataFile.segmented(plan: plan, images: images),
                context: keys.context(forGenerated: 2, withParams: true), keys: keys.albumsWithParams
            )),
            GeneratedFile(path: SiteFiles.sitemap, key: keys.sitemap, check: .wellFormed) { Sitemap.render(plan: plan, baseURL: baseURL, limit: sitemapLimit) },
        ]
        for (k, path) in Sitemap.partPaths(plan: plan, limit: sitemapLimit).enumerated() {
            generated.append(GeneratedFile(path: path, key: FastHash.combine([keys.sitemap, UInt64(k + 1)]), check: .wellFormed) { Sitemap.renderPart(k, plan: plan, baseURL: baseURL, limit: sitemapLimit) })
        }
        for (k, path) in DataFile.chunkPaths(count: plan.catalogue.count).enumerated() {
            let range = DataFile.chunkRange(k, count: plan.catalogue.count)
            generated.append(GeneratedFile(path: path, key: keys.key(forGenerated: 4, albums: range, withParams: true), check: nil) { DataFile.renderChunk(k, plan: plan, images: images) })
        }
        // What the previous build made that this one does not: pages in place that may link
        // to it are made again.
        let removed = RemovedOutputs(previous: ledger.previous, index: validator.pathIndex)
        let indexPages = IndexPageSplicer(maps: previousMaps.pages, keys: keys, outputPaths: validator.outputPaths)
        let runs = Self.runs(of: pages.count, cores: ProcessInfo.processInfo.activeProcessorCount)
        let work: [RenderWork] = runs.prefix(1).map(RenderWork.pages) + generated.map(RenderWork.generated) + runs.dropFirst().map(RenderWork.pages)

        // One renderer for each thread rendering pages at once: a shared one's counts were contended.
        let renderers = PerThreadCopies { renderer.isolated() }
        let results = try await Parallel.mapChunks(count: work.count, chunkSize: 1) { range in
            var batch = RenderBatch()
            for item in range {
                switch work[item] {
                case .pages(let run):
                    try renderers.withCopy { renderer in
                        let fragments = FragmentCache()
                        // The bytes of a page in place, read to tell whether it may link to a removed file.
                        var scratch: [UInt8] = []
                        for index in run {
                            let page = pages[index]
                            let path = pagePaths[index]
                            let key = keys.key(for: page, in: plan)
                            if let entry = ledger.inPlace(path, key: key) {
                                // A page in place that may link to a file this build no longer makes
                                // is made and checked again, as a clean build would.
                                if !removed.isEmpty, ledger.withContents(path, size: entry.size, buffer: &scratch, { removed.mayLink(from: path, bytes: $0) }) {
                                    batch.rechecked.append(path)
                                } else {
                                    batch.record(path, .inPlace(entry), isPage: true)
                                    if case .index = page, let map = previousMaps.pages[path], map.outputHash == entry.outputHash { batch.pageMaps.append((path, map)) }
                                    continue
                                }
                            }
                            let bytes: [UInt8]
                            let diagnostics: [Diagnostic]
                            var map: FragmentMap?
                            if case .index(let number) = page {
                                let made = indexPages.render(page, number: number, path: path, renderer: renderer, validator: validator, ledger: ledger)
                                (bytes, diagnostics, map) = (made.bytes, made.diagnostics, made.map)
                                if made.spliced { batch.spliced.append(path) }
                                if made.checkedInPart { batch.checkedInPart.append(path) }
                            } else {
                                bytes = renderer.render(page, fragments: fragments)
                                diagnostics = validator.validateXHTML(bytes, path: path, fragments: fragments)
                            }
                            if !diagnostics.isEmpty {
                                let (output, trace) = renderer.renderTraced(page)
                                batch.findings += TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: templates, outputFolder: outputFolder, pageTemplate: renderer.templateName(for: page))
                            }
                            let outcome = ledger.outcome(path, key: diagnostics.isEmpty ? key : OutputLedger.keyShowingFindingsAgain(key), bytes: bytes)
                            if var map {
                                map.outputHash = outcome.entry.outputHash
                                batch.pageMaps.append((path, map))
                            }
                            if case .changed = outcome { try staging.stage(bytes, as: path) }
                            batch.record(path, outcome, isPage: true)
                        }
                        batch.tilesLeftOut += fragments.leftOut
                    }
                case .generated(let file):
                    if let entry = ledger.inPlace(file.path, key: file.key) {
                        batch.record(file.path, .inPlace(entry))
                        if let map = previousMaps.maps[file.path], map.outputHash == entry.outputHash { batch.segmentMaps.append((file.path, map)) }
                        continue
                    }
                    let made = Self.make(file, maps: previousMaps, ledger: ledger, validator: validator)
                    let bytes = made.bytes
                    var outcome = ledger.outcome(file.path, key: file.key, bytes: bytes)
                    if var map = made.map {
                        map.outputHash = outcome.entry.outputHash
                        batch.segmentMaps.append((file.path, map))
                    }
                    if made.spliced { batch.spliced.append(file.path) }
                    // Bytes the output folder already holds were checked when they were written
                    // (if that found something, again), and a splice's remade segments when it
                    // was made.
                    let foundBefore = ledger.previous.entries[file.path]?.inputKey == OutputLedger.keyShowingFindingsAgain(file.key)
                    if outcome.isChange || foundBefore, !made.spliced {
                        let findings: [Diagnostic] = switch file.check {
                        case .svg: validator.validateSVG(bytes, path: file.path)
                        case .wellFormed: validator.validateWellFormed(bytes, path: file.path)
                        case nil: []
                        }
                        batch.laterFindings += findings
                        if !findings.isEmpty { outcome = ledger.outcome(file.path, key: OutputLedger.keyShowingFindingsAgain(file.key), bytes: bytes) }
                    }
                    if case .changed = outcome { try staging.stage(bytes, as: file.path) }
                    batch.record(file.path, outcome)
                }
            }
            return batch
        }
        var total = RenderBatch()
        for batch in results { total.merge(batch) }

        for file in state.files {
            if let key = file.contentKey, let entry = ledger.inPlace(file.path, key: key) {
                total.record(file.path, .inPlace(entry))
                continue
            }
            let outcome = if case .streamed(_, let size, let hash) = file.content {
                ledger.outcome(file.path, key: file.contentKey ?? 0, size: size, hash: hash)
            } else {
                ledger.outcome(file.path, key: file.contentKey ?? 0, bytes: try file.bytes())
            }
            if case .changed = outcome {
                switch file.content {
                case .bytes(let bytes): try staging.stage(bytes, as: file.path)
                case .copy(let source): try staging.stage(copyOf: source, as: file.path)
                case .cached(let source): try staging.stage(copyOf: source, as: file.path, linking: true)
                case .streamed(let source, _, let hash): try staging.stage(copyOf: source, as: file.path, expecting: hash)
                }
            }
            total.record(file.path, outcome)
        }
        // Pages' findings first, in page order, then the strip's and the sitemap's.
        state.renderFindings = total.findings + total.laterFindings
        // The style sheets' URLs, checked whether or not the sheet changed: a file they name may
        // be gone. Their findings name the sheet in the site's assets/, which is what to edit.
        state.stylesheetFindings = assets.stylesheets.flatMap { sheet in
            validator.validateStylesheet(sheet.bytes, path: sheet.path).map { diagnostic in
                var diagnostic = diagnostic
                diagnostic.path = sheet.source
                return diagnostic
            }
        }
        // Each output is recorded once: a page, a file made from the albums, or one of
        // `state.files`, the paths the validator's set was made of. When that set is as large as
        // the list, no path was recorded twice; when each was found among the previous records,
        // and they are as many, these are the previous build's outputs, and the manifest is the
        // previous one with the records of the outputs made again: no path is hashed 10k times
        // to make it, and the write step patches the previous file's lines.
        let recordedOnce = total.entries.count == pagePaths.count + filePaths.count + SiteFiles.generated.count + chunks.count
            && validator.outputPaths.count == total.entries.count
        if !state.options.clean, recordedOnce, total.newOutputs == 0, total.entries.count == ledger.previous.entries.count {
            var manifest = BuildManifest()
            manifest.entries = ledger.previous.entries
            for (path, entry) in total.remade { manifest.entries[path] = entry }
            state.manifest = manifest
            state.manifestChanges = total.remade
            state.manifest.sortedPaths = ledger.previous.sortedPaths
        } else {
            // The paths sorted on another core while this one puts the entries in a table: the
            // write step then writes the manifest's lines in their order instead of sorting them
            // itself, after the last page, when nothing else is left to run beside it.
            let entries = total.entries
            async let sortedPaths = BuildManifest.sortedUniquePaths(of: entries)
            state.manifest = total.manifest()
            state.manifestChanges = nil
            state.manifest.sortedPaths = await sortedPaths
        }
        state.outputFilesVerified = ledger.filesVerified
        // How many of the previous build's outputs this one made again (unknown, -1, when a path
        // was recorded twice), so the write step need not look each of them up to find none gone.
        state.previousOutputsMade = total.entries.count == state.manifest.entries.count ? total.entries.count - total.newOutputs : -1
        state.segmentMaps = SegmentMaps(maps: Dictionary(total.segmentMaps) { _, later in later }, pages: Dictionary(total.pageMaps) { _, later in later })
        state.spliced = total.spliced.sorted()
        state.checkedInPart = total.checkedInPart.sorted()
        state.rechecked = total.rechecked.sorted()
        state.tilesLeftOut = total.tilesLeftOut
        state.summary.unchanged = total.unchanged
        state.summary.pagesUnchanged = total.pagesUnchanged
        state.pagesStaged = pages.count - total.pagesUnchanged
    }
}

extension BuildStep {
    /// The runs of pages the render step hands out: the first of 64 pages (it holds the index
    /// pages, which take longest), then runs as long as an eighth of the pages left for each
    /// core, from 512 pages down to 64, so the last runs are short and the cores end together.
    ///
    /// Each run starts with an empty ``FragmentCache``: its first page renders and checks all
    /// its tiles. Runs of 64 throughout did that 157 times at 10k albums; these, 53 times on two
    /// cores (and 1,563 times at 100k against 229).
    static func runs(of count: Int, cores: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        while start < count {
            let left = count - start
            let length = runs.isEmpty ? 64 : min(512, max(64, left / (8 * max(1, cores))))
            runs.append(start..<min(start + length, count))
            start += length
        }
        return runs
    }

    /// A generated file's bytes: spliced from the file in place when it can be, else made in
    /// full; for a file of segments, with its map (the output hash left for the caller to set).
    static func make(_ file: GeneratedFile, maps: SegmentMaps, ledger: OutputLedger, validator: PageValidator) -> (bytes: [UInt8], map: SegmentMap?, spliced: Bool) {
        switch file.content {
        case .whole(let render):
            return (render(), nil, false)
        case .segments(let segments):
            let spliced = splice(file, segments, maps: maps, ledger: ledger, validator: validator)
            let made = spliced ?? segments.file.render()
            let map = SegmentMap(outputHash: 0, context: segments.context, head: made.head, tail: segments.file.tail.count, keys: segments.keys, lengths: made.lengths)
            return (made.bytes, map, spliced != nil)
        }
    }

    /// A file of segments made from the one in the output folder, its unchanged albums' segments
    /// copied, when the previous build's map of it holds: same context and number of albums,
    /// the file's bytes those the manifest and the map recorded, same head and tail. An SVG
    /// strip's remade tiles are checked between its head and tail; any finding, and the file
    /// is made and checked in full, so findings point into the whole file.
    static func splice(_ file: GeneratedFile, _ segments: GeneratedFile.Segments, maps: SegmentMaps, ledger: OutputLedger, validator: PageValidator) -> (bytes: [UInt8], head: Int, lengths: [UInt32])? {
        guard let map = maps.maps[file.path], map.context == segments.context,
              let entry = ledger.previous.entries[file.path], entry.outputHash == map.outputHash,
              var old = ledger.contents(file.path, spare: 1 << 16), old.count == entry.size, FastHash.contentHash(old) == entry.outputHash,
              let spliced = segments.file.splice(reusing: &old, map: map, keys: segments.keys) else { return nil }
        let findings: [Diagnostic] = switch file.check {
        case .svg: validator.validateSVG(spliced.remade, path: file.path)
        case .wellFormed: validator.validateWellFormed(spliced.remade, path: file.path)
        case nil: []
        }
        guard findings.isEmpty else { return nil }
        return (spliced.bytes, map.head, spliced.lengths)
    }
}

/// One item of the render step's work: a run of pages, or a file made from the albums.
enum RenderWork: Sendable {
    case pages(Range<Int>)
    case generated(GeneratedFile)
}

/// A file the render step makes from the albums rather than from a template: the SVG strip,
/// the data files, the sitemap.
struct GeneratedFile: Sendable {
    /// How its bytes are checked before they are staged.
    enum Check: Sendable {
        /// Against the carousel schema, with the strip's own rules.
        case svg
        /// As well-formed XML.
        case wellFormed
    }

    /// Its path in the output folder.
    var path: String
    /// Its input key (what it shows), for skipping it when unchanged.
    var key: UInt64
    /// Its check; `nil` for JSON.
    var check: Check?
    /// How its bytes are made.
    var content: Content

    enum Content: Sendable {
        /// Whole, each time.
        case whole(@Sendable () -> [UInt8])
        /// As a head, a segment per album and a tail: spliced after an edit.
        case segments(Segments)
    }

    /// A file of segments, with the keys that tell which to make again.
    struct Segments: Sendable {
        var file: SegmentedFile
        /// The key of everything the file shows but the albums' own values.
        var context: UInt64
        /// Each album's key: what its segment shows.
        var keys: [UInt64]
    }

    init(path: String, key: UInt64, check: Check?, segments: Segments) {
        (self.path, self.key, self.check, content) = (path, key, check, .segments(segments))
    }

    init(path: String, key: UInt64, check: Check?, render: @escaping @Sendable () -> [UInt8]) {
        (self.path, self.key, self.check, content) = (path, key, check, .whole(render))
    }
}

/// The files every build writes besides pages, assets and covers.
enum SiteFiles {
    static let carousel = "carousel.svg"
    static let data = "albums.json"
    static let sitemap = "sitemap.xml"
    static let generated = [carousel, data, sitemap]
}
