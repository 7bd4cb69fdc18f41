import Foundation

/// The places in a site folder: `content/albums.json`, `gallery.toml`, `templates/`, `assets/`,
/// and the output folder.
public struct SiteFolder: Sendable, Hashable {
    /// The site folder itself.
    public let root: URL

    /// Creates a site folder at `root` (made absolute and standardised).
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// `content/`: the archive and local covers.
    public var content: URL { root.appending(path: "content", directoryHint: .isDirectory) }
    /// `content/albums.json`: the album archive.
    public var archive: URL { content.appending(path: "albums.json") }
    /// `gallery.toml`: the settings (optional).
    public var configFile: URL { root.appending(path: "gallery.toml") }
    /// `templates/`: template overrides (optional).
    public var templates: URL { root.appending(path: "templates", directoryHint: .isDirectory) }
    /// `assets/`: stylesheet, script and other files overriding or adding to the built-in assets.
    public var assets: URL { root.appending(path: "assets", directoryHint: .isDirectory) }
    /// `static/`: files copied as they are to the top of the output (`CNAME`, `robots.txt`,
    /// `favicon.ico`), as Hugo's `static/` is.
    public var staticFolder: URL { root.appending(path: "static", directoryHint: .isDirectory) }
    /// The paths of the files in `static/` (relative to it, dot files included), which a build
    /// publishes as they are; empty when there is no such folder.
    public func staticPaths() -> Set<String> {
        var links = LinkRule(root: root)
        guard let folder = links.folderToWalk(staticFolder, kind: "static/"),
              let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        let base = folder.standardizedFileURL.path
        var paths: Set<String> = []
        for case let url as URL in walker {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            paths.insert(String(url.standardizedFileURL.path.dropFirst(base.count + 1)))
        }
        return paths
    }

    /// The folders a build reads, which `gallery serve` watches (and `gallery.toml`).
    public var inputFolders: [URL] { [content, templates, assets, staticFolder] }

    /// The output folder: `output` if given (relative to the current directory), else the
    /// configured folder (see ``folder(configured:)``).
    public func output(configured: String, override: URL?) -> URL {
        if let override { return override.standardizedFileURL }
        return folder(configured: configured)
    }

    /// A folder named in `gallery.toml` (`[build] output`, `[build] cache`): relative to the
    /// site folder, or absolute when it starts with `/` (as Hugo's `publishDir`).
    public func folder(configured: String) -> URL {
        if configured.hasPrefix("/") { return URL(fileURLWithPath: configured, isDirectory: true).standardizedFileURL }
        return root.appending(path: configured, directoryHint: .isDirectory).standardizedFileURL
    }

    /// Why the cache must not be `cache`, or `nil` when it may: like the output folder (see
    /// ``outputConflict(_:cache:)``) it must not be the site folder or hold it, nor be or lie
    /// inside `content/`, `templates/`, `assets/`, `static/` or `.git`, where the build would
    /// read its own manifests and thumbnails as the site's files or publish them; nor, when
    /// `output` is given, inside the output folder, which would publish it.
    public func cacheConflict(_ cache: URL, output: URL?) -> String? {
        conflict(of: cache, named: "the cache folder", spilling: "its files would land among your content",
                 guarded: sourceFolders.map { ($0.0, $0.1, "whose files would mix with the cache's") }
                     + (output.map { [($0, "the output folder", "which would publish the cache")] } ?? []))
    }

