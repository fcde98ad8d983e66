import Statechart

/// What the async API keeps for one flow, under one lock: the responder, the awaiting task's
/// continuation, the flow's slot (to cancel it) and, once the flow ends, its outcome.
///
/// Neither generic nor carrying the outcome through the continuation:
/// docs/performance-notes.md#async-waiting-task.
final class FlowWaiter: Sendable {
    private struct State: Sendable {
        let responder: any ChallengeResponder
        var continuation: CheckedContinuation<Void, Never>?
        var slot: FlowSlot?
        /// A `Result<Success, IdentityFlowError>`, of the `Success` type of the flow's host.
        var outcome: (any Sendable)?
    }

    private let state: Locked<State>

    /// A waiter whose flow hands its challenges to `responder`.
    init(responder: any ChallengeResponder) { state = Locked(State(responder: responder)) }

    /// Names the flow that ``wait()`` cancels when the awaiting task is cancelled (which then ends
    /// with an outcome as usual); `nil` for none.
    func cancelOnTaskCancel(_ slot: FlowSlot?) {
        state.withLock { $0.slot = slot }
    }

    /// Suspends until the flow's outcome is recorded (returns at once if it is already).
    func wait() async {
        await withTaskCancellationHandler {
            // Not `withCheckedContinuation` (docs/performance-notes.md#async-waiting-task); wrapped
            // at once, so it keeps the same misuse checks.
            await withUnsafeContinuation { (unsafe: UnsafeContinuation<Void, Never>) in
                let continuation = CheckedContinuation(continuation: unsafe, function: "FlowWaiter.wait()")
                let ended = state.withLock { state in
                    if state.outcome != nil { return true }
                    state.continuation = continuation
                    return false
                }
                if ended { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.slot }?.cancel()
        }
    }

    /// Hands the responder a challenge, in a task that runs inline until it first suspends.
    func receive(_ challenge: Challenge) {
        let responder = state.withLock { $0.responder }
        startImmediateTask { await responder.receive(challenge) }
    }

    /// Records the flow's terminal outcome and resumes the awaiting task; only the first outcome counts.
    func finish<Success: Sendable>(_ outcome: Result<Success, IdentityFlowError>) {
        let (responder, first) = state.withLock { state in (state.responder, state.outcome == nil) }
        guard first else { return }
        (responder as? any FlowOutcomeObserver)?.flowEnded(outcome.map { $0 as any Sendable })
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.outcome != nil { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }?.resume()
    }

    /// The recorded outcome. Call after ``wait()`` returned, with the host's `Success` type; the
    /// flow's host has that type, so the fallback error (an engine fault) never reaches a caller
    /// in practice, but a library must not crash its host over it.
    func outcome<Success: Sendable>(as type: Success.Type) -> Result<Success, IdentityFlowError> {
        guard let outcome = state.withLock({ $0.outcome }) as? Result<Success, IdentityFlowError> else {
            return .failure(IdentityFlowError(.unknown, "The flow ended without an outcome of the expected type."))
        }
        return outcome
    }
}
