import Statechart

/// Registering biometrics for a profile as a pure state machine: the PIN is checked by the
/// server (counted like a login), and the key it derives is stored for biometric logins.
/// Its chart is ``AuthenticatorRegistrationMachine/chart``.
package struct AuthenticatorRegistrationMachine: StateMachine {
    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The PIN loop, a child machine: fetch the counters, ask for the PIN, check it (or, after a
        /// lockout, delete the profile; after a cancel during a check, await its outcome, so that a
        /// session it opened is known and revoked).
        case enteringPin(PinEntry.Machine<ProvenPin>)
        /// The device stores the key and the fresh tokens.
        case storingAuthenticator
        /// The server revokes the session the cancelled flow will not use.
        case revokingTokens
        /// Done: biometrics are registered. Final.
        case registered
        /// Done: nothing changed (or the profile is gone after lockout). Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server told the counters.
        case pinStatusFetched(PinCounters)
        /// The host entered the PIN.
        case pinProvided(Redacted<String>)
        /// The server checked the PIN.
        case pinChecked(PinCheck)
        /// The key is stored.
        case authenticatorStored
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
        /// Tell the host the registration started.
        case reportStarted
        /// Ask the server for the counters.
        case fetchPinStatus
        /// Hand the host a ``PinChallenge``.
        case emitPinChallenge(PinCounters, error: IdentityFlowError?)
        /// Prove the PIN to the server.
        case verifyPin(Redacted<String>)
        /// Create the biometric key, register it under the PIN key's proof and store it; then the fresh tokens.
        case storeAuthenticator(pinKey: ProvenPinKey, tokens: TokenSet)
        /// Delete the profile and its data from the device.
        case deleteProfile
        /// Revoke a session the flow will not use.
        case revokeTokens(TokenSet)
        /// Tell the host biometrics are registered.
        case reportSuccess
        /// Tell the host the registration failed.
        case reportFailure(IdentityFlowError)
    }

    /// The profile biometrics are registered for.
    package let profile: UserProfile
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - state: The state to start in; ``State/idle`` unless a test starts mid-flow.
    package init(profile: UserProfile, state: State = .idle) {
        self.profile = profile
        self.state = state
    }

    /// Whether the registration ended.
    package var isFinished: Bool { state == .registered || state == .failed }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            return go(.enteringPin(PinEntry.Machine(profile: profile)), Effects(.reportStarted, .fetchPinStatus))
        case .enteringPin(var pin):
            guard let input = Self.pinInput(event), let (guardName, action) = pin.handle(input) else { return nil }
            return follow(pin, action, guard: guardName)
        case .storingAuthenticator:
            // Too late to cancel once the key and session are being stored (see PinEntry.endings).
            switch event {
            case .authenticatorStored: return go(.registered, Effects(.reportSuccess))
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            default: return nil
            }
        case .revokingTokens:
            guard case .tokensRevoked = event else { return nil }
            return go(.failed, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
        case .registered, .failed:
            return nil
        }
    }

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}

extension AuthenticatorRegistrationMachine {
    /// The PIN loop's event that `event` is, or `nil` for the registration's other events.
    static func pinInput(_ event: Event) -> PinEntry.Machine<ProvenPin>.Event? {
        switch event {
        case .pinStatusFetched(let counters): .statusFetched(counters)
        case .pinProvided(let pin): .provided(pin)
        case .pinChecked(let check): .checked(PinEntry.verdict(check))
        case .serviceFailed(let error): .serviceFailed(error)
        case .challengeAbandoned(let how): .abandoned(how)
        case .cancelRequested: .cancelRequested
        case .profileDeleted: .profileDeleted
        case .started, .authenticatorStored, .tokensRevoked: nil
        }
    }

    /// Maps the PIN loop's action to the registration's state and effects: the loop runs on in
    /// `enteringPin`; a right PIN stores the biometric key with the session.
    private mutating func follow(_ pin: PinEntry.Machine<ProvenPin>, _ action: PinEntry.Machine<ProvenPin>.Action, guard guardName: String?) -> Reaction<Effect>
    {
        switch action {
        case .ask(let counters, let error): go(.enteringPin(pin), guard: guardName, Effects(.emitPinChallenge(counters, error: error)))
        case .verify(let secret): go(.enteringPin(pin), guard: guardName, Effects(.verifyPin(secret)))
        case .deleteProfile: go(.enteringPin(pin), guard: guardName, Effects(.deleteProfile))
        case .awaitCheck: go(.enteringPin(pin), guard: guardName, Effects())
        case .accepted(let proof): go(.storingAuthenticator, guard: guardName, Effects(.storeAuthenticator(pinKey: proof.key, tokens: proof.tokens)))
        case .acceptedAfterCancel(let proof): go(.revokingTokens, guard: guardName, Effects(.revokeTokens(proof.tokens)))
        case .fail(let error): go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
    }
}
