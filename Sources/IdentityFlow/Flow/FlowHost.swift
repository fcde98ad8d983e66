import Statechart

/// How a running flow reaches its host, whichever API started it: a delegate (callbacks on the
/// configured executor) or the async API (a responder and a continuation). Built once per flow.
struct FlowHost<Start: Sendable, Success: Sendable>: Sendable {
    /// The flow started (the delegate's `didStart…`), with what it is about.
    let started: @Sendable (Start) -> Void
    /// A challenge for the host.
    let challenge: @Sendable (Challenge) -> Void
    /// The terminal outcome. The flow calls it exactly once.
    let finished: @Sendable (Result<Success, IdentityFlowError>) -> Void

    /// A host for the async API: challenges go to the responder, the outcome resumes `continuation`.
    static func responder(_ responder: some ChallengeResponder, continuation: CheckedContinuation<Result<Success, IdentityFlowError>, Never>) -> FlowHost {
        let once = Locked<CheckedContinuation<Result<Success, IdentityFlowError>, Never>?>(continuation)
        return FlowHost(
            started: { _ in },
            challenge: { challenge in startImmediateTask { await responder.receive(challenge) } },
            finished: { outcome in
                once.withLock { continuation in
                    defer { continuation = nil }
                    return continuation
                }?.resume(returning: outcome)
            })
    }
}

extension UserClient {
    /// Runs a flow for the async API: builds a responder host, lets `launch` start the flow with
    /// it, and cancels the flow if the awaiting task is cancelled.
    func runAsync<Start: Sendable, Success: Sendable>(
        responder: some ChallengeResponder,
        launch: (FlowHost<Start, Success>) -> FlowSlot?
    ) async throws(IdentityFlowError) -> Success {
        let slot = Locked<FlowSlot?>(nil)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, IdentityFlowError>, Never>) in
                let started = launch(.responder(responder, continuation: continuation))
                slot.withLock { $0 = started }
            }
        } onCancel: {
            slot.withLock { $0 }?.cancel()
        }
        return try outcome.get()
    }
}
