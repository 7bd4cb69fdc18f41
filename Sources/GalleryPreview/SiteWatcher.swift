import Foundation
import GalleryKit
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Watches the site's inputs (`content/`, `templates/`, `assets/`, `gallery.toml`) and rebuilds
/// when they change.
///
/// ``SiteChanges`` says when they did: from the kernel's file events where it can, else by
/// polling ``fingerprint(of:)``. A change is built once the inputs have stayed the same for
/// `quietPeriod`, so an editor's save-as-rename-and-chmod, or `gallery add` writing the archive
/// and the undo history, gives one rebuild, not three.
public struct SiteWatcher: Service {
    /// The builder that rebuilds.
    public var builder: PreviewBuilder
    /// Where changes come from.
    public var changes: SiteChanges
    /// How long the inputs must stay unchanged before a rebuild.
    public var quietPeriod: Duration
    /// The change token the last build saw, taken before it began, so an edit made while it ran
    /// (or before the watcher started) still triggers a rebuild.
    public var baseline: UInt64
    /// The first build, when the watcher makes it: it waits for the server to listen, builds,
    /// then calls `built` with the port.
    public var firstBuild: FirstBuild?
    /// Told before each rebuild what changed (`content/albums.json and gallery.toml`), or `nil`
    /// when the watcher cannot tell (polling): the terminal's rebuild line says it.
    public var reportChange: (@Sendable (String?) -> Void)?

    /// How the watcher makes the first build.
    public struct FirstBuild: Sendable {
        /// Yields the port once the server listens; ends without one if it cannot.
        public var listening: AsyncStream<Int>
        /// Called with the port after the first build (to say where the site is).
        public var built: @Sendable (Int) -> Void

        /// A first build.
        public init(listening: AsyncStream<Int>, built: @escaping @Sendable (Int) -> Void) {
            self.listening = listening
            self.built = built
        }
    }

    /// A watcher of the builder's site folder.
    public init(builder: PreviewBuilder, changes: SiteChanges, baseline: UInt64, firstBuild: FirstBuild? = nil, quietPeriod: Duration = .milliseconds(200)) {
        self.builder = builder
        self.changes = changes
        self.baseline = baseline
        self.firstBuild = firstBuild
        self.quietPeriod = quietPeriod
    }

