import Foundation

extension BuildStep {
    /// Renders every page, the SVG strip, the data file and the sitemap, and stages them beside
    /// the output folder. Pages render in parallel; nothing reaches the output yet.
    public static let render = BuildStep(name: "render") { state, _ in
        guard let plan = state.plan, let templates = state.templates, let assets = state.assets else {
            throw BuildFailure(step: "render", reason: "nothing to render: an earlier step did not finish")
        }
        let renderer = SiteRenderer(plan: plan, templates: templates, config: state.config, images: state.images, assets: assets.paths)
        state.renderer = renderer
        let staging = try StagingArea(for: state.outputFolder)
        state.staged = staging
        let pages = plan.pages
        _ = try await Parallel.mapChunks(count: pages.count) { range in
            for index in range {
                let page = pages[index]
                try staging.stage(renderer.render(page), as: plan.path(of: page))
            }
        }
        try staging.stage(CarouselSVG.render(plan: plan, images: state.images, title: state.config.title).utf8, as: "carousel.svg")
        try staging.stage(DataFile.render(plan: plan, images: state.images).utf8, as: "albums.json")
        try staging.stage(Sitemap.render(plan: plan, baseURL: state.config.baseURL).utf8, as: "sitemap.xml")
    }

    /// Checks every staged page and the SVG strip with libxml2 and gallery's own rules (unique
    /// ids, `alt` text, tile sizes, links that resolve). Any error stops the build here, so
    /// nothing broken is written.
    public static let validate = BuildStep(name: "validate") { state, observer in
        guard let staging = state.staged, let plan = state.plan, let templates = state.templates, let renderer = state.renderer else { return }
        let outputPaths = Set(staging.paths).union(state.files.map(\.path))
        let validator = PageValidator(outputPaths: outputPaths, basePath: state.config.basePath)
        let pages = plan.pages
        let outputFolder = SiteFolder.display(state.outputFolder)
        let findings = try await Parallel.mapChunks(count: pages.count) { range in
            var findings: [Diagnostic] = []
            for index in range {
                let page = pages[index]
                let path = plan.path(of: page)
                guard let file = staging.file(for: path) else { continue }
                let bytes = Array(try Data(contentsOf: file))
                let diagnostics = validator.validateXHTML(bytes, path: path)
                guard !diagnostics.isEmpty else { continue }
                let (output, trace) = renderer.renderTraced(page)
                for var diagnostic in TemplateAttribution.attribute(diagnostics, output: output, trace: trace, templates: templates) {
                    diagnostic.path = outputFolder + "/" + path
                    findings.append(diagnostic)
                }
            }
            return findings
        }.flatMap { $0 }
        for diagnostic in DiagnosticDigest.condense(findings) { state.report(diagnostic, to: observer) }
        if let file = staging.file(for: "carousel.svg") {
            let diagnostics = validator.validateSVG(Array(try Data(contentsOf: file)), path: "carousel.svg")
            for var diagnostic in diagnostics {
                diagnostic.path = outputFolder + "/" + diagnostic.path
                state.report(diagnostic, to: observer)
            }
        }
        if state.options.strict, state.diagnostics.contains(where: { $0.severity == .warning }) {
            state.report(.error("--strict: the build has warnings, so nothing was written", path: SiteFolder.display(state.options.site.root)), to: observer)
        }
    }

    /// Moves the staged outputs into the output folder and copies the covers and assets.
    public static let write = BuildStep(name: "write") { state, _ in
        guard let staging = state.staged else { return }
        let output = state.outputFolder
        var written = try staging.commit(into: output)
        state.staged = nil
        for file in state.files {
            let target = output.appending(path: file.path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(file.bytes(), to: target, sync: false)
            written += 1
        }
        state.summary.written = written
    }
}
