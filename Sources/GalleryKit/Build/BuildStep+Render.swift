import Foundation

extension BuildStep {
    /// Renders every page, the SVG strip, the data file and the sitemap into the staging folder.
    ///
    /// Pages render in parallel, and each is checked by the validator while its bytes are still
    /// in memory, so a build of any size holds only a few pages at a time; the findings wait for
    /// the validate step. Nothing reaches the output folder yet.
    public static let render = BuildStep(name: "render") { state, _ in
        guard let plan = state.plan, let templates = state.templates, let assets = state.assets else {
            throw BuildFailure(step: "render", reason: "nothing to render: an earlier step did not finish")
        }
        let renderer = SiteRenderer(plan: plan, templates: templates, config: state.config, images: state.images, assets: assets.paths)
        let staging = try StagingArea(for: state.outputFolder)
        state.staged = staging
        let pages = plan.pages
        let outputPaths = Set(plan.pagePaths + state.files.map(\.path) + SiteFiles.generated)
        let validator = PageValidator(outputPaths: outputPaths, basePath: state.config.basePath)
        state.validator = validator
        let findings = try await Parallel.mapChunks(count: pages.count) { range in
            var findings: [Diagnostic] = []
            let fragments = FragmentCache()
            for index in range {
                let page = pages[index]
                let path = plan.path(of: page)
                let bytes = renderer.render(page, fragments: fragments)
                let diagnostics = validator.validateXHTML(bytes, path: path)
                if !diagnostics.isEmpty {
                    let (output, trace) = renderer.renderTraced(page)
                    findings += TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: templates)
                }
                try staging.stage(bytes, as: path)
            }
            return findings
        }
        state.pageFindings = findings.flatMap { $0 }
        try staging.stage(CarouselSVG.render(plan: plan, images: state.images, title: state.config.title).utf8, as: SiteFiles.carousel)
        try staging.stage(DataFile.render(plan: plan, images: state.images).utf8, as: SiteFiles.data)
        try staging.stage(Sitemap.render(plan: plan, baseURL: state.config.baseURL).utf8, as: SiteFiles.sitemap)
        for file in state.files {
            switch file.content {
            case .bytes(let bytes): try staging.stage(bytes, as: file.path)
            case .copy(let source): try staging.stage(copyOf: source, as: file.path)
            }
        }
    }

    /// Reports what the page checks found (a template mistake repeated on many pages once),
    /// validates the SVG strip against its schema and the sitemap's XML, and with `--strict`
    /// turns warnings into a failure. Any error stops the build here, so nothing is written.
    public static let validate = BuildStep(name: "validate") { state, observer in
        guard let staging = state.staged, let validator = state.validator else { return }
        let outputFolder = SiteFolder.display(state.outputFolder)
        var findings = state.pageFindings
        if let file = staging.file(for: SiteFiles.carousel) {
            findings += validator.validateSVG(Array(try Data(contentsOf: file)), path: SiteFiles.carousel)
        }
        if let file = staging.file(for: SiteFiles.sitemap) {
            findings += validator.validateWellFormed(Array(try Data(contentsOf: file)), path: SiteFiles.sitemap)
        }
        for var diagnostic in DiagnosticDigest.condense(findings) {
            diagnostic.path = outputFolder + "/" + diagnostic.path
            state.report(diagnostic, to: observer)
        }
        if state.options.strict, state.diagnostics.contains(where: { $0.severity == .warning }) {
            state.report(.error("--strict: the build has warnings, so nothing was written", path: SiteFolder.display(state.options.site.root)), to: observer)
        }
    }

    /// Moves the staged site into the output folder.
    public static let write = BuildStep(name: "write") { state, _ in
        guard let staging = state.staged else { return }
        state.summary.written = try staging.commit(into: state.outputFolder)
        state.staged = nil
    }
}

/// The files every build writes besides pages, assets and covers.
enum SiteFiles {
    static let carousel = "carousel.svg"
    static let data = "albums.json"
    static let sitemap = "sitemap.xml"
    static let generated = [carousel, data, sitemap]
}