    /// Makes the first build if asked to, then watches until graceful shutdown; a rebuild under
    /// way when it comes finishes first.
    public func run() async throws {
        var builder = self.builder
        let (changes, site) = (self.changes, builder.options.site)
        builder.onBuilt = { result in Self.watchBeyond(result, changes: changes, site: site) }
        var built = baseline
        if let firstBuild {
            var port: Int?
            for await listening in firstBuild.listening {
                port = listening
                break
            }
            guard let port, !Task.isCancelled, !Task.isShuttingDownGracefully else { return }
            built = changes.token()
            // What changed before the first build is in it.
            _ = changes.takeChangedFiles()
            await builder.build()
            firstBuild.built(port)
        }
        var seen = built
        var lastChange = ContinuousClock.now
        while !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: changes.interval)
            if Task.isCancelled { return }
            let now = changes.token()
            if now != seen {
                seen = now
                lastChange = .now
            } else if now != built, ContinuousClock.now - lastChange >= quietPeriod {
                built = now
                reportChange?(changes.takeChangedFiles().summary)
                // What changes while this runs differs from `built` and is seen on the next round.
                await builder.build()
            } else if let site = builder.state.returnedSite {
                builder.log("serve: the site folder \(SiteFolder.display(site)) is back; building it again")
                builder.state.update { $0.goneSite = nil }
                built = now
                reportChange?(nil)
                await builder.build()
            } else if let output = builder.state.missingOutput {
                builder.log("serve: the preview folder \(output.path) is gone; building it again")
                built = now
                reportChange?(nil)
                await builder.build()
            }
        }
    }

    /// Watches what a build read beyond the watched folders, as soon as it ends and before the
    /// open pages are told of it. (A file new to the list is taken as it is then: a change made
    /// to it in the moment between the build reading it and its end is missed.)
    static func watchBeyond(_ result: BuildState, changes: SiteChanges, site: SiteFolder) {
        // A build that stopped at its stamp read no cover: the list stands.
        if result.summary.upToDate { return }
        changes.watch(beyond: filesBeyondTheWatch(of: result, site: site))
    }

    /// The files a build read that the watch does not see: the archive and `gallery.toml` when
    /// they are symbolic links, and local covers outside the input folders or reached through a
    /// link (remote covers, in the cache, change only by a build).
    static func filesBeyondTheWatch(of result: BuildState, site: SiteFolder) -> [String] {
        var paths: [String] = []
        for file in [site.archive, site.configFile] {
            var info = stat()
            if lstat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK { paths.append(file.path) }
        }
        // Templates, assets and static files that are symbolic links (a theme's
        // `templates/album.mustache -> ../theme/album.mustache`): the watch sees the link, not
        // an edit of the file it leads to.
        paths += linkedFiles(in: [site.templates, site.assets, site.staticFolder])
        // Each input folder as written and with its links resolved: a cover below one is seen
        // only if no link stands between the folder and the file.
        let inputs = site.inputFolders.map { ($0.standardizedFileURL.path, $0.resolvingSymlinksInPath().path) }
        let cache = result.cacheFolder.standardizedFileURL.path + "/"
        var seen = Set<String>()
        // Covers share a few folders: each is resolved once (10,000 covers, one `lstat` each).
        var resolvedFolders: [String: String] = [:]
        for cover in result.distinctCovers {
            let path = cover.file.standardizedFileURL.path
            guard !path.hasPrefix(cache), seen.insert(path).inserted else { continue }
            let parent = PathText.parent(of: path)
            let resolvedParent: String
            if let known = resolvedFolders[parent] {
                resolvedParent = known
            } else {
                resolvedParent = URL(fileURLWithPath: parent).resolvingSymlinksInPath().path
                resolvedFolders[parent] = resolvedParent
            }
            var info = stat()
            let isLink = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
            let watched = !isLink && inputs.contains { folder, resolved in
                path.hasPrefix(folder + "/") && resolvedParent == resolved + parent.dropFirst(folder.count)
            }
            if !watched { paths.append(path) }
        }
        return paths
    }

    /// The files below `folders` that are symbolic links to files, by their paths as links;
    /// links to folders are not followed (the build does not follow them either).
    public static func linkedFiles(in folders: [URL]) -> [String] {
        var paths: [String] = []
        for folder in folders {
            guard let walker = FileManager.default.enumerator(at: folder.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isSymbolicLinkKey]) else { continue }
            for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue { paths.append(url.path) }
            }
        }
        return paths
    }

    /// Whether a change to a file or folder of this name is no change to the site: hidden names
    /// (editors' swap files, the archive's lock and history) and backups (the archive's
    /// `albums.json.bak`, an editor's `albums.json~`), except in `static/`, whose files are all
    /// published, dot files (`.nojekyll`, `.well-known/`) too, and where only editors' own files
    /// (``EditorLeftovers``: `.index.html.swp`, `.#notes`, `notes~`, gallery's `.x.tmp-…`), which
    /// are not published either, are left out.
    static func isIgnored(_ name: String, published: Bool) -> Bool {
        if EditorLeftovers.contains(name) { return true }
        if !published, name.hasSuffix(".bak") || isWriteProbe(name) { return true }
        return !published && name.hasPrefix(".")
    }

    /// Files that live a moment beside a file being saved: Vim's check that it may write in the
    /// folder (`4913`, or `5036`, … 123 apart when that is taken) and GNU `sed -i`'s temporary
    /// (`sedX2aB9q`), renamed onto the file. Alone, each started a rebuild of nothing, named in
    /// the terminal. Only outside `static/`, whose files are all published.
    static func isWriteProbe(_ name: String) -> Bool {
        if let number = Int(name), number >= 4913, (number - 4913) % 123 == 0 { return true }
        return name.utf8.count == 9 && name.hasPrefix("sed") && name.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The paths, sizes and modification times of the site's inputs, hashed: what polling
    /// compares. It stats every file, so at 100,000 covers it costs about a tenth of a second.
    public static func fingerprint(of site: SiteFolder) -> UInt64 {
        var parts: [UInt64] = []
        for folder in site.inputFolders {
            collect(folder.standardizedFileURL.path, into: &parts, published: folder == site.staticFolder)
        }
        add(site.configFile.standardizedFileURL.path, into: &parts)
        return FastHash.combine(parts)
    }

    /// Adds every file below a folder, in name order, skipping what ``isIgnored(_:published:)``
    /// leaves out (`published`: the folder is `static/` or below it).
    static func collect(_ folder: String, into parts: inout [UInt64], published: Bool = false) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names.sorted() where !isIgnored(name, published: published) {
            let path = folder + "/" + name
            var info = stat()
            // lstat: a symbolic link is watched as itself, so a link loop cannot recurse forever.
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                collect(path, into: &parts, published: published)
            } else {
                add(path, info, into: &parts)
            }
        }
    }

    /// Adds one file (or its absence).
    static func add(_ path: String, into parts: inout [UInt64]) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            parts.append(FastHash.hash(path))
            parts.append(0)
            return
        }
        add(path, info, into: &parts)
    }

    /// Adds one file whose `lstat` the caller already has.
    static func add(_ path: String, _ info: stat, into parts: inout [UInt64]) {
        parts.append(FastHash.hash(path))
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        parts.append(UInt64(bitPattern: Int64(info.st_size)))
        parts.append(UInt64(bitPattern: Int64(modified.tv_sec)))
        parts.append(UInt64(bitPattern: Int64(modified.tv_nsec)))
        parts.append(UInt64(info.st_ino))
    }
}
