import Statechart

/// What the server said about one PIN attempt.
package enum PinCheck: Sendable, Hashable {
    /// Right PIN: fresh tokens, and the key the PIN derived (kept in memory only for a PIN change
    /// or a biometric registration that follows).
    case accepted(TokenSet, key: ProvenPinKey)
    /// Wrong PIN; attempts remain.
    case rejected(PinCounters)
    /// Wrong PIN for the last allowed time, or the server no longer knows the profile.
    case deregistered
}

/// The rules every flow that asks for the current PIN shares (login, PIN change, biometric
/// registration): how an attempt's outcome moves the flow on, and the chart fragment for it.
enum PinEntry {
    /// Where an attempt leads.
    enum Decision: Sendable {
        /// The PIN was right.
        case accepted(TokenSet, key: ProvenPinKey)
        /// Ask again with these counters and this error.
        case retry(PinCounters, IdentityFlowError)
        /// Delete the profile locally; the flow fails with ``ErrorCode/userDeregistered``.
        case deregister
        /// The flow fails.
        case fail(IdentityFlowError)
    }

    /// The decision for a server answer, with the chart's guard name.
    static func decide(_ check: PinCheck) -> (guardName: String, decision: Decision) {
        switch check {
        case .accepted(let tokens, let key):
            return ("accepted", .accepted(tokens, key: key))
        case .rejected(let counters):
            let error = IdentityFlowError(.invalidPin, "The PIN is wrong; \(counters.remainingFailureCount) attempt(s) left.")
            return ("rejected", .retry(counters, error))
        case .deregistered:
            return ("deregistered", .deregister)
        }
    }

    /// The decision for a failed attempt: network trouble asks again with the counters untouched.
    static func decide(failure error: IdentityFlowError, counters: PinCounters) -> (guardName: String, decision: Decision) {
        isRecoverable(error) ? ("recoverable", .retry(counters, error)) : ("unrecoverable", .fail(error))
    }

    /// Network and server errors leave the PIN unchecked, so the same challenge may come back.
    static func isRecoverable(_ error: IdentityFlowError) -> Bool {
        error.code == .networkConnectivityFailure || error.code == .serverNotReachable
    }

    /// The error a flow fails with after the profile was deregistered.
    static func deregisteredError(_ profile: UserProfile) -> IdentityFlowError {
        var error = IdentityFlowError(.userDeregistered, "Too many wrong PINs, or the server no longer knows the profile: it was removed from this device.")
        error.userProfile = profile
        return error
    }

    /// The chart fragment of the PIN loop, for a machine whose states carry these names.
    static func transitions(awaiting: String, verifying: String, accepted: String) -> [ChartTransition] {
        [
            .init(from: "fetchingPinStatus", on: "pinStatusFetched", to: awaiting),
            .init(from: "fetchingPinStatus", on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "fetchingPinStatus", on: "serviceFailed", to: "failed"),
            .init(from: awaiting, on: "pinProvided", to: verifying),
            .init(from: verifying, on: "pinChecked", guard: "accepted", to: accepted),
            .init(from: verifying, on: "pinChecked", guard: "rejected", to: awaiting),
            .init(from: verifying, on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: verifying, on: "serviceFailed", guard: "recoverable", to: awaiting),
            .init(from: verifying, on: "serviceFailed", guard: "unrecoverable", to: "failed"),
            .init(from: "deletingProfile", on: "profileDeleted", to: "failed"),
        ]
    }

    /// A cancel while the server checks a proof cancels the check but awaits its outcome (the
    /// server may have opened a session already), then revokes the session it opened; a check that locked the profile out still
    /// deletes it from the device. Machines name these states `cancelling` and `revokingTokens`.
    static func cancellingTransitions(verifying: [String]) -> [ChartTransition] {
        verifying.map { .init(from: $0, on: "cancelRequested", to: "cancelling") } + [
            .init(from: "cancelling", on: "pinChecked", guard: "accepted", to: "revokingTokens"),
            .init(from: "cancelling", on: "pinChecked", guard: "rejected", to: "failed"),
            .init(from: "cancelling", on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "cancelling", on: "serviceFailed", to: "failed"),
            .init(from: "revokingTokens", on: "tokensRevoked", to: "failed"),
        ]
    }

    /// Abandoned challenges and cancellation end the flow from these states. States that store
    /// the outcome locally (one write, after the server agreed) and `deletingProfile` are not
    /// among the busy ones: a cancel there comes too late, and honouring it could report a
    /// failure while the device already holds the new session, key or profile.
    static func endings(awaiting: [String], busy: [String]) -> [ChartTransition] {
        awaiting.map { .init(from: $0, on: "challengeAbandoned", to: "failed") }
            + (awaiting + busy).map { .init(from: $0, on: "cancelRequested", to: "failed") }
    }
}
