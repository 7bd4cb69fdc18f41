/// The outcome of a build, for the closing line and the JSON summary.
public struct BuildSummary: Sendable, Hashable, Codable {
    /// The number of albums.
    public var albums = 0
    /// Pages and files written because they are new or changed.
    public var written = 0
    /// Outputs whose bytes were already in place.
    public var unchanged = 0
    /// Outputs of a previous build that no longer exist and were deleted.
    public var removed = 0
    /// Pages (HTML) among the outputs written.
    public var pagesWritten = 0
    /// Pages among the outputs left as they were.
    public var pagesUnchanged = 0
    /// Pages among the outputs deleted (those of removed albums, index pages no longer needed).
    public var pagesRemoved = 0
    /// Covers that could not be used (placeholder shown).
    public var coversFailed = 0
    /// Covers downloaded in this build.
    public var coversDownloaded = 0
    /// Covers taken from the cache without touching the network.
    public var coversFromCache = 0
    /// Cached covers checked with a conditional request.
    public var coversRevalidated = 0
    /// Covers that are files in the site folder.
    public var coversLocal = 0
    /// Thumbnails encoded in this build.
    public var thumbnailsMade = 0
    /// Thumbnails taken from the thumbnail cache.
    public var thumbnailsCached = 0
    /// Cached thumbnails `--gc` removed, as this build did not use them.
    public var thumbnailsRemoved = 0
    /// Cached covers `--gc` removed, as no album names their URL any more.
    public var coversRemoved = 0
    /// Warnings.
    public var warnings = 0
    /// Errors.
    public var errors = 0
    /// Seconds per step, in order.
    public var timings: [StepTiming] = []
    /// Whether the site was written.
    public var succeeded = false
    /// The step the build stopped in, when it failed.
    public var failedStep: String?
    /// Whether a failed write step stopped before it changed the output folder (a folder in it
    /// that is a symbolic link is refused before anything moves).
    public var outputUnchanged = false
    /// Whether the build stopped after loading because nothing had changed since the last
    /// build without findings and every output was in place (see `BuildStamp`).
    public var upToDate = false

    /// Creates an empty summary.
    public init() {}

    /// How long one step took.
    public struct StepTiming: Sendable, Hashable, Codable {
        /// The step's name.
        public var step: String
        /// Its duration in seconds.
        public var seconds: Double
    }
}
