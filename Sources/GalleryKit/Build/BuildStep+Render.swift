import Foundation

extension BuildStep {
    /// Renders every page whose inputs changed, the SVG strip, the data file and the sitemap, and
    /// stages what differs from the output folder.
    ///
    /// Pages render in parallel, and each is checked by the validator while its bytes are still
    /// in memory, so a build of any size holds only a few pages at a time; the findings wait for
    /// the validate step. A page whose input key matches the previous build's manifest, and whose
    /// file is in place, is skipped. Nothing reaches the output folder yet.
    public static let render = BuildStep(name: "render") { state, _ in
        guard let plan = state.plan, let templates = state.templates, let assets = state.assets else {
            throw BuildFailure(step: "render", reason: "nothing to render: an earlier step did not finish")
        }
        let renderer = SiteRenderer(plan: plan, templates: templates, config: state.config, images: state.images, assets: assets.paths)
        let keys = PageKeys(plan: plan, config: state.config, templates: templates, assets: assets.paths, placeholder: assets.placeholder, images: state.images)
        let staging = try StagingArea(for: state.outputFolder)
        state.staged = staging
        // --clean still reads the old manifest, to delete what is gone, but compares with nothing.
        let ledger = OutputLedger(previous: state.options.clean ? BuildManifest() : state.previousManifest, root: state.outputFolder.standardizedFileURL.path)
        let pages = plan.pages
        let chunks = DataFile.chunkPaths(count: plan.catalogue.count)
        let outputPaths = Set(plan.pagePaths + state.files.map(\.path) + SiteFiles.generated + chunks)
        let validator = PageValidator(outputPaths: outputPaths, basePath: state.config.basePath)
        state.validator = validator

        let results = try await Parallel.mapChunks(count: pages.count) { range in
            var batch = RenderBatch()
            let fragments = FragmentCache()
            for index in range {
                let page = pages[index]
                let path = plan.path(of: page)
                let key = keys.key(for: page, in: plan)
                if let entry = ledger.inPlace(path, key: key) {
                    batch.record(path, .inPlace(entry), isPage: true)
                    continue
                }
                let bytes = renderer.render(page, fragments: fragments)
                let diagnostics = validator.validateXHTML(bytes, path: path)
                if !diagnostics.isEmpty {
                    let (output, trace) = renderer.renderTraced(page)
                    batch.findings += TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: templates)
                }
                let outcome = ledger.outcome(path, key: key, bytes: bytes)
                if case .changed = outcome { try staging.stage(bytes, as: path) }
                batch.record(path, outcome, isPage: true)
            }
            return batch
        }
        var total = RenderBatch()
        for batch in results { total.merge(batch) }

        // Made from every album (or a chunk of them), and skipped like pages when their key says
        // nothing they show has changed: at 10k albums they are most of a no-op rebuild's work.
        let images = state.images
        let title = state.config.title
        let baseURL = state.config.baseURL
        var generated: [(path: String, key: UInt64, render: () -> String)] = [
            (SiteFiles.carousel, keys.key(forGenerated: 1), { CarouselSVG.render(plan: plan, images: images, title: title) }),
            (SiteFiles.data, keys.key(forGenerated: 2), { DataFile.render(plan: plan, images: images) }),
            (SiteFiles.sitemap, keys.key(forGenerated: 3), { Sitemap.render(plan: plan, baseURL: baseURL) }),
        ]
        for (k, path) in chunks.enumerated() {
            let range = DataFile.chunkRange(k, count: plan.catalogue.count)
            generated.append((path, keys.key(forGenerated: 4, albums: range), { DataFile.renderChunk(k, plan: plan, images: images) }))
        }
        for (path, key, render) in generated {
            if let entry = ledger.inPlace(path, key: key) {
                total.record(path, .inPlace(entry))
                continue
            }
            let text = render()
            let outcome = ledger.outcome(path, key: key, bytes: text.utf8)
            if case .changed = outcome { try staging.stage(text.utf8, as: path) }
            total.record(path, outcome)
        }
        for file in state.files {
            if let key = file.contentKey, let entry = ledger.inPlace(file.path, key: key) {
                total.record(file.path, .inPlace(entry))
                continue
            }
            let bytes = try file.bytes()
            let outcome = ledger.outcome(file.path, key: file.contentKey ?? 0, bytes: bytes)
            if case .changed = outcome {
                switch file.content {
                case .bytes(let bytes): try staging.stage(bytes, as: file.path)
                case .copy(let source): try staging.stage(copyOf: source, as: file.path)
                case .cached(let source): try staging.stage(copyOf: source, as: file.path, linking: true)
                }
            }
            total.record(file.path, outcome)
        }
        state.pageFindings = total.findings
        state.manifest = total.manifest
        state.summary.unchanged = total.unchanged
        state.summary.pagesUnchanged = total.pagesUnchanged
        state.summary.pagesWritten = pages.count - total.pagesUnchanged
    }
}

/// What one batch of outputs came to: manifest entries, findings and the unchanged count.
struct RenderBatch: Sendable {
    var manifest = BuildManifest()
    var findings: [Diagnostic] = []
    var unchanged = 0
    var pagesUnchanged = 0

    mutating func record(_ path: String, _ outcome: OutputLedger.Outcome, isPage: Bool = false) {
        switch outcome {
        case .inPlace(let entry), .unchanged(let entry):
            manifest.entries[path] = entry
            unchanged += 1
            if isPage { pagesUnchanged += 1 }
        case .changed(let entry):
            manifest.entries[path] = entry
        }
    }

    mutating func merge(_ other: RenderBatch) {
        manifest.entries.merge(other.manifest.entries) { $1 }
        findings += other.findings
        unchanged += other.unchanged
        pagesUnchanged += other.pagesUnchanged
    }
}

/// The files every build writes besides pages, assets and covers.
enum SiteFiles {
    static let carousel = "carousel.svg"
    static let data = "albums.json"
    static let sitemap = "sitemap.xml"
    static let generated = [carousel, data, sitemap]
}
