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
        /// The PIN loop for the current PIN, a child machine: fetch the counters, ask for the PIN,
        /// check it (or, after a lockout, delete the profile; after a cancel during a check, await
        /// its outcome, so that a session it opened is known and revoked).
        case enteringCurrentPin(PinEntry.Machine<ProvenPin>)
        /// The host chooses the new PIN.
        case awaitingNewPin(TokenSet, currentKey: ProvenPinKey)
        /// The server enrols the new PIN's public key. A cancel is no longer taken: the server may
        /// hold the new PIN already, so the flow waits for its answer and reports what it says
        /// (the change done, or failed with the old PIN still in force).
        case enrollingNewPin(TokenSet, currentKey: ProvenPinKey)
        /// The device stores the fresh tokens.
        case storingSession(TokenSet)
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
        /// The server enrolled the new PIN; its key, for the session.
        case pinEnrolled(ProvenPinKey)
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
        /// Store the fresh tokens and the new PIN key of the session.
        case storeSession(TokenSet, pinKey: ProvenPinKey)
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
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            return go(.enteringCurrentPin(PinEntry.Machine(profile: context.profile)), Effects(.reportStarted, .fetchPinStatus))
        case .enteringCurrentPin(var pin):
            guard let input = Self.pinInput(event), let (guardName, action) = pin.handle(input) else { return nil }
            return follow(pin, action, guard: guardName)
        // Holding the session the current PIN opened: revoke it before failing.
        case .awaitingNewPin(let tokens, let key):
            switch event {
            case .pinProvided(let pin):
                if let violation = context.pinPolicy.violation(of: pin.value) {
                    return go(.awaitingNewPin(tokens, currentKey: key), guard: "policyViolated", Effects(.emitCreatePinChallenge(error: violation)))
                }
                return go(.enrollingNewPin(tokens, currentKey: key), guard: "policySatisfied", Effects(.enrolPin(pin, tokens: tokens, currentKey: key)))
            case .challengeAbandoned(let how): return go(.revokingTokens(how.error), Effects(.revokeTokens(tokens)))
            case .cancelRequested: return go(.revokingTokens(ChallengeAbandonment.flowCancelled), Effects(.revokeTokens(tokens)))
            default: return nil
            }
        case .enrollingNewPin(let tokens, _):
            switch event {
            case .pinEnrolled(let newKey): return go(.storingSession(tokens), Effects(.storeSession(tokens, pinKey: newKey)))
            case .serviceFailed(let error): return go(.revokingTokens(error), Effects(.revokeTokens(tokens)))
            // Too late to cancel once the new PIN is on its way: a cancel that turned a change the
            // server accepted into a failure would leave the user typing the old PIN into lockout.
            default: return nil
            }
        case .storingSession:
            // Too late to cancel once the session is being stored (see PinEntry.endings).
            switch event {
            case .sessionStored: return go(.changed, Effects(.reportSuccess))
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            default: return nil
            }
        case .revokingTokens(let error):
            guard case .tokensRevoked = event else { return nil }
            return go(.failed, Effects(.reportFailure(error)))
        case .changed, .failed:
            return nil
        }
    }

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}

extension ChangePinMachine {
    /// The PIN loop's event that `event` is, or `nil` for the PIN change's other events.
    static func pinInput(_ event: Event) -> PinEntry.Machine<ProvenPin>.Event? {
        switch event {
        case .pinStatusFetched(let counters): .statusFetched(counters)
        case .pinProvided(let pin): .provided(pin)
        case .pinChecked(let check): .checked(PinEntry.verdict(check))
        case .serviceFailed(let error): .serviceFailed(error)
        case .challengeAbandoned(let how): .abandoned(how)
        case .cancelRequested: .cancelRequested
        case .profileDeleted: .profileDeleted
        case .started, .pinEnrolled, .sessionStored, .tokensRevoked: nil
        }
    }

    /// Maps the PIN loop's action to the PIN change's state and effects: the loop runs on in
    /// `enteringCurrentPin`; a right current PIN asks for the new one.
    private mutating func follow(_ pin: PinEntry.Machine<ProvenPin>, _ action: PinEntry.Machine<ProvenPin>.Action, guard guardName: String?) -> Reaction<Effect>
    {
        switch action {
        case .ask(let counters, let error): go(.enteringCurrentPin(pin), guard: guardName, Effects(.emitPinChallenge(counters, error: error)))
        case .verify(let secret): go(.enteringCurrentPin(pin), guard: guardName, Effects(.verifyPin(secret)))
        case .deleteProfile: go(.enteringCurrentPin(pin), guard: guardName, Effects(.deleteProfile))
        case .awaitCheck: go(.enteringCurrentPin(pin), guard: guardName, Effects())
        case .accepted(let proof):
            go(.awaitingNewPin(proof.tokens, currentKey: proof.key), guard: guardName, Effects(.emitCreatePinChallenge(error: nil)))
        case .acceptedAfterCancel(let proof):
            go(.revokingTokens(ChallengeAbandonment.flowCancelled), guard: guardName, Effects(.revokeTokens(proof.tokens)))
        case .fail(let error): go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
    }
}
