import Foundation

extension BuildStep {
    /// Reads `gallery.toml`, the archive, the templates and the assets; any error stops the build
    /// before a single cover is fetched.
    public static let loadAlbums = BuildStep(name: "load") { state, observer in
        let site = state.options.site
        do throws(ArchiveError) {
            var (config, warnings) = try SiteConfig.load(from: site)
            if let baseURL = state.options.baseURL { config.baseURL = SiteConfig.normalizedBaseURL(baseURL) }
            state.config = config
            warnings.forEach { state.report($0, to: observer) }
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        do throws(ArchiveError) {
            let (catalogue, warnings) = try Library(site: site).catalogue()
            state.catalogue = catalogue
            state.summary.albums = catalogue.count
            warnings.forEach { state.report($0, to: observer) }
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        do throws(ArchiveError) {
            state.templates = try TemplateSet.load(overridesIn: site.templates, displayFolder: site.display(site.templates))
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
        do throws(ArchiveError) {
            state.assets = try AssetBundle(siteAssets: site.assets)
        } catch {
            error.diagnostics.forEach { state.report($0, to: observer) }
        }
    }
}
