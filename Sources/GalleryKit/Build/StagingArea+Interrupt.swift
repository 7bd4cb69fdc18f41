import Foundation
import Synchronization

extension StagingArea {
    /// The staging folders of this process's builds, each with whether its files are being
    /// moved into the output folder.
    static let underWay = Mutex<[String: Bool]>([:])

    /// Removes the staging folder of every build under way that is not moving its files in:
    /// for a build stopped by a signal (Ctrl-C, a CI job cancelled), whose staging folder inside
    /// the output was left full of pages that a deploy before the next build published. A
    /// build moving its files in is left to its journal, which the next build finishes from.
    ///
    /// Threads still rendering are stopped from staging more first; one caught between that
    /// check and its write may remake a folder, so the folders are removed again a moment later.
    ///
    /// - Returns: Whether a build was moving its files in (and was left to its journal).
    @discardableResult
    public static func abandonAll() -> Bool {
        stopping.store(true, ordering: .releasing)
        return underWay.withLock { folders in
            for (folder, committing) in folders where !committing {
                try? FileManager.default.removeItem(atPath: folder)
            }
            usleep(50_000)
            for (folder, committing) in folders where !committing {
                try? FileManager.default.removeItem(atPath: folder)
            }
            folders = folders.filter(\.value)
            return !folders.isEmpty
        }
    }

    /// Whether the process is stopping: nothing more is staged.
    static let stopping = Atomic<Bool>(false)

    /// Whether a signal is stopping the process: a build that failed for it (its files refused
    /// staging or moving in) is to wait for the handler to end the process, rather than end it
    /// first with status 1 and no word (the handler has sent its output to /dev/null).
    public static var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Notes that this build's staging folder exists (`true`: its files are being moved in);
    /// `false` when it was abandoned meanwhile, and must not be moved in.
    func noteUnderWay(committing: Bool) -> Bool {
        Self.underWay.withLock { folders in
            guard committing else { folders[root] = false; return true }
            guard folders[root] != nil else { return false }
            folders[root] = true
            return true
        }
    }

    /// Notes that this build's staging folder is gone.
    func noteGone() {
        _ = Self.underWay.withLock { $0.removeValue(forKey: root) }
    }
}
