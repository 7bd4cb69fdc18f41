import Dispatch
import Foundation
import GalleryKit

/// What `gallery build` does when it is stopped (Ctrl-C, `kill`, a CI job cancelled, a closed
/// terminal): it removes its staging folder, then stops as the signal asks. The folder sits
/// inside the output, and a killed build left it full of pages, which a deploy made before the
/// next build published. (A build moving its files in keeps its journal instead; `kill -9`
/// cannot be caught, and the next build, or `gallery check`, finds what it left.)
enum StopSignals {
    /// The signal sources, kept for the life of the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Told the signal's name first, before anything else is done: the JSON log's closing line.
    nonisolated(unsafe) static var beforeStopping: (@Sendable (String) -> Void)?

    /// The handlers' own queue. A queue made with a label is served by a thread of its own when
    /// every thread of the shared pool is busy, as the build's rendering keeps them: on the
    /// shared `.global()` queue a handler waited for a chunk of pages to finish (0.2–0.5 s on
    /// two cores), and a CI run saw the build reach its commit first every time.
    private static let queue = DispatchQueue(label: "gallery.stop-signals")

    /// Installs the handlers, once, before the build starts. A signal the process was started
    /// ignoring (`nohup`, a background job's SIGINT) stays ignored.
    static func removeStagingBeforeStopping() {
        guard sources.isEmpty else { return }
        // A parent may have started gallery with them blocked (a thread's mask is inherited):
        // unblocked on this thread, so the kernel has one to deliver them to.
        var set = sigset_t()
        sigemptyset(&set)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // signal() answers the disposition it replaced; SIG_IGN is the handler 1.
            let previous = signal(number, SIG_IGN)
            guard unsafeBitCast(previous, to: Int.self) != 1 else { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // What the build's threads still say as they fail, once stopped, is noise: the
                // one line said here is what happened.
                let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "SIGHUP"
                beforeStopping?(name)
                let quiet = open("/dev/null", O_WRONLY)
                let said = dup(STDERR_FILENO)
                dup2(quiet, STDOUT_FILENO)
                dup2(quiet, STDERR_FILENO)
                let moving = StagingArea.abandonAll()
                let line = moving
                    ? "\nstopped by \(name) while moving files into the output folder; the next build finishes the move\n"
                    : "\nstopped by \(name); the output folder was not changed\n"
                _ = line.withCString { write(said, $0, strlen($0)) }
                // Stopped by the signal itself, so the shell and CI see how it ended. libdispatch
                // may hold the signal blocked on its threads: unblocked here first, and should it
                // still not end the process, the status a shell gives a stopped one.
                signal(number, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, number)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(number)
                _exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }
}