    /// Why a build must not write into `output`, or `nil` when it may: the output folder must
    /// not be the site folder or hold it, nor be or lie inside the folders the build reads
    /// (`content/`, `templates/`, `assets/`, `static/`), the cache (but for `gallery serve`'s `preview/` in
    /// it) or `.git`, where its `albums.json`, `index.html` and `assets/` would overwrite the
    /// user's own files. Symbolic links are followed, so a link into `content/` is caught too.
    ///
    /// Nor may it be the user's home folder or a system folder (`/etc`, `/usr`…): with
    /// `--clean-destination` a build removes what it did not write there.
    public func outputConflict(_ output: URL, cache: URL) -> String? {
        let why = "whose files the build's own would overwrite"
        let path = Self.resolved(output)
        // The path as given too, links not followed: /lib/x is /usr/lib/x, and /etc/x is
        // /private/etc/x on macOS.
        let given = output.standardizedFileURL.path
        let homes = Self.homeFolders()
        let theirs = "among whose files a build writes its own (and `gallery build --clean-destination` would remove the rest)"
        if homes.contains(path) || Self.systemFolders.contains(path) || Self.systemFolders.contains(given) {
            let folder = Self.systemFolders.contains(given) ? given : path
            return "the output folder is \(homes.contains(path) ? "your home folder" : "the system folder \(folder)"), \(theirs)"
        }
        for home in homes where path.hasPrefix(home + "/.") {
            guard let hidden = path.dropFirst(home.count + 1).split(separator: "/").first else { continue }
            // The hidden folders hold settings, keys and profiles (~/.local/share/keyrings, a
            // browser's): no output there, but for the site's own folders when the site itself
            // is in one (a CI agent's workspace, ~/.jenkins/workspace/site/public) and the
            // cache's (serve's preview in a cache in ~/.cache); never in those of keys.
            // The site or cache must itself be in that hidden folder: a site that is the home
            // folder would otherwise make every hidden folder its own.
            let site = Self.resolved(root), cacheFolder = Self.resolved(cache), inHidden = home + "/" + hidden + "/"
            let ownFolder = (site.hasPrefix(inHidden) && path.hasPrefix(site + "/")) || ((cacheFolder + "/").hasPrefix(inHidden) && path.hasPrefix(cacheFolder + "/"))
            if path == home + "/" + hidden || Self.keyFolders.contains(String(hidden)) || !ownFolder {
                let what = path == home + "/" + hidden ? "is \(hidden)" : "is inside \(hidden)"
                return "the output folder \(what) in your home folder (settings, keys and profiles), \(theirs)"
            }
        }
        if let system = Self.systemFolder(holding: given) ?? Self.systemFolder(holding: path) {
            if system.hasPrefix("/home/") { return "the output folder is the home folder \(system), \(theirs)" }
            return "the output folder is \(system == path || system == given ? "" : "inside ")the system folder \(system), \(theirs)"
        }
        if let conflict = conflict(of: output, named: "the output folder", spilling: "the built pages would land among your content",
                                   guarded: sourceFolders.map { ($0.0, $0.1, why) } + [(cache, "the cache folder", why)],
                                   // `gallery serve` builds its preview in `preview/` inside the cache, a folder of its own.
                                   allowing: cache.appending(path: "preview")) {
            return conflict
        }
        // The other way round: a folder or file of the site that is a symbolic link into the
        // output folder (`static -> public/mystatic`, an archive linked to the published
        // `www/albums.json`), which the build would overwrite or --clean-destination remove.
        let held = sourceFolders + [(archive, "the album archive content/albums.json"), (configFile, "gallery.toml")]
        for (url, name) in held where Self.resolved(url).hasPrefix(path + "/") {
            return "the output folder holds \(name) (a symbolic link leads there), which the build would overwrite with its own files or --clean-destination remove; move \(name) out of the output folder"
        }
        return nil
    }

    /// The user's home folder as `HOME` names it and as the system's user database does, links
    /// resolved: with HOME unset or another's (cron, systemd, `env -i`, `sudo` keeping the
    /// caller's), a build wrote into `~/.ssh`, and made it.
    static func homeFolders() -> [String] {
        let database = getpwuid(geteuid()).flatMap { $0.pointee.pw_dir.map { String(cString: $0) } }
        return homeFolders(environment: ProcessInfo.processInfo.environment["HOME"], database: database)
    }

