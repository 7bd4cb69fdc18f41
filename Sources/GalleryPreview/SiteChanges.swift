import Foundation
import GalleryKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Tells the watcher whether the site's inputs changed: a token that differs whenever they did.
///
/// On Linux it listens to the kernel (inotify), one watch per folder, so a site whose
/// `content/covers/` holds 100,000 files costs nothing while nobody saves. Elsewhere, or when
/// inotify cannot be had (its watch limit reached) or `--poll` asks for it, it polls: the
/// fingerprint of every input's path, size and modification time. A poll of many files is not
/// free, so unless the interval was asked for, polls are spaced to at least ten times what the
/// last one cost, keeping an idle preview under a tenth of a core.
public final class SiteChanges: Sendable {
    /// How the changes are found.
    public enum Mode: Sendable, Equatable {
        /// Kernel events (inotify).
        case events
        /// Polling, every `interval` at least.
        case polling(interval: Duration)
    }

    /// How this source finds changes.
    public let mode: Mode
    private let site: SiteFolder
    private let events: InotifyWatch?
    /// Whether polls are spaced by their cost: only when no interval was asked for.
    private let stretches: Bool
    /// The polling fingerprint's last cost, for spacing polls.
    private let lastPollCost = Mutex(Duration.zero)
    /// Files the build reads from beyond the watched folders (see ``watch(beyond:)``).
    private let beyond = Mutex(Beyond())

    /// Files outside the watched folders, or reached through a symbolic link: looked at on their
    /// own, by `stat` through the links, with the last fingerprint, when it was taken and what it
    /// cost, and how many times it has changed (what the token shows: a new list of files is no
    /// change to them).
    private struct Beyond {
        var paths: [String] = []
        /// Each path's fingerprint, in the order of `paths`.
        var fingerprints: [UInt64] = []
        var taken: ContinuousClock.Instant?
        var cost = Duration.zero
        var changes: UInt64 = 0
        /// The paths seen to change since the last ``SiteChanges/takeChangedFiles()``.
        var changed = ChangedFiles()
    }

    /// A source for `site`: events where the platform has them, unless `poll` asks for polling
    /// at that interval.
    public init(site: SiteFolder, poll: Duration? = nil) {
        self.site = site
        stretches = poll == nil
        if poll == nil, let watch = InotifyWatch(site: site) {
            events = watch
            mode = .events
        } else {
            events = nil
            mode = .polling(interval: poll ?? .milliseconds(250))
        }
    }

    /// How long to wait before asking again.
    public var interval: Duration {
        switch mode {
        case .events: return .milliseconds(50)
        case .polling(let interval):
            // An interval the user chose is kept; the default one stretches with the cost.
            guard stretches else { return interval }
            return max(interval, lastPollCost.withLock { $0 } * 10)
        }
    }

    /// The current token: a count of the changes seen (events) or the inputs' fingerprint
    /// (polling), with the fingerprint of the files beyond the watched folders.
    public func token() -> UInt64 {
        let outside = beyondFingerprint()
        if let events { return FastHash.combine([events.changes(), outside]) }
        let clock = ContinuousClock()
        let start = clock.now
        let fingerprint = SiteWatcher.fingerprint(of: site)
        let cost = clock.now - start
        lastPollCost.withLock { $0 = cost }
        return FastHash.combine([fingerprint, outside])
    }

    /// Watches these files too: what the build reads that neither file events nor the polling
    /// fingerprint see (an archive that is a symbolic link to a catalogue several sites share,
    /// a cover in a folder outside `content/` or linked into it). Their sizes, times and inodes,
    /// through the links, are part of every token; taken again no oftener than ten times what
    /// taking them cost, so thousands of them cannot keep a core busy.
    ///
    /// A new list does not change the token by itself: its files are taken as they are now, and
    /// only a later change to one of them counts.
    public func watch(beyond paths: [String]) {
        beyond.withLock { state in
            guard state.paths != paths else { return }
            state.paths = paths
            state.fingerprints = paths.map(Self.fingerprint(of:))
            state.taken = ContinuousClock.now
        }
    }

    private func beyondFingerprint() -> UInt64 {
        beyond.withLock { state in
            guard !state.paths.isEmpty else { return state.changes }
            let clock = ContinuousClock()
            if let taken = state.taken, clock.now - taken < max(state.cost * 10, .milliseconds(50)) { return state.changes }
            let start = clock.now
            let fingerprints = state.paths.map(Self.fingerprint(of:))
            var changed = false
            for (index, fingerprint) in fingerprints.enumerated() where fingerprint != state.fingerprints[index] {
                state.changed.insert(state.paths[index])
                changed = true
            }
            if changed { state.changes += 1 }
            state.fingerprints = fingerprints
            state.taken = clock.now
            state.cost = clock.now - start
            return state.changes
        }
    }

