import Foundation

/// The site's static assets: the built-in stylesheet, script and placeholder, each overridable by
/// a file of the same name in the site's `assets/` folder, plus any other files there.
///
/// The stylesheet, script and placeholder get content-hashed names (`gallery.3fa2b1c0de.css`), so
/// browsers may cache them forever and a change is never served stale.
public struct AssetBundle: Sendable {
    /// The built-in assets that are fingerprinted.
    static let fingerprinted: Set<String> = ["gallery.css", "gallery.js", "placeholder.svg"]

    /// Every asset file to write, with its output path (`assets/…`; a static file's own path).
    public let files: [OutputFile]
    /// The output paths of the site's `static/` files, which no file gallery makes may share.
    public let staticPaths: [String]
    /// The stylesheet and script paths.
    public let paths: AssetPaths
    /// The placeholder tile image's path.
    public let placeholder: String
    /// A hash of every asset's output path and bytes.
    public let fingerprint: UInt64
    /// The style sheets of `assets/` (the built-in one too), for the check of their URLs: each
    /// with its output path, its bytes, and the file as messages name it (the site's own
    /// `assets/…`; a built-in one by its output path).
    public let stylesheets: [Stylesheet]
    /// Files of `assets/` and `static/` left out, each with why: symbolic links that lead out of
    /// the site folder, and links to folders.
    public let warnings: [Diagnostic]