    /// The home folders for `HOME` as `environment` gives it and the user database's entry:
    /// the latter only when it is a person's (`/home/…`, `/root`), not a service account's
    /// (www-data's is /var/www, a web root its deploy hooks build into).
    static func homeFolders(environment: String?, database: String?) -> [String] {
        var homes: [String] = []
        // An empty HOME would be the current folder.
        if let home = environment, home.hasPrefix("/") { homes.append(resolved(URL(fileURLWithPath: home))) }
        if let home = database, home.hasPrefix("/home/") || home == "/root" || home.hasPrefix("/Users/") {
            homes.append(resolved(URL(fileURLWithPath: home)))
        }
        return homes.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The hidden folders of a home folder that hold keys and settings, in which no site is built
    /// at any depth, not even one whose site folder is there.
    static let keyFolders: Set<String> = [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".password-store", ".config", ".pki"]

    /// Folders no site is built into.
    /// (`/mnt`, `/media` and `/srv` hold mounted drives and served trees: their subfolders may.)
    static let systemFolders: Set<String> = ["/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/lost+found", "/media", "/mnt", "/opt", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys", "/tmp", "/usr", "/var"]

    /// The system folder that holds `path`, where no site is built either: anything inside the
    /// folders of the system itself (`/etc/ssl`, `/bin/x`); the system's own folders one level
    /// down in `/usr`, `/usr/local` and `/var` (`/usr/share`, `/var/lib`), whose subfolders
    /// (`/usr/share/nginx/html`) stay allowed, as do the others there (`/var/www`, `/var/site`,
    /// `/usr/local/www`); and a user's home folder, `/home/NAME`. The subfolders of the tmpfs
    /// scratch folders (`/dev/shm/site`, `/run/user/1000/site`) and of removable drives mounted
    /// under `/run/media/USER/` are allowed.
    static func systemFolder(holding path: String) -> String? {
        let parts = path.split(separator: "/")
        guard let first = parts.first else { return nil }
        let top = "/" + first
        // The shared-memory and per-user tmpfs folders are scratch space anyone may write to,
        // where a site is built in RAM (as the benchmarks do), and udisks mounts a USB drive in
        // /run/media/USER/: their subfolders are allowed, themselves not.
        for scratch in ["/dev/shm", "/run/shm"] where path.hasPrefix(scratch + "/") { return nil }
        for perUser in ["/run/user/", "/run/media/"] where path.hasPrefix(perUser) {
            return parts.count > 3 ? nil : parts.count == 3 ? path : nil
        }
        // The same for udisks' /media/USER on Debian, and a Windows drive under WSL (/mnt/c),
        // whose every file --clean-destination would remove.
        if parts.count == 2, top == "/media" || (top == "/mnt" && parts[1].count == 1) { return path }
        let system: Set<String> = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin", "/sys"]
        if system.contains(top) { return top }
        if parts.count == 2, top == "/home" { return path }
        // Programs and libraries, in /usr and /usr/local, at any depth: /bin, /lib and /sbin are
        // links to /usr/bin, /usr/lib and /usr/sbin on Debian, Ubuntu, Fedora and Arch, so
        // /lib/x86_64-linux-gnu, the system's libraries, is /usr/lib/x86_64-linux-gnu; and the
        // package managers' records in /var/lib.
        let programs: Set<String> = ["bin", "sbin", "lib", "lib32", "lib64", "libx32", "libexec", "include"]
        if parts.count >= 2, top == "/usr", programs.contains(String(parts[1])) { return "/usr/" + parts[1] }
        if parts.count >= 3, path.hasPrefix("/usr/local/"), programs.contains(String(parts[2])) { return "/usr/local/" + parts[2] }
        let records: Set<String> = ["dpkg", "apt", "rpm", "dnf", "pacman", "systemd"]
        if parts.count >= 3, path.hasPrefix("/var/lib/"), records.contains(String(parts[2])) { return "/var/lib/" + parts[2] }
        // The system's other folders in /usr, /usr/local and /var, exactly.
        let usr: Set<String> = ["share", "src", "games", "local", "etc", "man"]
        let variable: Set<String> = ["lib", "log", "cache", "spool", "mail", "tmp", "backups", "opt", "run", "lock", "local", "db", "empty", "crash", "account", "games", "yp", "nis"]
        if parts.count == 2, top == "/usr", usr.contains(String(parts[1])) { return path }
        if parts.count == 3, path.hasPrefix("/usr/local/"), usr.contains(String(parts[2])) { return path }
        if parts.count == 2, top == "/var", variable.contains(String(parts[1])) { return path }
        return nil
    }

    /// The folders of the site's own files: what it reads, and `.git`.
    private var sourceFolders: [(URL, String)] {
        [(content, "content/"), (templates, "templates/"), (assets, "assets/"), (staticFolder, "static/"), (root.appending(path: ".git"), ".git/")]
    }

    /// Why a folder the build writes (`name`) must not be `url`: it is the site folder or holds
    /// it (so `spilling`), or it is or lies inside one of `guarded` (each with why), unless it is
    /// or lies inside `allowing`.
    private func conflict(of url: URL, named name: String, spilling: String, guarded: [(URL, String, String)], allowing: URL? = nil) -> String? {
        let path = Self.resolved(url)
        let site = Self.resolved(root)
        if path == site { return "\(name) is the site folder itself, so \(spilling)" }
        if site.hasPrefix(path + "/") || path == "/" { return "\(name) holds the site folder, so \(spilling)" }
        let allowed = allowing.map(Self.resolved)
        if let allowed, path == allowed || path.hasPrefix(allowed + "/") { return nil }
        for (folder, folderName, why) in guarded {
            let folder = Self.resolved(folder)
            if path == folder || path.hasPrefix(folder + "/") {
                return "\(name) is \(path == folder ? "" : "inside ")\(folderName), \(why)"
            }
        }
        return nil
    }

    /// The absolute path of `url` with symbolic links resolved in the part of it that exists
    /// (an output folder is often not made yet, but may lie below a link).
    private static func resolved(_ url: URL) -> String {
        var existing = url.standardizedFileURL.path
        var rest: [String] = []
        while existing.count > 1, realpath(existing, nil) == nil {
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = PathText.parent(of: existing)
        }
        var path = existing
        if let real = realpath(existing, nil) {
            path = String(cString: real)
            free(real)
        }
        for component in rest { path = (path as NSString).appendingPathComponent(component) }
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// How messages name a file: relative to the current directory when it is inside it, else
    /// the absolute path.
    public func display(_ url: URL) -> String {
        Self.display(url)
    }

    /// How messages name any file: relative to the current directory when inside it.
    public static func display(_ url: URL) -> String {
        let path = url.standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath
        // A current folder that was deleted has no path: every path is shown whole.
        guard !current.isEmpty else { return path }
        if path == current { return "." }
        if path.hasPrefix(current + "/") { return String(path.dropFirst(current.count + 1)) }
        return path
    }
}
