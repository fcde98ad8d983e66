import Statechart

/// Changing the PIN as a pure state machine: the current PIN (checked by the server, counted
/// like a login, lockout included), then a new PIN that follows the policy, enrolled with the
/// server. Its chart is ``ChangePinMachine/chart``.
package struct ChangePinMachine: StateMachine {
    /// What the machine knows from the start.
    package struct Context: Sendable, Equatable {
        /// The authenticated profile.
        package let profile: UserProfile
        /// The rules the new PIN must follow.
        package let pinPolicy: PinPolicy

        /// Creates a context.
        /// - Parameters:
        ///   - profile: The profile.
        ///   - pinPolicy: The PIN rules.
        package init(profile: UserProfile, pinPolicy: PinPolicy) {
            self.profile = profile
            self.pinPolicy = pinPolicy
        }
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The server tells the PIN counters.
        case fetchingPinStatus
        /// The host enters the current PIN.
        case awaitingCurrentPin(PinCounters)
        /// The server checks the current PIN's proof.
        case verifyingCurrentPin(PinCounters)
        /// The host chooses the new PIN.
        case awaitingNewPin(TokenSet, currentKey: ProvenPinKey)
        /// The server enrols the new PIN's verifier.
        case enrollingNewPin(TokenSet, currentKey: ProvenPinKey)
        /// The device stores the fresh tokens.
        case storingSession(TokenSet)
        /// The device deletes the deregistered profile.
        case deletingProfile
        /// Cancelled while the server checked the current PIN: its outcome is awaited, so that a
        /// session it opened is known and revoked.
        case cancelling
        /// The server revokes the session the failed change will not use; then the error is reported.
        case revokingTokens(IdentityFlowError)
        /// Done: the PIN is changed. Final.
        case changed
        /// Done: the old PIN still holds (or the profile is gone after lockout). Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server told the counters.
        case pinStatusFetched(PinCounters)
        /// The host entered the current PIN or chose the new one.
        case pinProvided(Redacted<String>)
        /// The server checked the current PIN.
        case pinChecked(PinCheck)
        /// The server enrolled the new PIN.
        case pinEnrolled
        /// The tokens are stored.
        case sessionStored
        /// The deregistered profile is deleted.
        case profileDeleted
        /// The unused session is revoked (or could not be: logged).
        case tokensRevoked
        /// A server call or the storage failed.
        case serviceFailed(IdentityFlowError)
        /// A challenge ended without an answer.
        case challengeAbandoned(ChallengeAbandonment)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// Tell the host the change started.
        case reportStarted
        /// Ask the server for the counters.
        case fetchPinStatus
        /// Hand the host a ``PinChallenge`` for the current PIN.
        case emitPinChallenge(PinCounters, error: IdentityFlowError?)
        /// Prove the current PIN to the server.
        case verifyPin(Redacted<String>)
        /// Hand the host a ``CreatePinChallenge`` for the new PIN.
        case emitCreatePinChallenge(error: IdentityFlowError?)
        /// Derive the new PIN key and enrol it, authorized by the current one.
        case enrolPin(Redacted<String>, tokens: TokenSet, currentKey: ProvenPinKey)
        /// Store the fresh tokens.
        case storeSession(TokenSet)
        /// Delete the profile and its data from the device.
        case deleteProfile
        /// Revoke a session the flow will not use.
        case revokeTokens(TokenSet)
        /// Tell the host the PIN changed.
        case reportSuccess
        /// Tell the host the change failed.
        case reportFailure(IdentityFlowError)
    }

    /// What the machine knows from the start.
    package let context: Context
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - context: The profile and PIN policy.
    ///   - state: The state to start in; ``State/idle`` unless a test starts mid-flow.
    package init(context: Context, state: State = .idle) {
        self.context = context
        self.state = state
    }

    /// Whether the change ended.
    package var isFinished: Bool { state == .changed || state == .failed }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch (state, event) {
        case (.idle, .started):
            return go(.fetchingPinStatus, Effects(.reportStarted, .fetchPinStatus))
        case (.fetchingPinStatus, .pinStatusFetched(let counters)):
            return go(.awaitingCurrentPin(counters), Effects(.emitPinChallenge(counters, error: nil)))
        case (.fetchingPinStatus, .pinChecked(.deregistered)):
            return go(.deletingProfile, guard: "deregistered", Effects(.deleteProfile))
        case (.awaitingCurrentPin(let counters), .pinProvided(let pin)):
            return go(.verifyingCurrentPin(counters), Effects(.verifyPin(pin)))
        case (.verifyingCurrentPin, .pinChecked(let check)):
            return apply(PinEntry.decide(check))
        case (.verifyingCurrentPin(let counters), .serviceFailed(let error)):
            return apply(PinEntry.decide(failure: error, counters: counters))
        case (.awaitingNewPin(let tokens, let key), .pinProvided(let pin)):
            if let violation = context.pinPolicy.violation(of: pin.value) {
                return go(.awaitingNewPin(tokens, currentKey: key), guard: "policyViolated", Effects(.emitCreatePinChallenge(error: violation)))
            }
            return go(.enrollingNewPin(tokens, currentKey: key), guard: "policySatisfied", Effects(.enrolPin(pin, tokens: tokens, currentKey: key)))
        case (.enrollingNewPin(let tokens, _), .pinEnrolled):
            return go(.storingSession(tokens), Effects(.storeSession(tokens)))
        case (.storingSession, .sessionStored):
            return go(.changed, Effects(.reportSuccess))
        case (.deletingProfile, .profileDeleted):
            return go(.failed, Effects(.reportFailure(PinEntry.deregisteredError(context.profile))))
        case (.fetchingPinStatus, .serviceFailed(let error)),
             (.storingSession, .serviceFailed(let error)):
            return go(.failed, Effects(.reportFailure(error)))
        case (.awaitingCurrentPin, .challengeAbandoned(let how)):
            return go(.failed, Effects(.reportFailure(how.error)))
        // Holding the session the current PIN opened: revoke it before failing.
        case (.awaitingNewPin(let tokens, _), .challengeAbandoned(let how)):
            return go(.revokingTokens(how.error), Effects(.revokeTokens(tokens)))
        case (.enrollingNewPin(let tokens, _), .serviceFailed(let error)):
            return go(.revokingTokens(error), Effects(.revokeTokens(tokens)))
        case (.awaitingNewPin(let tokens, _), .cancelRequested), (.enrollingNewPin(let tokens, _), .cancelRequested):
            return go(.revokingTokens(ChallengeAbandonment.flowCancelled), Effects(.revokeTokens(tokens)))
        case (.verifyingCurrentPin, .cancelRequested):
            return go(.cancelling, Effects())
        case (.cancelling, .pinChecked(let check)):
            switch PinEntry.decide(check) {
            case (let name, .accepted(let tokens, _)): return go(.revokingTokens(ChallengeAbandonment.flowCancelled), guard: name, Effects(.revokeTokens(tokens)))
            case (let name, .deregister): return go(.deletingProfile, guard: name, Effects(.deleteProfile))
            case (let name, _): return go(.failed, guard: name, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
            }
        case (.cancelling, .serviceFailed):
            return go(.failed, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
        case (.revokingTokens(let error), .tokensRevoked):
            return go(.failed, Effects(.reportFailure(error)))
        // Too late to cancel once the session is being stored (see PinEntry.endings).
        case (.idle, .cancelRequested), (.storingSession, .cancelRequested), (.deletingProfile, .cancelRequested),
             (.cancelling, .cancelRequested), (.revokingTokens, .cancelRequested), (.changed, _), (.failed, _):
            return nil
        case (_, .cancelRequested):
            return go(.failed, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
        default:
            return nil
        }
    }

    private mutating func apply(_ step: (guardName: String, decision: PinEntry.Decision)) -> Reaction<Effect> {
        switch step.decision {
        case .accepted(let tokens, let key): go(.awaitingNewPin(tokens, currentKey: key), guard: step.guardName, Effects(.emitCreatePinChallenge(error: nil)))
        case .retry(let counters, let error): go(.awaitingCurrentPin(counters), guard: step.guardName, Effects(.emitPinChallenge(counters, error: error)))
        case .deregister: go(.deletingProfile, guard: step.guardName, Effects(.deleteProfile))
        case .fail(let error): go(.failed, guard: step.guardName, Effects(.reportFailure(error)))
        }
    }

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}

extension ChangePinMachine {
    /// Every transition the PIN change machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "ChangePin",
        swiftType: "IdentityFlow.ChangePinMachine",
        initial: "idle",
        finals: ["changed", "failed"],
        transitions: [
            .init(from: "idle", on: "started", to: "fetchingPinStatus"),
            .init(from: "awaitingNewPin", on: "pinProvided", guard: "policySatisfied", to: "enrollingNewPin"),
            .init(from: "awaitingNewPin", on: "pinProvided", guard: "policyViolated", to: "awaitingNewPin"),
            .init(from: "enrollingNewPin", on: "pinEnrolled", to: "storingSession"),
            .init(from: "enrollingNewPin", on: "serviceFailed", to: "revokingTokens"),
            .init(from: "awaitingNewPin", on: "challengeAbandoned", to: "revokingTokens"),
            .init(from: "awaitingNewPin", on: "cancelRequested", to: "revokingTokens"),
            .init(from: "enrollingNewPin", on: "cancelRequested", to: "revokingTokens"),
            .init(from: "storingSession", on: "sessionStored", to: "changed"),
            .init(from: "storingSession", on: "serviceFailed", to: "failed"),
        ]
            + PinEntry.transitions(awaiting: "awaitingCurrentPin", verifying: "verifyingCurrentPin", accepted: "awaitingNewPin")
            + PinEntry.endings(awaiting: ["awaitingCurrentPin"], busy: ["fetchingPinStatus"])
            + PinEntry.cancellingTransitions(verifying: ["verifyingCurrentPin"]))
}
