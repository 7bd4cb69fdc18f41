/// Holds requests that arrive before the first build is done: the server listens before it
/// builds (so a bad `--host` or a taken port fails at once), and a page asked for meanwhile is
/// sent once there is one, not a 404.
public actor BuildGate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// A closed gate.
    public init() {}

    /// Returns once the gate is open.
    public func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Opens the gate for good, letting every waiting request through.
    public func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting = []
    }
}
