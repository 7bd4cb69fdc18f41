/// Admits downloads under two limits at once: a global one and one per host.
///
/// A counting semaphore as an actor: ``acquire(host:)`` suspends until a slot is free, and
/// ``release(host:)`` hands the slot to the longest-waiting download whose host has room, so a
/// busy host never blocks downloads from the others.
actor CoverFetchGate {
    /// The most slots taken at once.
    let limit: Int
    /// The most slots one host may hold at once.
    let perHost: Int
    private var running = 0
    private var runningByHost: [String: Int] = [:]
    private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

    /// A gate with the given limits (each at least 1).
    init(limit: Int, perHost: Int) {
        self.limit = max(1, limit)
        self.perHost = max(1, perHost)
    }

    /// Waits for a slot for `host` and takes it. Every call must be matched by ``release(host:)``.
    func acquire(host: String) async {
        if hasRoom(for: host) {
            take(host)
            return
        }
        await withCheckedContinuation { continuation in
            waiting.append((host, continuation))
        }
    }

    /// Gives back a slot of `host` and admits whoever can now run.
    func release(host: String) {
        running -= 1
        let remaining = (runningByHost[host] ?? 1) - 1
        runningByHost[host] = remaining > 0 ? remaining : nil
        var index = 0
        while running < limit, index < waiting.count {
            let candidate = waiting[index]
            if hasRoom(for: candidate.host) {
                waiting.remove(at: index)
                take(candidate.host)
                candidate.continuation.resume()
            } else {
                index += 1
            }
        }
    }

    private func hasRoom(for host: String) -> Bool {
        running < limit && runningByHost[host, default: 0] < perHost
    }

    private func take(_ host: String) {
        running += 1
        runningByHost[host, default: 0] += 1
    }
}
