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

/// The PIN loop every flow that asks for the current PIN shares (login, PIN change, biometric
/// registration): its phases, how each of its events moves it on, and its chart fragment. A
/// machine maps its own states to a ``Phase`` and each ``Step`` to its own state and effects
/// (``PinEntryMachine``); the decisions live here only.
enum PinEntry {
    /// The loop's states, whatever a machine calls them.
    enum Phase: Sendable, Equatable {
        /// The server tells the counters; `error` is shown on the first challenge.
        case fetchingStatus(error: IdentityFlowError?)
        /// The host enters the PIN; it was shown these counters.
        case awaiting(PinCounters)
        /// The server checks the PIN's proof.
        case verifying(PinCounters)
        /// Cancelled during a check: its outcome is awaited.
        case cancelling
        /// The device deletes the deregistered profile.
        case deletingProfile
    }

    /// The loop's events, whatever a machine calls them.
    enum Input: Sendable {
        /// The server told the counters.
        case statusFetched(PinCounters)
        /// The host entered a PIN.
        case provided(Redacted<String>)
        /// The server checked a proof.
        case checked(PinCheck)
        /// A server call failed.
        case serviceFailed(IdentityFlowError)
        /// The challenge ended without an answer.
        case abandoned(ChallengeAbandonment)
        /// The host cancelled the flow.
        case cancelRequested
        /// The deregistered profile is deleted.
        case profileDeleted
    }

    /// Where the loop goes next.
    enum Step: Sendable, Equatable {
        /// Show a PIN challenge with these counters and this error (the awaiting phase).
        case ask(PinCounters, error: IdentityFlowError?)
        /// Prove this PIN (the verifying phase).
        case verify(Redacted<String>, PinCounters)
        /// The PIN was right: the machine goes on with its own work.
        case accepted(TokenSet, key: ProvenPinKey)
        /// Cancelled during a check: wait for its outcome, doing nothing (the cancelling phase).
        case awaitCheck
        /// Cancelled, but the check opened a session: revoke it, then fail as cancelled.
        case revoke(TokenSet)
        /// Delete the profile from the device (the deletingProfile phase).
        case deleteProfile
        /// The flow fails.
        case fail(IdentityFlowError)
    }

    /// The step for `input` in `phase`, with the chart's guard name; `nil` when the phase has no
    /// transition for it.
    static func step(in phase: Phase, on input: Input, profile: UserProfile) -> (guardName: String?, step: Step)? {
        let cancelled = Step.fail(ChallengeAbandonment.flowCancelled)
        switch phase {
        case .fetchingStatus(let pending):
            switch input {
            case .statusFetched(let counters): return (nil, .ask(counters, error: pending))
            case .checked(.deregistered): return ("deregistered", .deleteProfile)
            case .serviceFailed(let error): return (nil, .fail(error))
            case .cancelRequested: return (nil, cancelled)
            default: return nil
            }
        case .awaiting(let counters):
            switch input {
            case .provided(let pin): return (nil, .verify(pin, counters))
            case .abandoned(let how): return (nil, .fail(how.error))
            case .cancelRequested: return (nil, cancelled)
            default: return nil
            }
        case .verifying(let counters):
            switch input {
            case .checked(let check): return decide(check)
            case .serviceFailed(let error): return decide(failure: error, counters: counters)
            case .cancelRequested: return (nil, .awaitCheck)
            default: return nil
            }
        case .cancelling:
            switch input {
            case .checked(let check):
                switch decide(check) {
                case (let name, .accepted(let tokens, _)): return (name, .revoke(tokens))
                case (let name, .deleteProfile): return (name, .deleteProfile)
                case (let name, _): return (name, cancelled)
                }
            case .serviceFailed: return (nil, cancelled)
            default: return nil
            }
        case .deletingProfile:
            guard case .profileDeleted = input else { return nil }
            return (nil, .fail(deregisteredError(profile)))
        }
    }

    /// The step for a server answer, with the chart's guard name.
    static func decide(_ check: PinCheck) -> (guardName: String?, step: Step) {
        switch check {
        case .accepted(let tokens, let key):
            return ("accepted", .accepted(tokens, key: key))
        case .rejected(let counters):
            let error = IdentityFlowError(.invalidPin, "The PIN is wrong; \(counters.remainingFailureCount) attempt(s) left.")
            return ("rejected", .ask(counters, error: error))
        case .deregistered:
            return ("deregistered", .deleteProfile)
        }
    }

    /// The step for a failed check: network trouble asks again with the counters untouched.
    static func decide(failure error: IdentityFlowError, counters: PinCounters) -> (guardName: String?, step: Step) {
        isRecoverable(error) ? ("recoverable", .ask(counters, error: error)) : ("unrecoverable", .fail(error))
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

/// A machine that asks for the current PIN and leaves its PIN loop to ``PinEntry``: its states
/// for the loop's phases call ``pinEntry(_:_:)``, and ``follow(_:guard:)`` names the state and
/// effects of each step.
protocol PinEntryMachine: StateMachine {
    /// The profile whose PIN is asked.
    var pinEntryProfile: UserProfile { get }
    /// The loop's event that `event` is, or `nil` for the machine's other events.
    static func pinEntryInput(_ event: Event) -> PinEntry.Input?
    /// Moves to the state that stands for `step` and returns its effects.
    mutating func follow(_ step: PinEntry.Step, guard guardName: String?) -> Reaction<Effect>
}

extension PinEntryMachine {
    /// Handles `event` in one of the loop's phases.
    mutating func pinEntry(_ phase: PinEntry.Phase, _ event: Event) -> Reaction<Effect>? {
        guard let input = Self.pinEntryInput(event),
            let next = PinEntry.step(in: phase, on: input, profile: pinEntryProfile)
        else { return nil }
        return follow(next.step, guard: next.guardName)
    }
}
