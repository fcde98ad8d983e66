import Statechart

/// Login as a pure state machine: with the PIN, or with biometrics falling back to the PIN.
///
/// A wrong PIN asks again with updated counters; a network error asks again with the counters
/// untouched; the last allowed wrong PIN deletes the profile. Another user still logged in is
/// logged out first. Its chart is ``AuthenticationMachine/chart``.
package struct AuthenticationMachine: StateMachine {
    /// What the machine knows from the start.
    package struct Context: Sendable, Equatable {
        /// The profile logging in.
        package let profile: UserProfile
        /// `.pin` or `.biometric`.
        package let authenticator: Authenticator
        /// Another profile that is logged in now and must be logged out first.
        package let previousProfile: UserProfile?
        /// Whether the profile is logged in with a valid access token and the client reuses such
        /// a session (``ClientConfiguration/reusesValidSession``): the login then asks nothing.
        package let reusesSession: Bool

        /// Creates a context.
        /// - Parameters:
        ///   - profile: The profile.
        ///   - authenticator: The authenticator.
        ///   - previousProfile: The profile to log out first.
        ///   - reusesSession: Whether the valid session is reused without a challenge.
        package init(profile: UserProfile, authenticator: Authenticator, previousProfile: UserProfile?, reusesSession: Bool = false) {
            self.profile = profile
            self.authenticator = authenticator
            self.previousProfile = previousProfile
            self.reusesSession = reusesSession
        }
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The other logged-in user is being logged out.
        case loggingOutPreviousUser
        /// The host confirms with biometrics.
        case awaitingBiometric
        /// The server checks the proof made with the biometric key.
        case verifyingBiometric
        /// The PIN loop, a child machine: fetch the counters, ask for the PIN, check it (or, after a
        /// lockout, delete the profile; after a cancel during a check, await its outcome).
        case enteringPin(PinEntry.Machine<ProvenPin>)
        /// The device stores the session's tokens.
        case storingSession(TokenSet)
        /// The server revokes a session the cancelled flow will not use.
        case revokingTokens
        /// Done: logged in. Final.
        case authenticated
        /// Done: not logged in. Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The previous user is logged out.
        case previousUserLoggedOut
        /// The host answered the biometric challenge.
        case biometricAnswered(BiometricAnswer)
        /// The server told the counters.
        case pinStatusFetched(PinCounters)
        /// The host entered a PIN.
        case pinProvided(Redacted<String>)
        /// The server checked a proof.
        case pinChecked(PinCheck)
        /// The session is stored.
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
        /// Tell the host the login started.
        case reportStarted
        /// Log the other user out (revoking its tokens, best effort).
        case logOutPreviousUser(UserProfile)
        /// Hand the host a ``BiometricChallenge``.
        case emitBiometricChallenge
        /// Prove the biometric key to the server.
        case verifyBiometricKey
        /// Ask the server for the counters.
        case fetchPinStatus
        /// Hand the host a ``PinChallenge``.
        case emitPinChallenge(PinCounters, error: IdentityFlowError?)
        /// Prove the PIN to the server.
        case verifyPin(Redacted<String>)
        /// Store the tokens and mark the profile authenticated, keeping the PIN key that proved it.
        case storeSession(TokenSet, pinKey: ProvenPinKey)
        /// Delete the profile and its data from the device.
        case deleteProfile
        /// Revoke a session the flow will not use.
        case revokeTokens(TokenSet)
        /// Tell the host the user is logged in.
        case reportSuccess
        /// Tell the host the login failed.
        case reportFailure(IdentityFlowError)
    }

    /// What the machine knows from the start.
    package let context: Context
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - context: Profile, authenticator and the profile to log out first.
    ///   - state: The state to start in; ``State/idle`` unless a test starts mid-flow.
    package init(context: Context, state: State = .idle) {
        self.context = context
        self.state = state
    }

    /// Whether the login ended.
    package var isFinished: Bool { state == .authenticated || state == .failed }

    private var usesBiometrics: Bool { context.authenticator.kind == .biometric }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            if context.reusesSession {
                return go(.authenticated, guard: "validSession", Effects(.reportStarted, .reportSuccess))
            }
            if let previous = context.previousProfile {
                return go(.loggingOutPreviousUser, guard: "otherUserLoggedIn", Effects(.reportStarted, .logOutPreviousUser(previous)))
            }
            return firstStep(guard: usesBiometrics ? "biometric" : "pin", reportingStart: true)
        case .loggingOutPreviousUser:
            switch event {
            case .previousUserLoggedOut: return firstStep(guard: usesBiometrics ? "biometric" : "pin", reportingStart: false)
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .awaitingBiometric:
            switch event {
            case .biometricAnswered(.confirmed): return go(.verifyingBiometric, guard: "confirmed", Effects(.verifyBiometricKey))
            case .biometricAnswered(.pinFallback): return go(.enteringPin(pinEntry()), guard: "pinFallback", Effects(.fetchPinStatus))
            case .biometricAnswered(.failed):
                return go(.enteringPin(pinEntry(.fetchingPinStatus(error: Self.biometricFailure))), guard: "sensorFailed", Effects(.fetchPinStatus))
            case .challengeAbandoned(let how): return go(.failed, Effects(.reportFailure(how.error)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .verifyingBiometric:
            // The biometric key's check, told apart from a PIN check only by what a failure asks:
            // the PIN loop takes over in the state the answer leads to.
            switch event {
            case .pinChecked(.accepted(let tokens, let key)):
                return go(.storingSession(tokens), guard: "accepted", Effects(.storeSession(tokens, pinKey: key)))
            case .pinChecked(.rejected(let counters)):
                return go(
                    .enteringPin(pinEntry(.awaitingPin(counters))), guard: "rejected", Effects(.emitPinChallenge(counters, error: Self.biometricFailure)))
            case .pinChecked(.deregistered): return go(.enteringPin(pinEntry(.deletingProfile)), guard: "deregistered", Effects(.deleteProfile))
            case .serviceFailed: return go(.enteringPin(pinEntry(.fetchingPinStatus(error: Self.biometricFailure))), Effects(.fetchPinStatus))
            case .cancelRequested: return go(.enteringPin(pinEntry(.cancelling)), Effects())
            default: return nil
            }
        case .enteringPin(var pin):
            guard let input = Self.pinInput(event), let (guardName, action) = pin.handle(input) else { return nil }
            return follow(pin, action, guard: guardName)
        case .storingSession:
            // Too late to cancel once the session is being stored (see PinEntry.endings).
            switch event {
            case .sessionStored: return go(.authenticated, Effects(.reportSuccess))
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            default: return nil
            }
        case .revokingTokens:
            guard case .tokensRevoked = event else { return nil }
            return cancelled()
        case .authenticated, .failed:
            return nil
        }
    }

    // MARK: - Helpers

    private static var biometricFailure: IdentityFlowError { IdentityFlowError(.biometricAuthenticatorFailure) }

    /// Fails as cancelled.
    private mutating func cancelled() -> Reaction<Effect> {
        go(.failed, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
    }

    /// Asks for biometrics or fetches the PIN counters, after reporting the start if `reportingStart`.
    private mutating func firstStep(guard guardName: String, reportingStart: Bool) -> Reaction<Effect> {
        let (target, effect): (State, Effect) =
            usesBiometrics
            ? (.awaitingBiometric, .emitBiometricChallenge)
            : (.enteringPin(pinEntry()), .fetchPinStatus)
        return go(target, guard: guardName, reportingStart ? Effects(.reportStarted, effect) : Effects(effect))
    }

    /// The PIN loop for this login's profile, in `state`.
    private func pinEntry(_ state: PinEntry.Machine<ProvenPin>.State = .fetchingPinStatus(error: nil)) -> PinEntry.Machine<ProvenPin> {
        PinEntry.Machine(profile: context.profile, state: state)
    }

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}

extension AuthenticationMachine {
    /// The PIN loop's event that `event` is, or `nil` for the login's other events.
    static func pinInput(_ event: Event) -> PinEntry.Machine<ProvenPin>.Event? {
        switch event {
        case .pinStatusFetched(let counters): .statusFetched(counters)
        case .pinProvided(let pin): .provided(pin)
        case .pinChecked(let check): .checked(PinEntry.verdict(check))
        case .serviceFailed(let error): .serviceFailed(error)
        case .challengeAbandoned(let how): .abandoned(how)
        case .cancelRequested: .cancelRequested
        case .profileDeleted: .profileDeleted
        case .started, .previousUserLoggedOut, .biometricAnswered, .sessionStored, .tokensRevoked: nil
        }
    }

    /// Maps the PIN loop's action to the login's state and effects: the loop runs on in
    /// `enteringPin`; a right PIN stores the session.
    private mutating func follow(_ pin: PinEntry.Machine<ProvenPin>, _ action: PinEntry.Machine<ProvenPin>.Action, guard guardName: String?) -> Reaction<Effect>
    {
        switch action {
        case .ask(let counters, let error): go(.enteringPin(pin), guard: guardName, Effects(.emitPinChallenge(counters, error: error)))
        case .verify(let secret): go(.enteringPin(pin), guard: guardName, Effects(.verifyPin(secret)))
        case .deleteProfile: go(.enteringPin(pin), guard: guardName, Effects(.deleteProfile))
        case .awaitCheck: go(.enteringPin(pin), guard: guardName, Effects())
        case .accepted(let proof): go(.storingSession(proof.tokens), guard: guardName, Effects(.storeSession(proof.tokens, pinKey: proof.key)))
        case .acceptedAfterCancel(let proof): go(.revokingTokens, guard: guardName, Effects(.revokeTokens(proof.tokens)))
        case .fail(let error): go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
    }
}
