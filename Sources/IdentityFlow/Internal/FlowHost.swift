import Statechart

/// How a running flow reaches its host, whichever API started it: a delegate (callbacks on the
/// configured executor) or the async API (a responder and a waiting task). Built once per flow.
struct FlowHost<Start: Sendable, Success: Sendable>: Sendable {
    private let route: Route

    /// Callbacks run on their executor (the delegate APIs), or the async API's waiter, which
    /// needs no closures (docs/performance-notes.md#async-waiting-task). The executor is applied
    /// when a callback runs, not wrapped around each callback here: three closures fewer per flow.
    private enum Route: Sendable {
        case callbacks(Callbacks)
        case waiter(FlowWaiter)
    }

    private struct Callbacks: Sendable {
        let executor: CallbackExecutor
        let started: @Sendable (Start) -> Void
        let challenge: @Sendable (Challenge) -> Void
        let finished: @Sendable (Result<Success, IdentityFlowError>) -> Void
    }

    /// A host for a delegate API: each callback runs on `executor`, in order. Every flow's
    /// delegate adaptor is one of these.
    /// - Parameters:
    ///   - executor: Where the delegate is called.
    ///   - started: Calls the delegate's `didStart…`.
    ///   - challenge: Hands the delegate a challenge.
    ///   - finished: Calls the delegate's terminal callback.
    static func delegate(
        on executor: CallbackExecutor, started: @escaping @Sendable (Start) -> Void = { _ in },
        challenge: @escaping @Sendable (Challenge) -> Void,
        finished: @escaping @Sendable (Result<Success, IdentityFlowError>) -> Void
    ) -> FlowHost {
        FlowHost(route: .callbacks(Callbacks(executor: executor, started: started, challenge: challenge, finished: finished)))
    }

    /// A host for the async API: challenges go to the waiter's responder, the outcome to the waiter.
    static func responder(_ waiter: FlowWaiter) -> FlowHost { FlowHost(route: .waiter(waiter)) }

    /// The flow started, with what it is about.
    func started(_ start: Start) {
        if case .callbacks(let callbacks) = route { callbacks.executor.run { callbacks.started(start) } }
    }

    /// Hands the host a challenge.
    func challenge(_ challenge: Challenge) {
        switch route {
        case .callbacks(let callbacks): callbacks.executor.run { callbacks.challenge(challenge) }
        case .waiter(let waiter): waiter.receive(challenge)
        }
    }

    /// Hands the host the terminal outcome. The flow calls it exactly once.
    func finished(_ outcome: Result<Success, IdentityFlowError>) {
        switch route {
        case .callbacks(let callbacks):
            callbacks.executor.run {
                callbacks.finished(outcome)
                guard let after = callbacks.executor.afterTerminalCallback else { return }
                if case .failure(let error) = outcome { after(error) } else { after(nil) }
            }
        case .waiter(let waiter): waiter.finish(outcome)
        }
    }
}

extension UserClient {
    /// Runs a flow for the async API: builds a responder host, lets `launch` start the flow with
    /// it, and cancels the flow if the awaiting task is cancelled.
    ///
    /// Inlined, starting the flow in a synchronous call: docs/performance-notes.md#async-waiting-task.
    @inline(__always)
    func runAsync<Start: Sendable, Success: Sendable>(
        responder: any ChallengeResponder,
        launch: (FlowHost<Start, Success>) -> FlowSlot?
    ) async throws(IdentityFlowError) -> Success {
        let waiter = startAsync(responder: responder, launch: launch)
        await waiter.wait()
        return try waiter.outcome(as: Success.self).get()
    }

    /// Starts a flow for the async API and returns the waiter to await its outcome.
    @inline(never)
    private func startAsync<Start: Sendable, Success: Sendable>(
        responder: any ChallengeResponder,
        launch: (FlowHost<Start, Success>) -> FlowSlot?
    ) -> FlowWaiter {
        let waiter = FlowWaiter(responder: responder)
        let slot = launch(.responder(waiter))
        waiter.cancelOnTaskCancel(slot)
        // A task cancelled before the call cancels the flow too: its cancellation handler would
        // only run for a cancel that comes while it waits.
        if Task.isCancelled { slot?.cancel() }
        return waiter
    }
}

extension FlowHost {
    /// A host for completion-handler calls: no challenges, one completion on the executor.
    static func completion(_ executor: CallbackExecutor, _ completion: @escaping @Sendable (IdentityFlowError?) -> Void) -> FlowHost {
        .delegate(
            on: executor, challenge: { $0.cancel() },
            finished: { outcome in
                switch outcome {
                case .success: completion(nil)
                case .failure(let error): completion(error)
                }
            })
    }
}
