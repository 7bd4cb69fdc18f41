import Foundation

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
    /// Per host and port, why its address is refused (`nil`: it is not), once looked up.
    private var addressChecks: [String: String?] = [:]

    /// Why covers may not come from `url`'s host (see ``CoverAddress``), looked up once per host
    /// and port for the fetcher's life (a build).
    func addressRefusal(for url: URL, rule: PrivateHosts) async -> String? {
        let key = "\(url.host(percentEncoded: false) ?? "") \(url.port ?? -1)"
        if let known = addressChecks[key] { return known }
        let refusal = await CoverAddress.refusalResolvingElsewhere(for: url, rule: rule)
        addressChecks[key] = .some(refusal)
        return refusal
    }

    /// Per host, the covers in a row that gave up because it did not answer in time.
    private var timedOut: [String: Int] = [:]

    /// How many covers in a row may time out on one host before its other covers are skipped:
    /// with retries, a host that has stopped answering costs minutes per cover, hours for a
    /// catalogue of them.
    static let unresponsiveAfter = 2

    /// How many covers of `host` in a row timed out, when that many make it skipped; `nil` while
    /// its covers are still tried.
    func unresponsive(_ host: String) -> Int? {
        let count = timedOut[host, default: 0]
        return count >= Self.unresponsiveAfter ? count : nil
    }

    /// Records how a cover of `host` ended: given up on timeouts, or with any answer.
    func settled(_ host: String, timedOut didTimeOut: Bool) {
        if didTimeOut { timedOut[host, default: 0] += 1 } else { timedOut[host] = nil }
    }

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