    /// The files seen to change since the last call, as messages name files, when the changes
    /// come from file events or from the files beyond the watched folders; polling the site's
    /// folders tells that something changed, not what.
    public func takeChangedFiles() -> ChangedFiles {
        var changed = events?.takeChangedFiles() ?? ChangedFiles()
        changed.merge(beyond.withLock { state in
            defer { state.changed = ChangedFiles() }
            return state.changed
        })
        return changed
    }

    /// The size, times and inode of a file, through its links.
    private static func fingerprint(of path: String) -> UInt64 {
        var parts: [UInt64] = []
        parts.reserveCapacity(5)
        var info = stat()
        // stat, not lstat: the file the link leads to is what the build reads.
        if stat(path, &info) == 0 {
            SiteWatcher.add(path, info, into: &parts)
        } else {
            parts.append(FastHash.hash(path))
            parts.append(0)
        }
        return FastHash.combine(parts)
    }
}

/// The files a watcher saw change, for the rebuild's line in the terminal.
public struct ChangedFiles: Sendable, Equatable {
    /// The paths, in the order first seen: at most ``limit``.
    public private(set) var paths: [String] = []
    /// Every path seen, up to ``remembered``.
    private var seen: Set<String> = []
    /// How many changes were seen past that (some may be to the same file).
    private var overflow = 0
    /// How many paths are named at most: a checkout that changes 10,000 files is told by its
    /// first ones, and counted.
    static let limit = 64
    /// How many paths are told apart when counting.
    static let remembered = 10_000

    public init() {}

    /// How many other files changed besides the paths kept.
    public var uncounted: Int { seen.count - paths.count + overflow }

    /// Records a change to `path`.
    public mutating func insert(_ path: String) {
        guard seen.count < Self.remembered else {
            if !seen.contains(path) { overflow += 1 }
            return
        }
        guard seen.insert(path).inserted else { return }
        if paths.count < Self.limit { paths.append(path) }
    }

    /// Adds another's changes.
    public mutating func merge(_ other: ChangedFiles) {
        for path in other.paths { insert(path) }
        for path in other.seen where !other.paths.contains(path) { insert(path) }
        overflow += other.overflow
    }

    /// `content/albums.json`, `content/albums.json and gallery.toml` or `content/albums.json and
    /// 3 more files`, with each path as messages name files; `nil` when no change is known.
    ///
    /// Files that are there now are named; files that came and went are left out, unless
    /// nothing else changed: an editor's save makes and removes files of its own (vim's `4913`
    /// and `albums.json~`), and the file saved is what the line should name.
    public var summary: String? {
        let present = paths.filter { path in
            var info = stat()
            return lstat(path, &info) == 0
        }
        let named = present.isEmpty ? paths : present
        guard let first = named.first else { return nil }
        let more = named.count - 1 + uncounted
        // A file's name may hold control characters (an escape sequence, a line break): shown escaped.
        let name = { (path: String) in SiteFolder.display(URL(fileURLWithPath: path)).terminalLine() }
        // Past the paths told apart, events are counted, not files (a file gets several): then
        // the line says at least how many.
        if overflow > 0 { return name(first) + " and over \(more - overflow) more files" }
        switch more {
        case 0: return name(first)
        case 1 where named.count == 2: return name(first) + " and " + name(named[1])
        default: return name(first) + " and \(more) more file\(more == 1 ? "" : "s")"
        }
    }
}

#if canImport(Glibc)
/// inotify watches on the site's input folders (recursively, following new folders as they
/// appear) and on the site folder itself, for `gallery.toml` and for input folders created later.
///
/// Hidden names (editors' swap files, `gallery add`'s temporary archive) are ignored, as the
/// polling fingerprint ignores them; so is everything below the output and the cache, which are
/// not watched at all.
final class InotifyWatch: Sendable {
    private let descriptor: Int32
    private struct State {
        /// Each watch's folder, by watch descriptor.
        var folders: [Int32: String] = [:]
        /// The watch on the site folder itself.
        var rootWatch: Int32 = -1
        /// Changes seen so far.
        var count: UInt64 = 0
        /// Where events are read into, kept between reads (twenty a second while serving).
        var buffer: [UInt8] = []
        /// The files changed since the last ``InotifyWatch/takeChangedFiles()``.
        var changed = ChangedFiles()
    }
    private let state: Mutex<State>
    private let rootPath: String
    /// The names in the site folder whose changes count: the inputs.
    private let rootNames: Set<String>