    /// A script or stylesheet without its indentation, blank lines and whole-line comments: a
    /// simple shrink (no line is rewritten), which keeps the script under its 12 KB budget. For the
    /// built-in files only, which are written for it: in a site's own file a line may hold code
    /// between two comments, or be inside a string (a template literal's `//cdn…` line, its
    /// indentation), and dropping it would change what the file means.
    ///
    /// Done over the bytes (lines end at LF; spaces and tabs lead them): every build compacts
    /// the built-in files, and a walk by `Character` took 2 ms of a 10k-album edit before any
    /// other work could start.
    static func compact(_ data: Data, css: Bool) -> Data {
        guard String(data: data, encoding: .utf8) != nil else { return data }
        let (slash, star, space, tab, lineFeed) = (UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"))
        var kept: [UInt8] = []
        kept.reserveCapacity(data.count)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != lineFeed { end += 1 }
                var first = start
                while first < end, bytes[first] == space || bytes[first] == tab { first += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[first..<end])
                start = end + 1
                if line.isEmpty { continue }
                if !css, line.starts(with: [slash, slash]) { continue }
                if css, line.starts(with: [slash, star]), line[line.count - 2] == star, line[line.count - 1] == slash { continue }
                if !kept.isEmpty { kept.append(lineFeed) }
                kept.append(contentsOf: line)
            }
        }
        kept.append(lineFeed)
        return Data(kept)
    }

    /// The files of `static/` (walked as `folder`, where a linked `static/` leads), each at its
    /// own path, in path order.
    static func staticFiles(in folder: URL?, links: inout LinkRule) throws(ArchiveError) -> [OutputFile] {
        guard let folder, let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        let base = folder.standardizedFileURL.path
        var files: [OutputFile] = []
        // Every file that cannot be published, said at once (not one a build).
        var problems: [Diagnostic] = []
        for case let url as URL in walker {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), links.allows(url, isFolder: isFolder.boolValue, kind: "static file"), !isFolder.boolValue else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            if EditorLeftovers.contains(url.lastPathComponent) { continue }
            // The build's record of its outputs is a line each: a name with a line break was
            // published, and never removed again.
            if hasLineBreak(path) {
                problems.append(.error("this static file's name holds a line break, which no address should; rename it", path: SiteFolder.display(url)))
                continue
            }
            switch staticFile(url, as: path) {
            case .success(let file): files.append(file)
            case .failure(let problem): problems.append(.error(problem.reason, path: SiteFolder.display(url)))
            }
        }
        if !problems.isEmpty { throw ArchiveError(problems.sorted { $0.path < $1.path }) }
        return files.sorted { $0.path < $1.path }
    }

    /// A warning for each file under `walked` (the folder `folder` as walked) whose name is not
    /// UTF-8, which the walk above never sees: such a file was left unpublished without a word.
    static func undecodable(in folder: URL?, walked: URL?, kind: String, skipHidden: Bool = false) -> [Diagnostic] {
        guard let folder, let walked else { return [] }
        return UndecodableNames.find(in: walked.standardizedFileURL.path, shown: SiteFolder.display(folder), skipHidden: skipHidden).map {
            .warning("this \(kind)'s name is not UTF-8 text, so it is not published; rename it (convmv -f latin1 -t utf8 -r --notest renames a folder's Latin-1 names)", path: $0)
        }
    }

    /// Whether a file's name holds a line break, which the build's record of its outputs (a
    /// line each) cannot hold; a tab it can.
    static func hasLineBreak(_ name: String) -> Bool {
        name.utf8.contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// Why a static file cannot be published.
    struct StaticFileProblem: Error {
        var reason: String
    }

    /// A static file to publish at `path`. A file over ``FastHash/pieceSize`` (a video, an
    /// archive to download) is hashed a piece at a time and copied so when it is published:
    /// held whole, a folder of large files took twice their size in memory. A named pipe or a
    /// device is refused (it was read until something wrote to it and closed it: for good).
    static func staticFile(_ url: URL, as path: String) -> Result<OutputFile, StaticFileProblem> {
        func unreadable() -> Result<OutputFile, StaticFileProblem> {
            .failure(StaticFileProblem(reason: "cannot read this static file: \(ReadFailure.reason(errno: errno))"))
        }
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return unreadable() }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return unreadable() }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .failure(StaticFileProblem(reason: "this static file is not a regular file (a named pipe, a socket or a device), which cannot be published; remove it from static/"))
        }
        guard Int(info.st_size) > FastHash.pieceSize else {
            return FileBytes.contents(of: descriptor, size: Int(info.st_size)).map { .success(OutputFile(path: path, content: .bytes($0))) } ?? unreadable()
        }
        return FileBytes.pieces(of: descriptor) { _ in }.map { .success(OutputFile(path: path, content: .streamed(from: url, size: $0.size, hash: $0.hash), contentKey: $0.hash)) } ?? unreadable()
    }

    /// Gathers the built-in assets, the site's `assets/` folder and its `static/` folder (either
    /// may not exist). Static files keep their paths and bytes (dot files such as `.nojekyll`
    /// and `.well-known/` included, symbolic links followed); editors' backups and swap files
    /// (``EditorLeftovers``) are left out of both folders.
    ///
    /// A symbolic link is followed only to a file inside `siteRoot` (when given), as covers are:
    /// a link to `/etc/…` or `~/.ssh/…` in a cloned site would otherwise be published. Such
    /// links, and links to folders, are left out with a warning.
    public init(siteAssets folder: URL?, siteStatic staticFolder: URL? = nil, siteRoot: URL? = nil) throws(ArchiveError) {
        var links = LinkRule(root: siteRoot)
        var sources: [String: Data] = [:]
        // The names whose file is still the built-in one, not the site's.
        var builtin: Set<String> = []
        for (name, path) in BuiltinResources.files(under: "assets") {
            if let data = BuiltinResources.data(at: path) {
                sources[name] = data
                builtin.insert(name)
            }
        }
        let walkedAssets = folder.flatMap { links.folderToWalk($0, kind: "assets/") }
        if let walked = walkedAssets,
           let walker = FileManager.default.enumerator(at: walked, includingPropertiesForKeys: nil) {
            let base = walked.standardizedFileURL.path
            for case let url as URL in walker {
                // As in static/: a link is followed to its file (a link's own resource values say
                // it is no regular file, and a linked `gallery.css` was left out without a word).
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
                      links.allows(url, isFolder: isFolder.boolValue, kind: "asset"), !isFolder.boolValue else { continue }
                let name = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
                guard !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }), !EditorLeftovers.contains(url.lastPathComponent) else { continue }
                if Self.hasLineBreak(name) {
                    throw ArchiveError([.error("this asset's name holds a line break, which no address should; rename it", path: SiteFolder.display(url))])
                }
                do {
                    sources[name] = try Data(contentsOf: url)
                    builtin.remove(name)
                } catch {
                    throw ArchiveError([.error("cannot read this asset: \(error.localizedDescription)", path: SiteFolder.display(url))])
                }
            }
        }
        var files: [OutputFile] = []
        var stylesheets: [Stylesheet] = []
        var renamed: [String: String] = [:]
        // The source of each output path, to find two that are one.
        var owner: [String: String] = [:]
        for name in sources.keys.sorted() {
            guard let source = sources[name] else { continue }
            var output = "assets/" + name
            let data = builtin.contains(name) && (name.hasSuffix(".js") || name.hasSuffix(".css")) ? Self.compact(source, css: name.hasSuffix(".css")) : source
            if Self.fingerprinted.contains(name) {
                let url = URL(fileURLWithPath: name)
                output = "assets/" + url.deletingPathExtension().lastPathComponent + "." + ContentHash.short(data) + "." + url.pathExtension
            }
            renamed[name] = output
            // A file of assets/ named as a fingerprinted one is published as (`gallery.e8272eebe4.js`)
            // replaced it on every page, without a word.
            // (Two names make one output only when one of them is fingerprinted.)
            if let other = owner[output] {
                let (fingerprinted, plain) = Self.fingerprinted.contains(name) ? (name, other) : (other, name)
                let path = folder.map { SiteFolder.display($0.appending(path: plain)) } ?? "assets/" + plain
                throw ArchiveError([.error(
                    "this file has the name gallery publishes its own \(fingerprinted) under (\(output)), so it would replace it on every page; rename it, or, to change the built-in one, write assets/\(fingerprinted) (gallery templates --assets gives it to start from)",
                    path: path
                )])
            }
            owner[output] = name
            files.append(OutputFile(path: output, content: .bytes(Array(data))))
            if name.lowercased().hasSuffix(".css") {
                let source = builtin.contains(name) ? output : folder.map { SiteFolder.display($0.appending(path: name)) } ?? output
                stylesheets.append(Stylesheet(path: output, bytes: Array(data), source: source))
            }
        }
        self.stylesheets = stylesheets
        let walkedStatic = staticFolder.flatMap { links.folderToWalk($0, kind: "static/") }
        let statics = try Self.staticFiles(in: walkedStatic, links: &links)
        self.warnings = links.warnings
            + Self.undecodable(in: folder, walked: walkedAssets, kind: "asset", skipHidden: true)
            + Self.undecodable(in: staticFolder, walked: walkedStatic, kind: "static file")
        files += statics
        let staticPaths = statics.map(\.path)
        self.staticPaths = staticPaths
        self.files = files
        self.fingerprint = FastHash.combine(files.flatMap { file -> [UInt64] in
            switch file.content {
            case .bytes(let bytes): [FastHash.hash(file.path), FastHash.hash(bytes)]
            case .streamed(_, _, let hash): [FastHash.hash(file.path), hash]
            case .copy, .cached: [FastHash.hash(file.path)]
            }
        })
        let icon = ["favicon.ico", "favicon.png", "favicon.svg"].first { staticPaths.contains($0) }
        self.paths = AssetPaths(css: renamed["gallery.css"] ?? "assets/gallery.css", js: renamed["gallery.js"] ?? "assets/gallery.js", icon: icon)
        self.placeholder = renamed["placeholder.svg"] ?? "assets/placeholder.svg"
    }
}

