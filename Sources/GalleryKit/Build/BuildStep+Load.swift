import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension BuildStep {
    /// Why files cannot be made in `folder` (made if missing), or `nil` when they can.
    static func unwritable(_ folder: URL) -> String? {
        let path = folder.standardizedFileURL.path
        do {
            try StagingArea.makeFolders(path)
        } catch let error as AtomicFile.WriteError {
            return error.path == path ? error.reason : "\(SiteFolder.display(URL(fileURLWithPath: error.path))): \(error.reason)"
        } catch {
            return "\(error)"
        }
        let probe = path + "/.write-test-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// Reads `gallery.toml`, the templates, the assets and the archive; any error stops the build
    /// before a single cover is fetched.
    ///
    /// When the previous build into this output folder ended without findings and recorded a
    /// ``BuildStamp`` that still holds (same inputs, cover files untouched, every output in
    /// place), the build stops here with every output unchanged and the albums never decoded.
    public static let loadAlbums = BuildStep(name: "load") { state, observer in
        let site = state.options.site
        // Read once, for the settings and the digest alike.
        let configBytes = FileManager.default.contents(atPath: site.configFile.path).map { Array($0) }
        do throws(ArchiveError) {
            var (config, warnings) = try SiteConfig.load(from: site, contents: configBytes)
            if let baseURL = state.options.baseURL {
                // In gallery.toml "" means /; on the command line it is likelier a CI variable
                // that was never set, which made a site of relative links without a word.
                if baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
                    state.report(.error("--base-url is empty (a variable that is not set?); give the site's address, such as https://example.org/albums/, or / for the top of any host, or leave the option out to use gallery.toml's base_url (\(config.baseURL))", path: ""), to: observer)
                } else if let problem = SiteConfig.baseURLProblem(baseURL) {
                    state.report(.error("--base-url \(problem)", path: ""), to: observer)
                } else {
                    config.baseURL = SiteConfig.normalizedBaseURL(baseURL)
                }
            }
            if !state.options.analytics { config.analytics = .none }
            if let problem = config.analytics.problemDiagnostic(baseURL: config.baseURL, toml: configBytes, path: site.display(site.configFile)) {
                state.report(problem, to: observer)
            }
            state.config = config
            warnings.forEach { state.report($0, to: observer) }
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        // A site folder that is a file, or is not there (`--site /etc/passwd`, a typo), is said
        // first: the output folder it would hold was blamed instead.
        var siteIsFolder: ObjCBool = false
        if !FileManager.default.fileExists(atPath: site.root.path, isDirectory: &siteIsFolder) || !siteIsFolder.boolValue {
            state.report(ArchiveStore(site: site).missing, to: observer)
            return
        }
        // The cache among the site's files first, then the output folder (among them, or in
        // the cache), then the cache in the output folder: each conflict told by its cause.
        let cacheFolder = state.cacheFolder
        Thumbnailer.startLoadingIfCold(cache: state.thumbnailCacheFolder)
        let cacheProblem = { (output: URL?) in
            site.cacheConflict(cacheFolder, output: output).map { "\($0); name another with --cache or [build] cache (the default is .gallery-cache)" }
        }
        // Named by where it was given: --cache's folder, or gallery.toml's [build] cache.
        let cachePath = state.options.cache == nil ? site.display(site.configFile) : SiteFolder.display(cacheFolder)
        // Read again only for a refusal: every build passes here.
        let cacheFromConfig = state.options.cache == nil
        let cacheLine = { cacheFromConfig ? SiteConfig.position(of: "cache", in: "build", site: site) : nil }
        if let conflict = cacheProblem(nil) {
            state.report(.error(conflict, path: cachePath, at: cacheLine()), to: observer)
            return
        }
        let outputPath = state.options.output == nil ? site.display(site.configFile) : SiteFolder.display(state.outputFolder)
        if let conflict = site.outputConflict(state.outputFolder, cache: state.cacheFolder) {
            let line = state.options.output == nil ? SiteConfig.position(of: "output", in: "build", site: site) : nil
            state.report(.error("\(conflict); write the site to another folder with --output or [build] output (the default is public)", path: outputPath, at: line), to: observer)
            return
        }
        if let conflict = cacheProblem(state.outputFolder) {
            state.report(.error(conflict, path: cachePath, at: cacheLine()), to: observer)
            return
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: state.outputFolder.path, isDirectory: &isFolder), !isFolder.boolValue {
            let what = state.options.output == nil ? "the output folder \(SiteFolder.display(state.outputFolder)) is a file" : "this is a file, not a folder"
            state.report(.error("\(what); name a folder (it is made if missing) with --output or [build] output", path: outputPath), to: observer)
            return
        }
        // The previous build's record, read while the templates, the assets and the archive are.
        let (outputFolder, cache) = (state.outputFolder, state.cacheFolder)
        let earlyManifest = Task { EarlyManifest.read(for: outputFolder, cache: cache) }
        do throws(ArchiveError) {
            state.templates = try TemplateSet.load(overridesIn: site.templates, displayFolder: site.display(site.templates))
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        state.templates?.lint(config: state.config).forEach { state.report($0, to: observer) }
        if let templates = state.templates, let provider = state.config.analytics.provider, !templates.pagesInclude("partials/analytics") {
            state.report(.warning(
                "[analytics] chooses \(type(of: provider).name), but no page template includes {{>partials/analytics}}, so no page would report a visit; add it to the <head> of templates/base.mustache",
                path: site.display(site.configFile)
            ), to: observer)
        }
        do throws(ArchiveError) {
            let assets = try AssetBundle(siteAssets: site.assets, siteStatic: site.staticFolder, siteRoot: site.root)
            assets.warnings.forEach { state.report($0, to: observer) }
            state.assets = assets
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        let library = Library(site: site)
        let archive: [UInt8]
        do throws(ArchiveError) {
            archive = try library.store.read()
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
            return
        }
        // Found now, not after every page is rendered (a read-only checkout needs --cache), and
        // only in a folder that is a site: a typo in --site makes no folder.
        if let why = Self.unwritable(state.cacheFolder) {
            let path = state.options.cache == nil ? site.display(site.configFile) : SiteFolder.display(state.cacheFolder)
            state.report(.error("the cache folder \(SiteFolder.display(state.cacheFolder)) cannot be written (\(why)); name a writable one with --cache DIR or [build] cache", path: path), to: observer)
            return
        }
        BuildManifest.adoptEarlierRecord(for: state.outputFolder, cache: state.cacheFolder)
        let manifestFile = BuildManifest.file(for: state.outputFolder, cache: state.cacheFolder)
        // Folders inside a writable cache that are not (a plain file in their place, a folder
        // made read-only): the manifests' was found only in the write step, with the output
        // folder half changed; the thumbnails' never, every build making them all again.
        let builds = manifestFile.deletingLastPathComponent()
        if let why = Self.unwritable(builds) {
            state.report(.error("the folder \(SiteFolder.display(builds)) in the cache cannot be written (\(why)); the build records what it wrote there, so make it writable, or remove it (it is made again)", path: SiteFolder.display(builds)), to: observer)
            return
        }
        if let why = Self.unwritable(state.thumbnailCacheFolder) {
            state.report(.warning("the thumbnail cache \(SiteFolder.display(state.thumbnailCacheFolder)) cannot be written (\(why)), so every build makes the thumbnails again; make it writable, or remove it (it is made again)", path: SiteFolder.display(state.thumbnailCacheFolder)), to: observer)
        }
        state.outputLock = OutputLock(manifest: manifestFile, output: outputFolder) {
            observer.receive(.diagnostic(Diagnostic(.note, path: SiteFolder.display(outputFolder), message: "another gallery build is writing this folder; waiting for it to finish")))
        }
        var digest: UInt64?
        if !state.diagnostics.containsErrors, let templates = state.templates, let assets = state.assets {
            digest = BuildStamp.digest(
                version: GalleryVersion.current, config: configBytes, archive: archive,
                templates: templates.fingerprint, assets: assets.fingerprint, baseURL: state.options.baseURL,
                analytics: state.options.analytics
            )
            state.inputDigest = digest
        }
        func decode(_ state: inout BuildState) {
            do throws(ArchiveError) {
                let (catalogue, warnings) = try library.catalogue(decoding: archive)
                state.catalogue = catalogue
                state.summary.albums = catalogue.count
                warnings.forEach { state.report($0, to: observer) }
            } catch {
                error.diagnostics.forEach { state.report($0, to: observer) }
            }
        }
        // --gc needs the thumbnails step to know what is used, --clean-destination the write step.
        let mayStop = !state.options.clean && !state.options.gc && !state.options.cleanDestination && state.options.fetchMode != .refresh
        guard let digest, mayStop, BuildManifest.stampInputs(in: manifestFile) == digest else {
            // No stamp can hold (an edit): the manifest (10k lines at 10k albums) is read
            // beside the albums rather than before them, and the outputs it records are
            // looked at while the albums are decoded and their covers found.
            let (output, clean) = (state.outputFolder, state.options.clean)
            // The lock is held now: the record read early, if its files have not changed since.
            let manifest = Task { await earlyManifest.value.current() }
            if !clean {
                state.outputSurvey = Task { await OutputSurvey.take(of: manifest.value, root: output.standardizedFileURL.path) }
            }
            decode(&state)
            state.previousManifest = await manifest.value
            return
        }
        state.previousManifest = await earlyManifest.value.current()
        if let stamp = state.previousManifest.stamp,
           await stamp.holds(inputs: digest, manifest: state.previousManifest, manifestFile: manifestFile, outputRoot: state.outputFolder.standardizedFileURL.path) {
            stamp.apply(to: &state.summary, outputs: state.previousManifest.entries.count)
            return
        }
        decode(&state)
    }
}
