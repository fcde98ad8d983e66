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

/// The right PIN's proof: the session it opened and the key it derived (kept in memory only, for
/// the work the flow does next).
package struct ProvenPin: Sendable, Equatable {
    /// The session the PIN opened.
    package let tokens: TokenSet
    /// The key the PIN derived.
    package let key: ProvenPinKey
}

/// The PIN loop every flow that asks for the current PIN shares (login, PIN change, biometric
/// registration, mobile authentication): its child machine (``Machine``), held by each parent as
/// a state value, its rules, and its chart fragment, drawn as a compound state of the parent.
package enum PinEntry {
    /// The leaf states of the loop (``PinEntry/Machine/State``), in drawing order.
    package static let leaves = ["fetchingPinStatus", "awaitingPin", "verifyingPin", "cancelling", "deletingProfile"]

    /// Network and server errors leave the PIN unchecked, so the same challenge may come back.
    /// - Parameter error: A failed call's error.
    /// - Returns: Whether the challenge is asked again.
    package static func isRecoverable(_ error: IdentityFlowError) -> Bool {
        error.code == .networkConnectivityFailure || error.code == .serverNotReachable
    }

    /// The error a flow fails with after the profile was deregistered.
    /// - Parameter profile: The deleted profile.
    /// - Returns: `userDeregistered`, carrying the profile.
    package static func deregisteredError(_ profile: UserProfile) -> IdentityFlowError {
        var error = IdentityFlowError(.userDeregistered, "Too many wrong PINs, or the server no longer knows the profile: it was removed from this device.")
        error.userProfile = profile
        return error
    }

    /// The compound state the loop is drawn as in a parent's chart.
    /// - Parameters:
    ///   - name: The parent's state case that holds the loop.
    ///   - cancellable: Whether the loop has a `cancelling` state (``PinEntry/Machine/cancelsDuringCheck``).
    /// - Returns: The compound state with the loop's leaf states.
    package static func compound(named name: String, cancellable: Bool = true) -> ChartCompound {
        ChartCompound(name: name, initial: "fetchingPinStatus", children: leaves.filter { cancellable || $0 != "cancelling" })
    }

    /// The chart fragment of the loop's own transitions, for a parent whose accepted PIN leads to
    /// `accepted` (events named as the login's: `pinStatusFetched`, `pinProvided`, `pinChecked`...).
    /// - Parameter accepted: The parent's state after a right PIN.
    /// - Returns: The transitions.
    package static func transitions(accepted: String) -> [ChartTransition] {
        [
            .init(from: "fetchingPinStatus", on: "pinStatusFetched", to: "awaitingPin"),
            .init(from: "fetchingPinStatus", on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "fetchingPinStatus", on: "serviceFailed", to: "failed"),
            .init(from: "awaitingPin", on: "pinProvided", to: "verifyingPin"),
            .init(from: "verifyingPin", on: "pinChecked", guard: "accepted", to: accepted),
            .init(from: "verifyingPin", on: "pinChecked", guard: "rejected", to: "awaitingPin"),
            .init(from: "verifyingPin", on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "verifyingPin", on: "serviceFailed", guard: "recoverable", to: "awaitingPin"),
            .init(from: "verifyingPin", on: "serviceFailed", guard: "unrecoverable", to: "failed"),
            .init(from: "deletingProfile", on: "profileDeleted", to: "failed"),
        ]
    }

    /// A cancel while the server checks a proof cancels the check but awaits its outcome (the
    /// server may have opened a session already), then revokes the session it opened; a check that
    /// locked the profile out still deletes it from the device. Parents name the state after it
    /// `revokingTokens`.
    /// - Parameter verifying: The states that check a proof (the loop's `verifyingPin`, and a
    ///   parent's own, such as `verifyingBiometric`).
    /// - Returns: The transitions.
    package static func cancellingTransitions(verifying: [String]) -> [ChartTransition] {
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
    /// - Parameters:
    ///   - awaiting: The states that wait for a challenge's answer.
    ///   - busy: The states that wait for other work a cancel ends.
    /// - Returns: The transitions.
    package static func endings(awaiting: [String], busy: [String]) -> [ChartTransition] {
        awaiting.map { .init(from: $0, on: "challengeAbandoned", to: "failed") }
            + (awaiting + busy).map { .init(from: $0, on: "cancelRequested", to: "failed") }
    }
}

extension PinEntry {
    /// The loop's verdict for a ``PinCheck``.
    /// - Parameter check: The server's answer.
    /// - Returns: The same answer as a verdict.
    package static func verdict(_ check: PinCheck) -> Machine<ProvenPin>.Verdict {
        switch check {
        case .accepted(let tokens, let key): .accepted(ProvenPin(tokens: tokens, key: key))
        case .rejected(let counters): .rejected(counters)
        case .deregistered: .deregistered
        }
    }
}

extension PinEntry {
    /// The PIN loop as a child machine: fetch the counters, ask for the PIN, check it, ask again after
    /// a wrong PIN or a network error, delete the profile after the last wrong one.
    ///
    /// A parent machine holds it as its state value (`.enteringPin(PinEntry.Machine<ProvenPin>)`, as
    /// swift-nio's `NIOAsyncWriter` nests its state machine), forwards the loop's events to
    /// ``handle(_:)`` and maps the returned ``Action`` to its own effects or next state. Login, PIN
    /// change, biometric registration (whose `Proof` is a ``ProvenPin``) and mobile authentication
    /// (whose server answers with a verdict, no session) share this one copy. Its states are the leaf
    /// states of the parent chart's compound state (``PinEntry/compound(named:cancellable:)``), and the
    /// runner names the parent's state by the child's (``ChildMachineState``).
    package struct Machine<Proof: Sendable & Equatable>: Sendable, Equatable, ChildMachineState {
        /// The loop's states.
        package enum State: Sendable, Equatable {
            /// The server tells the counters; `error` is shown on the first challenge.
            case fetchingPinStatus(error: IdentityFlowError?)
            /// The host enters the PIN; it was shown these counters.
            case awaitingPin(PinCounters)
            /// The server checks the PIN's proof.
            case verifyingPin(PinCounters)
            /// Cancelled during a check: its outcome is awaited.
            case cancelling
            /// The device deletes the deregistered profile.
            case deletingProfile
        }

        /// What the server said about one attempt.
        package enum Verdict: Sendable, Equatable {
            /// Right PIN.
            case accepted(Proof)
            /// Wrong PIN; attempts remain.
            case rejected(PinCounters)
            /// Wrong PIN for the last allowed time, or the server no longer knows the profile.
            case deregistered
        }

        /// The loop's events, forwarded by the parent.
        package enum Event: Sendable {
            /// The server told the counters.
            case statusFetched(PinCounters)
            /// The host entered a PIN.
            case provided(Redacted<String>)
            /// The server checked a proof.
            case checked(Verdict)
            /// A server call failed.
            case serviceFailed(IdentityFlowError)
            /// The challenge ended without an answer.
            case abandoned(ChallengeAbandonment)
            /// The host cancelled the flow.
            case cancelRequested
            /// The deregistered profile is deleted.
            case profileDeleted
        }

        /// What the parent does: the first four keep the loop running (the parent stays in its
        /// compound state), the last three end it.
        package enum Action: Sendable, Equatable {
            /// Show a PIN challenge with these counters and this error.
            case ask(PinCounters, error: IdentityFlowError?)
            /// Prove this PIN to the server.
            case verify(Redacted<String>)
            /// Delete the profile from the device.
            case deleteProfile
            /// Cancelled during a check: wait for its outcome, doing nothing.
            case awaitCheck
            /// The PIN was right: the parent goes on with its own work.
            case accepted(Proof)
            /// Cancelled, but the check succeeded: the parent undoes what it opened, then fails as cancelled.
            case acceptedAfterCancel(Proof)
            /// The flow fails.
            case fail(IdentityFlowError)
        }

        /// The profile whose PIN is asked.
        package let profile: UserProfile
        /// Whether a cancel during a check waits for its outcome (`cancelling`); when `false`, a check
        /// is past cancelling (the answer is committed) and a cancel then is not taken.
        package let cancelsDuringCheck: Bool
        /// The current state.
        package private(set) var state: State

        /// Creates the loop in a state.
        /// - Parameters:
        ///   - profile: The profile whose PIN is asked.
        ///   - cancelsDuringCheck: Whether a cancel during a check is taken (see the property).
        ///   - state: The state to start in; the parent entering the loop names the effect that state waits for.
        package init(profile: UserProfile, cancelsDuringCheck: Bool = true, state: State = .fetchingPinStatus(error: nil)) {
            self.profile = profile
            self.cancelsDuringCheck = cancelsDuringCheck
            self.state = state
        }

        /// The chart name of the current leaf state (the parent's state is named by it).
        package var chartStateName: String { caseName(of: state) }

        /// Reacts to an event; see ``PinEntry/transitions(accepted:)``.
        /// - Parameter event: What happened.
        /// - Returns: The guard that held and what the parent does, or `nil` when the current state
        ///   has no transition for the event (the state is then unchanged).
        package mutating func handle(_ event: Event) -> (guardName: String?, action: Action)? {
            let cancelled = Action.fail(ChallengeAbandonment.flowCancelled)
            switch state {
            case .fetchingPinStatus(let pending):
                switch event {
                case .statusFetched(let counters): return go(.awaitingPin(counters), .ask(counters, error: pending))
                case .checked(.deregistered): return go(.deletingProfile, guard: "deregistered", .deleteProfile)
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, cancelled)
                default: return nil
                }
            case .awaitingPin(let counters):
                switch event {
                case .provided(let pin): return go(.verifyingPin(counters), .verify(pin))
                case .abandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, cancelled)
                default: return nil
                }
            case .verifyingPin(let counters):
                switch event {
                case .checked(let verdict): return decide(verdict)
                case .serviceFailed(let error):
                    guard PinEntry.isRecoverable(error) else { return ("unrecoverable", .fail(error)) }
                    return go(.awaitingPin(counters), guard: "recoverable", .ask(counters, error: error))
                case .cancelRequested where cancelsDuringCheck: return go(.cancelling, .awaitCheck)
                default: return nil
                }
            case .cancelling:
                switch event {
                case .checked(.accepted(let proof)): return ("accepted", .acceptedAfterCancel(proof))
                case .checked(.rejected): return ("rejected", cancelled)
                case .checked(.deregistered): return go(.deletingProfile, guard: "deregistered", .deleteProfile)
                case .serviceFailed: return (nil, cancelled)
                default: return nil
                }
            case .deletingProfile:
                guard case .profileDeleted = event else { return nil }
                return (nil, .fail(PinEntry.deregisteredError(profile)))
            }
        }

        /// The step for a server answer while verifying, with the chart's guard name.
        /// - Parameter verdict: The server's answer.
        /// - Returns: The guard and the action.
        package mutating func decide(_ verdict: Verdict) -> (guardName: String?, action: Action) {
            switch verdict {
            case .accepted(let proof):
                return ("accepted", .accepted(proof))
            case .rejected(let counters):
                let error = IdentityFlowError(.invalidPin, "The PIN is wrong; \(counters.remainingFailureCount) attempt(s) left.")
                return go(.awaitingPin(counters), guard: "rejected", .ask(counters, error: error))
            case .deregistered:
                return go(.deletingProfile, guard: "deregistered", .deleteProfile)
            }
        }

        private mutating func go(_ target: State, guard guardName: String? = nil, _ action: Action) -> (guardName: String?, action: Action) {
            state = target
            return (guardName, action)
        }
    }
}