/// Which symbolic links in `assets/` and `static/` a build follows: links to files inside the
/// site folder, but not in its hidden folders (`.git`, the cache); the others are left out,
/// each with a warning.
struct LinkRule {
    /// The site folder's real path (`nil`: follow every link to a file).
    let root: String?
    private(set) var warnings: [Diagnostic] = []

    init(root: URL?) {
        self.root = root.flatMap { CoverLocator.realPath($0.standardizedFileURL.path) }
    }

    /// The hidden folder of the site a link's target lies in (`.git`, the cache), where nothing is
    /// published from: `.git/config` can hold a CI job's token. `nil` for any other target.
    private func hiddenFolder(holding target: String) -> String? {
        guard let root, target.hasPrefix(root + "/") else { return nil }
        return target.dropFirst(root.count + 1).split(separator: "/").first { $0.hasPrefix(".") }.map(String.init)
    }

    /// Whether the symbolic link `link` (named in messages as `subject`) is refused for where it
    /// leads: out of the site folder, or into one of its hidden folders; with a warning that ends
    /// in `outcome`, and for a link out of the site, in what to do instead.
    private mutating func refuses(_ link: URL, leadingTo target: String, as subject: String, _ outcome: String, else advice: String) -> Bool {
        if let root, target != root, !target.hasPrefix(root + "/") {
            warnings.append(.warning("\(subject) is a symbolic link that leads outside the site folder (to \(target)), \(outcome); \(advice)", path: SiteFolder.display(link)))
            return true
        }
        if let hidden = hiddenFolder(holding: target) {
            warnings.append(.warning("\(subject) is a symbolic link into the site's \(hidden), whose files are never published (.git/config can hold a token), \(outcome)", path: SiteFolder.display(link)))
            return true
        }
        return false
    }

    /// The folder to walk for `static/` or `assets/` (`kind`): the folder itself, or where it
    /// leads when it is a symbolic link into the site folder (the walker would take the link for
    /// a file and find nothing, so a linked folder was published empty without a word); `nil`,
    /// with a warning, when it leads out of the site folder, which a cloned site could use to
    /// publish `~/.ssh`.
    mutating func folderToWalk(_ folder: URL, kind: String) -> URL? {
        guard (try? folder.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true else { return folder }
        guard let target = CoverLocator.realPath(folder.path),
              !refuses(folder, leadingTo: target, as: kind, "so nothing in it is published", else: "copy the folder into the site, or move what it holds there and link the other way") else { return nil }
        return URL(fileURLWithPath: target, isDirectory: true)
    }

    /// Whether to take `url` (a folder to walk, or a file to publish); a symbolic link that
    /// leads out of the site folder, or to a folder, is left out and warned about.
    mutating func allows(_ url: URL, isFolder: Bool, kind: String) -> Bool {
        guard (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true else { return true }
        let target = CoverLocator.realPath(url.path) ?? url.path
        if refuses(url, leadingTo: target, as: "this \(kind)", "so it is not published", else: "copy the file into the site if it is meant to be") { return false }
        if isFolder {
            warnings.append(.warning("this \(kind) is a symbolic link to a folder, which gallery does not follow, so nothing in it is published; link the files one by one, or copy the folder", path: SiteFolder.display(url)))
            return false
        }
        return true
    }
}

/// A style sheet of the site's assets, as ``AssetBundle/stylesheets`` lists them.
public struct Stylesheet: Sendable {
    /// Its path in the output folder.
    public var path: String
    /// Its bytes as published.
    public var bytes: [UInt8]
    /// The file it was made from, as diagnostics name it.
    public var source: String
}
