/// One running fetch per cover URL: a caller asking for a URL that is already being fetched
/// awaits that fetch's result instead of starting another.
actor SharedCoverFetches {
    private var running: [String: Task<Result<Cover, CoverFailure>, Never>] = [:]

    /// The result of the fetch of `key`, running `fetch` only if no fetch of `key` is under way.
    ///
    /// The fetch runs in its own task, so one caller's cancellation does not fail the others.
    func result(
        for key: String,
        fetch: @escaping @Sendable () async -> Result<Cover, CoverFailure>
    ) async -> Result<Cover, CoverFailure> {
        if let task = running[key] {
            return await task.value
        }
        let task = Task { await fetch() }
        running[key] = task
        let result = await task.value
        running[key] = nil
        return result
    }
}
