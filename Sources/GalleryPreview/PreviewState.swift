import Foundation
import GalleryKit
import Synchronization

/// What the server needs to know about the latest build while it answers requests: whether it
/// failed (and why), and the path the site is served under.
///
/// Requests read it on every response and the builder writes it after each build, so it sits
/// behind a lock rather than in an actor: reading it never suspends a request.
public final class PreviewState: Sendable {
    private let value: Mutex<Snapshot>

    /// The state at one moment.
    public struct Snapshot: Sendable, Hashable {
        /// The diagnostics of the latest build when it failed; `nil` after a good build.
        public var failure: [Diagnostic]?
        /// The id of the last good build (see ``PreviewBuilder/buildID(of:)``); `nil` before one.
        public var build: String?
        /// The path part of the site's base URL (`/` or `/project/`), where the site is served.
        public var basePath = "/"
        /// The base path before the latest change of `base_url`, if it changed while serving: a
        /// page still open at an address under it is sent to the new one.
        public var formerBasePath: String?
        /// Where the server listens, as the URL says it (`http://127.0.0.1:1313`); `nil` until
        /// it is announced.
        public var origin: String?
        /// The output folder being served; `nil` before the first build.
        public var output: URL?
        /// Album pages renamed while serving, by their old folder (`albums/old/`) and where each
        /// is now: a page open at the old address, reloaded after the save that renamed it, is
        /// sent to the new one rather than to the 404 page.
        public var movedPages: [String: String] = [:]
        /// The site folder, when the latest build failed because it was gone (moved away).
        public var goneSite: URL?

        /// Records a page's move: earlier moves to its old address now lead to its new one,
        /// and a page back at an address of its own is no longer sent elsewhere.
        mutating func recordMove(_ move: PageMove) {
            for (from, to) in movedPages where to == move.from { movedPages[from] = move.to }
            movedPages[move.from] = move.to
            movedPages[move.to] = nil
            // Bounded: a long session of renames keeps its latest moves.
            if movedPages.count > 1000, let any = movedPages.keys.first(where: { $0 != move.from }) { movedPages[any] = nil }
        }
    }

    /// Open once the first build is done, good or not.
    public let firstBuild = BuildGate()

    private let building = Mutex(false)

    /// Whether a build is under way: only then does a second Ctrl-C stop the server at once,
    /// rather than let it stop as the first one asked.
    public var isBuilding: Bool {
        get { building.withLock { $0 } }
        set { building.withLock { $0 = newValue } }
    }

    /// A state with no build yet.
    public init() {
        value = Mutex(Snapshot())
    }

    /// The output folder of the last good build when it is gone (a user deleted the cache):
    /// the watcher builds it again. `nil` while it is there, before a good build, and while the
    /// latest build failed (it would only fail again until a save).
    public var missingOutput: URL? {
        let snapshot = self.snapshot
        guard snapshot.build != nil, snapshot.failure == nil, let output = snapshot.output else { return nil }
        return FileManager.default.fileExists(atPath: output.path) ? nil : output
    }

    /// The site folder, when the latest build failed for want of it and it is there again
    /// (moved away and back): no save need come, so the watcher builds it at once.
    public var returnedSite: URL? {
        guard let site = snapshot.goneSite else { return nil }
        return FileManager.default.fileExists(atPath: site.path) ? site : nil
    }

    /// Waits, at most `timeout`, while the output folder of the last good build is gone, as the
    /// watcher builds it again: a request that comes meanwhile gets the page, not a 404.
    public func waitForOutput(timeout: Duration = .seconds(30)) async {
        let deadline = ContinuousClock.now + timeout
        while missingOutput != nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The current state.
    public var snapshot: Snapshot { value.withLock { $0 } }

    /// Changes the state.
    public func update(_ change: (inout Snapshot) -> Void) {
        value.withLock { change(&$0) }
    }
}
