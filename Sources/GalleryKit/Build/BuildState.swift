import Foundation

/// The values build steps hand to one another. Each step reads what earlier steps produced and
/// adds its own; nothing else is shared.
public struct BuildState: Sendable {
    /// The options the build was started with.
    public let options: BuildOptions
    /// The settings from `gallery.toml`.
    public var config = SiteConfig()
    /// The albums (after `loadAlbums`).
    public var catalogue = Catalogue(albums: [])
    /// The albums' covers by distinct URL (after `fetchCovers`).
    var coverSlots: CoverSlots?
    /// Each album's cover or why it has none (after `fetchCovers`).
    public var covers: [Result<Cover, CoverFailure>] { coverSlots?.perAlbum ?? [] }
    /// The covers the albums show, each once however many albums share it (after `fetchCovers`).
    public var distinctCovers: [Cover] { coverSlots?.results.compactMap { try? $0.get() } ?? [] }
    /// The thumbnails begun as the covers came in (from `fetchCovers` to `makeThumbnails`).
    var thumbnailQueue: ThumbnailQueue?
    /// Each album's tile images (after `makeThumbnails`).
    public var images: [TileImage] = []
    /// Files copied into the site as they are: assets, covers, thumbnails.
    public var files: [OutputFile] = []
    /// The stylesheet, script and placeholder (after `loadAlbums`).
    public var assets: AssetBundle?
    /// The templates (after `loadAlbums`).
    public var templates: TemplateSet?
    /// The pages and their paths (after `layout`).
    public var plan: SitePlan?
    /// What the checks of rendered outputs found (after `render`): the pages', then the SVG
    /// strip's and the sitemap's; reported by `validate`.
    public var renderFindings: [Diagnostic] = []
    /// What the check of the site's style sheets found (after `render`), each finding naming
    /// the file in the site's `assets/`; reported by `validate` after the outputs' findings.
    public var stylesheetFindings: [Diagnostic] = []
    /// This build's hold on the output folder (from `loadAlbums` to the end of the build).
    var outputLock: OutputLock?
    /// What the previous build wrote (after `loadAlbums`).
    public var previousManifest = BuildManifest()
    /// The previous outputs' sizes and change times, being taken while the build goes on
    /// (from `loadAlbums` to `render`); `nil` when the render step is to `stat` them itself.
    var outputSurvey: Task<OutputSurvey, Never>?
    /// How many outputs changed since the previous manifest was written the render step read
    /// to tell whether they still hold what it records (``OutputLedger/filesVerified``).
    var outputFilesVerified = 0
    /// The digest of what `loadAlbums` read, for this build's stamp.
    var inputDigest: UInt64?
    /// The stamps of the cover files this build used and of the cover cache's index (after
    /// `fetchCovers`); `nil` when one could not be had, and then no stamp is recorded.
    var coverStamps: [String: FileStamp]?
    /// The pages the render step staged: written, and counted so, only when the write step
    /// commits them.
    var pagesStaged = 0
    /// With `--gc`, the thumbnail cache and the files of it this build used (thumbnails and
    /// size files, by path); `nil` when the thumbnails step did not run.
    var thumbnailsUsed: (cache: ThumbnailCache, files: Set<String>)?
    /// The errors `--strict` made of covers that could not be had: the build goes on to the
    /// thumbnails with those, so the covers that cannot be decoded are named in the same run.
    var strictCoverErrors = 0
    /// What this build's output folder holds when it is done (after `render`).
    public var manifest = BuildManifest()
    /// Where each album's segment lies in the strip and the data file, as this build made them
    /// and as the previous build left them (see ``SegmentedFile``).
    var segmentMaps = SegmentMaps()
    var previousSegmentMaps = SegmentMaps()
    /// The album page that moved in this build (an album renamed, its slug with it), when one
    /// did and only one (after `write`): `gallery serve` sends a page open at the old address to
    /// the new one.
    public var movedAlbumPage: PageMove?
    /// The files of segments this build spliced from the ones in place (see ``SegmentedFile``).
    var spliced: [String] = []
    /// The index pages among them checked without the tiles they copied (see ``IndexPageSplicer``).
    var checkedInPart: [String] = []
    /// The pages whose inputs were unchanged but that were made and checked again, as they may
    /// link to a file this build no longer makes (see ``RemovedOutputs``).
    var rechecked: [String] = []
    /// How many tiles the album pages' checks left out, as an earlier page of their batch had
    /// checked them in the same place (``FragmentChecks``).
    var tilesLeftOut = 0
    /// How many of the previous manifest's outputs the render step made again (-1: unknown).
    var previousOutputsMade = -1
    /// When ``manifest`` is ``previousManifest`` with these records changed (the same outputs,
    /// some made again), the changes, so the write step can patch the lines the previous file held.
    var manifestChanges: [(path: String, entry: BuildManifest.Entry)]?
    /// Rendered, validated outputs waiting to be committed (after `render`).
    public var staged: StagingArea?
    /// A cold build's staging folder, being made with its album folders while the covers are
    /// fetched and thumbnailed (``BuildStep/stageAhead(_:)``); the render step takes it.
    var stagingAhead: Task<StagingArea, any Error>?
    /// Every finding so far.
    public var diagnostics: [Diagnostic] = []
    /// The counts and timings so far.
    public var summary = BuildSummary()

    /// A fresh state for a build.
    public init(options: BuildOptions) {
        self.options = options
    }

    /// The output folder: `--output`, else `[build] output` in the site folder.
    public var outputFolder: URL {
        options.site.output(configured: config.build.output, override: options.output)
    }

    /// The cache folder: `[build] cache`, in the site folder unless absolute.
    public var cacheFolder: URL {
        options.cache ?? options.site.folder(configured: config.build.cache)
    }

    /// The thumbnail cache's folder, inside ``cacheFolder``.
    var thumbnailCacheFolder: URL {
        cacheFolder.appending(path: "thumbnails", directoryHint: .isDirectory)
    }

    /// Records a finding and tells observers.
    mutating func report(_ diagnostic: Diagnostic, to observer: any BuildObserving) {
        diagnostics.append(diagnostic)
        observer.receive(.diagnostic(diagnostic))
    }
}

/// A build that could not finish: the step it stopped in and why.
public struct BuildFailure: Error, Sendable, CustomStringConvertible {
    /// The step's name.
    public var step: String
    /// What happened (the diagnostics carry the details).
    public var reason: String

    /// Creates a failure.
    public init(step: String, reason: String) {
        self.step = step
        self.reason = reason
    }

    public var description: String { "build failed in step '\(step)': \(reason)" }
}

/// An output folder's page that moved, by the folders' paths in the output (`albums/old/`).
public struct PageMove: Sendable, Hashable {
    /// Where it was.
    public var from: String
    /// Where it is now.
    public var to: String
}