    private static let folderEvents = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Watches `site`, or `nil` when inotify cannot (no more instances or watches allowed).
    init?(site: SiteFolder) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        let rootPath = site.root.standardizedFileURL.path
        let inputs = site.inputFolders.map { $0.standardizedFileURL.path }
        var initial = State()
        initial.rootWatch = inotify_add_watch(descriptor, rootPath, Self.folderEvents | UInt32(IN_ONLYDIR))
        let staticPath = site.staticFolder.standardizedFileURL.path
        guard initial.rootWatch >= 0, inputs.allSatisfy({ Self.watchTree($0, descriptor: descriptor, into: &initial.folders, published: $0 == staticPath) }) else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.rootPath = rootPath
        rootNames = Set(inputs.compactMap { path in
            PathText.parent(of: path) == rootPath ? (path as NSString).lastPathComponent : nil
        } + [(site.configFile.standardizedFileURL.path as NSString).lastPathComponent])
        state = Mutex(initial)
    }

    deinit {
        close(descriptor)
    }

    /// Adds a watch on `folder` and every folder below it (not through symbolic links, as the
    /// fingerprint does not follow them); `false` if the kernel refused one for lack of watches.
    /// A folder that does not exist (yet) is skipped: the site folder's watch sees it appear.
    /// `published`: the folder is `static/` or below it (see ``SiteWatcher/isIgnored(_:published:)``).
    private static func watchTree(_ folder: String, descriptor: Int32, into folders: inout [Int32: String], following: Bool = true, published: Bool) -> Bool {
        let mask = folderEvents | UInt32(IN_ONLYDIR) | (following ? 0 : UInt32(IN_DONT_FOLLOW))
        let watch = inotify_add_watch(descriptor, folder, mask)
        guard watch >= 0 else { return errno != ENOSPC && errno != ENOMEM }
        folders[watch] = folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return true }
        for name in names where !SiteWatcher.isIgnored(name, published: published) {
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            guard watchTree(path, descriptor: descriptor, into: &folders, following: false, published: published) else { return false }
        }
        return true
    }

    /// Reads the events queued since the last call and returns the count of changes so far.
    func changes() -> UInt64 {
        state.withLock { state in
            // Taken out of the state while events are handled, which changes the state.
            var buffer = state.buffer.isEmpty ? [UInt8](repeating: 0, count: 64 * 1024) : state.buffer
            state.buffer = []
            buffer.withUnsafeMutableBytes { buffer in
                while true {
                    let count = read(descriptor, buffer.baseAddress, buffer.count)
                    guard count > 0 else { break }
                    var offset = 0
                    let header = MemoryLayout<inotify_event>.size
                    while offset + header <= count {
                        let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                        let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                        let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[(offset + header)..<(offset + header + length)])
                        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                        offset += header + length
                        handle(watch: watch, mask: mask, name: name, in: &state)
                    }
                }
            }
            state.buffer = buffer
            return state.count
        }
    }

    private func handle(watch: Int32, mask: UInt32, name: String, in state: inout State) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: something changed.
            state.count += 1
            return
        }
        if mask & UInt32(IN_IGNORED) != 0 {
            state.folders[watch] = nil
            return
        }
        if watch == state.rootWatch {
            if name.hasPrefix(".") { return }
            guard rootNames.contains(name) else { return }
            state.count += 1
            state.changed.insert(rootPath + "/" + name)
            // An input folder made (or moved in) after the server started, or moved away.
            if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                _ = Self.watchTree(rootPath + "/" + name, descriptor: descriptor, into: &state.folders, published: name == "static")
            } else if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_MOVED_FROM) != 0 {
                forgetTree(rootPath + "/" + name, in: &state)
            }
            return
        }
        guard let folder = state.folders[watch] else { return }
        let published = folder == rootPath + "/static" || folder.hasPrefix(rootPath + "/static/")
        if SiteWatcher.isIgnored(name, published: published) { return }
        state.count += 1
        state.changed.insert(name.isEmpty ? folder : folder + "/" + name)
        guard mask & UInt32(IN_ISDIR) != 0, !name.isEmpty else { return }
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            _ = Self.watchTree(folder + "/" + name, descriptor: descriptor, into: &state.folders, following: false, published: published)
        } else if mask & UInt32(IN_MOVED_FROM) != 0 {
            forgetTree(folder + "/" + name, in: &state)
        }
    }

    /// The files changed since the last call.
    func takeChangedFiles() -> ChangedFiles {
        state.withLock { state in
            defer { state.changed = ChangedFiles() }
            return state.changed
        }
    }

    /// Drops the watches on a folder that moved away and on every folder below it. The kernel's
    /// watches follow a folder wherever it is moved, so without this, saves in a folder moved out
    /// of the site would still rebuild it. A folder renamed inside the site is watched again
    /// under its new name when its `IN_MOVED_TO` arrives.
    private func forgetTree(_ path: String, in state: inout State) {
        let below = path + "/"
        for (watch, folder) in state.folders where folder == path || folder.hasPrefix(below) {
            inotify_rm_watch(descriptor, watch)
            state.folders[watch] = nil
        }
    }
}
#else
/// No inotify here: the watcher polls.
final class InotifyWatch: Sendable {
    init?(site: SiteFolder) { nil }
    func changes() -> UInt64 { 0 }
    func takeChangedFiles() -> ChangedFiles { ChangedFiles() }
}
#endif
