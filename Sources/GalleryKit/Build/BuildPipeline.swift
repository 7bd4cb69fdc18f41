import Foundation

/// Runs build steps in order, timing each, stopping at the first step that reports an error.
public struct BuildPipeline: Sendable {
    /// The steps.
    public var steps: [BuildStep]

    /// A pipeline of steps (by default the standard build).
    public init(steps: [BuildStep] = BuildStep.standard) {
        self.steps = steps
    }

    /// Runs the build.
    ///
    /// - Returns: The final state; `state.summary.succeeded` says whether the site was written.
    ///   Diagnostics are in `state.diagnostics` and were also sent to the observer.
    public func run(_ options: BuildOptions, observer: any BuildObserving = SilentObserver()) async -> BuildState {
        var state = BuildState(options: options)
        // The step whose errors stop the build, when the build went on past it.
        var failing: String?
        for (offset, step) in steps.enumerated() {
            observer.receive(.stepStarted(index: offset + 1, count: steps.count, name: step.name))
            let start = ContinuousClock.now
            do {
                try await step.body(&state, observer)
            } catch let failure as BuildFailure {
                // Not about a file (libvips missing): no path, as `--strict`'s finding has none.
                state.report(.error(failure.reason, path: ""), to: observer)
            } catch {
                // Render and write fail on the output folder (full disk, no permission): name it.
                let place = ["render", "write"].contains(step.name) ? state.outputFolder : options.site.root
                state.report(.error("step '\(step.name)' failed: \(error)", path: SiteFolder.display(place)), to: observer)
            }
            let seconds = (ContinuousClock.now - start).seconds
            state.summary.timings.append(.init(step: step.name, seconds: seconds))
            observer.receive(.stepFinished(name: step.name, seconds: seconds))
            // With --strict, covers that could not be had are errors; the thumbnails step still
            // runs, so one run names every bad cover (the damaged and too large ones too).
            let onlyCoverErrors = step.name == "fetch covers" && state.diagnostics.count(where: { $0.severity == .error }) == state.strictCoverErrors
            if onlyCoverErrors, state.diagnostics.containsErrors { failing = step.name }
            if state.diagnostics.containsErrors, !onlyCoverErrors {
                state.summary.failedStep = failing ?? step.name
                state.staged?.discard()
                state.staged = nil
                break
            }
            if state.summary.upToDate { break }
        }
        // A staging folder made ahead for a render that did not come (the build stopped first).
        if let ahead = state.stagingAhead {
            state.stagingAhead = nil
            (try? await ahead.value)?.discard()
        }
        state.outputLock = nil
        // A build stopped before its thumbnails leaves the covers no thread took unmade. Nothing
        // is left running in libvips, or loading it, when the build returns and the process exits.
        await state.thumbnailQueue?.cancel()
        state.thumbnailQueue = nil
        await Thumbnailer.loadsEnded()
        state.summary.warnings = state.diagnostics.count { $0.severity == .warning }
        state.summary.errors = state.diagnostics.count { $0.severity == .error }
        state.summary.succeeded = state.summary.errors == 0
        observer.receive(.finished(state.summary))
        return state
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
