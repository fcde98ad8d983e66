import Statechart

/// Handling a mobile authentication request as a pure state machine: fetch it (unless the host
/// has it), ask the user to accept or deny, step an acceptance up with biometrics or the PIN as
/// the request demands, and send the signed answer.
///
/// A wrong step-up PIN asks again with updated counters (the server counts it as at login); the
/// last allowed one deletes the profile. A request that expires while a challenge waits ends the
/// flow with ``ErrorCode/mobileAuthRequestExpired``. Its chart is ``MobileAuthMachine/chart``.
package struct MobileAuthMachine: StateMachine {
    /// What the machine knows from the start.
    package struct Context: Sendable, Equatable {
        /// The profile the request is for.
        package let profile: UserProfile
        /// The request, when the host handed it over; `nil` when it must be fetched.
        package let request: MobileAuthRequest?
        /// Whether the profile has biometrics registered on this device.
        package let hasBiometrics: Bool

        /// Creates a context.
        /// - Parameters:
        ///   - profile: The profile.
        ///   - request: The request, or `nil` to fetch it.
        ///   - hasBiometrics: Whether biometrics are registered.
        package init(profile: UserProfile, request: MobileAuthRequest?, hasBiometrics: Bool) {
            self.profile = profile
            self.request = request
            self.hasBiometrics = hasBiometrics
        }
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The server looks the request up.
        case fetchingRequest
        /// The user accepts or denies.
        case awaitingConfirmation
        /// The server takes a denial or a plain acceptance.
        case sendingAnswer(accepted: Bool)
        /// The user confirms with biometrics.
        case awaitingBiometric
        /// The server checks the acceptance stepped up with the biometric key.
        case verifyingBiometric
        /// The PIN loop, the child machine login shares (``PinEntry/Machine``): fetch the counters,
        /// ask for the PIN, send the acceptance stepped up with the PIN key (past cancelling), and
        /// delete the profile the server deregistered (also after the request's lookup).
        case enteringPin(PinEntry.Machine<MobileAuthRequest>)
        /// Done: accepted. Final.
        case accepted
        /// Done: denied. Final.
        case denied
        /// Done: not answered, or the server refused. Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server returned the request.
        case requestFetched(MobileAuthRequest)
        /// The user accepted (`true`) or denied.
        case confirmationAnswered(Bool)
        /// The host answered the biometric challenge.
        case biometricAnswered(BiometricAnswer)
        /// The server told the PIN counters.
        case pinStatusFetched(PinCounters)
        /// The user entered a PIN.
        case pinProvided(Redacted<String>)
        /// The server judged the answer.
        case answerChecked(MobileAuthVerdict)
        /// The deregistered profile is deleted.
        case profileDeleted
        /// The request expired while a challenge waited (or before it was fetched).
        case requestExpired
        /// A server call or the storage failed.
        case serviceFailed(IdentityFlowError)
        /// A challenge ended without an answer.
        case challengeAbandoned(ChallengeAbandonment)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// Look the request up on the server.
        case fetchRequest
        /// Hand the host a ``MobileAuthConfirmationChallenge``.
        case emitConfirmationChallenge(MobileAuthRequest)
        /// Send a denial or a plain acceptance.
        case sendAnswer(MobileAuthRequest, accepted: Bool)
        /// Hand the host a ``BiometricChallenge`` for the request.
        case emitBiometricChallenge(MobileAuthRequest)
        /// Send the acceptance with the biometric key's proof.
        case sendBiometricAnswer(MobileAuthRequest)
        /// Ask the server for the PIN counters.
        case fetchPinStatus
        /// Hand the host a ``PinChallenge`` for the request.
        case emitPinChallenge(MobileAuthRequest, PinCounters, error: IdentityFlowError?)
        /// Send the acceptance with the PIN key's proof.
        case sendPinAnswer(MobileAuthRequest, Redacted<String>)
        /// Delete the profile and its data from the device.
        case deleteProfile
        /// Tell the host the request was answered: accepted (with its step-up) or denied.
        case reportHandled(MobileAuthResult)
        /// Tell the host handling the request failed.
        case reportFailure(IdentityFlowError)
    }

    /// What the machine knows from the start.
    package let context: Context
    /// The request, once known.
    package private(set) var request: MobileAuthRequest?
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - context: The profile, the request if known, and whether biometrics are registered.
    ///   - state: The state to start in; ``State/idle`` unless a test starts mid-flow.
    package init(context: Context, state: State = .idle) {
        self.context = context
        self.request = context.request
        self.state = state
    }

    /// Whether handling ended.
    package var isFinished: Bool { state == .accepted || state == .denied || state == .failed }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        // An answer on its way to the server is past cancelling (the flow committed), and an
        // expiry then is the server's to report: `sendingAnswer`, `verifyingBiometric` and
        // `verifyingPin` take neither.
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            guard let request else { return go(.fetchingRequest, guard: "fetch", Effects(.fetchRequest)) }
            return go(.awaitingConfirmation, guard: "requestKnown", Effects(.emitConfirmationChallenge(request)))
        case .fetchingRequest:
            switch event {
            case .requestFetched(let fetched):
                request = fetched
                return go(.awaitingConfirmation, Effects(.emitConfirmationChallenge(fetched)))
            case .answerChecked(.deregistered): return go(.enteringPin(pinEntry(.deletingProfile)), guard: "deregistered", Effects(.deleteProfile))
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            case .requestExpired: return go(.failed, Effects(.reportFailure(Self.expired)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .awaitingConfirmation:
            switch event {
            case .confirmationAnswered(let accepted):
                guard let request else { return nil }
                guard accepted else { return go(.sendingAnswer(accepted: false), guard: "denied", Effects(.sendAnswer(request, accepted: false))) }
                switch request.type {
                case .confirmation:
                    return go(.sendingAnswer(accepted: true), guard: "confirmation", Effects(.sendAnswer(request, accepted: true)))
                case .biometric where context.hasBiometrics:
                    return go(.awaitingBiometric, guard: "biometric", Effects(.emitBiometricChallenge(request)))
                case .pin, .biometric:
                    return go(.enteringPin(pinEntry()), guard: "pin", Effects(.fetchPinStatus))
                }
            case .requestExpired: return go(.failed, Effects(.reportFailure(Self.expired)))
            case .challengeAbandoned(let how): return go(.failed, Effects(.reportFailure(how.error)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .sendingAnswer(let accepted):
            switch event {
            case .answerChecked(.handled):
                guard let request else { return nil }
                let result = Effects(Effect.reportHandled(MobileAuthResult(request: request, accepted: accepted, authenticator: nil)))
                return accepted ? go(.accepted, guard: "accepted", result) : go(.denied, guard: "denied", result)
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            default: return nil
            }
        case .awaitingBiometric:
            switch event {
            case .biometricAnswered(let answer):
                guard let request else { return nil }
                switch answer {
                case .confirmed: return go(.verifyingBiometric, guard: "confirmed", Effects(.sendBiometricAnswer(request)))
                case .pinFallback: return go(.enteringPin(pinEntry()), guard: "pinFallback", Effects(.fetchPinStatus))
                case .failed:
                    return go(.enteringPin(pinEntry(.fetchingPinStatus(error: Self.biometricFailure))), guard: "sensorFailed", Effects(.fetchPinStatus))
                }
            case .requestExpired: return go(.failed, Effects(.reportFailure(Self.expired)))
            case .challengeAbandoned(let how): return go(.failed, Effects(.reportFailure(how.error)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .verifyingBiometric:
            switch event {
            case .answerChecked(let verdict):
                guard let request else { return nil }
                switch verdict {
                case .handled:
                    return go(
                        .accepted, guard: "handled", Effects(.reportHandled(MobileAuthResult(request: request, accepted: true, authenticator: .biometric))))
                case .rejected(let failures, let maximum):
                    let counters = PinCounters(maxFailureCount: maximum, previousFailureCount: failures)
                    return go(
                        .enteringPin(pinEntry(.awaitingPin(counters))), guard: "rejected",
                        Effects(.emitPinChallenge(request, counters, error: Self.biometricFailure)))
                case .deregistered: return go(.enteringPin(pinEntry(.deletingProfile)), guard: "deregistered", Effects(.deleteProfile))
                }
            case .serviceFailed(let error):
                if PinEntry.isRecoverable(error) {
                    return go(.enteringPin(pinEntry(.fetchingPinStatus(error: Self.biometricFailure))), guard: "recoverable", Effects(.fetchPinStatus))
                }
                return go(.failed, guard: "unrecoverable", Effects(.reportFailure(error)))
            default: return nil
            }
        case .enteringPin(var pin):
            // A challenge still waiting when the request expires fails; an answer on its way is
            // the server's to judge. The rest is the PIN loop's.
            if case .requestExpired = event {
                guard case .awaitingPin = pin.state else { return nil }
                return go(.failed, Effects(.reportFailure(Self.expired)))
            }
            guard let input = pinInput(event), let (guardName, action) = pin.handle(input) else { return nil }
            return follow(pin, action, guard: guardName)
        case .accepted, .denied, .failed:
            return nil
        }
    }

    // MARK: - Helpers

    /// Fails as cancelled.
    private mutating func cancelled() -> Reaction<Effect> {
        go(.failed, Effects(.reportFailure(ChallengeAbandonment.flowCancelled)))
    }

    private static var biometricFailure: IdentityFlowError { IdentityFlowError(.biometricAuthenticatorFailure) }

    private static var expired: IdentityFlowError {
        IdentityFlowError(.mobileAuthRequestExpired, "The request expired before it was answered; nothing was confirmed.")
    }

    /// The PIN loop for this request's profile, in `state`; a check is past cancelling.
    private func pinEntry(_ state: PinEntry.Machine<MobileAuthRequest>.State = .fetchingPinStatus(error: nil)) -> PinEntry.Machine<MobileAuthRequest> {
        PinEntry.Machine(profile: context.profile, cancelsDuringCheck: false, state: state)
    }

    /// The PIN loop's event that `event` is (the server's verdict on the PIN-stepped acceptance as
    /// the loop's), or `nil` for the flow's other events.
    private func pinInput(_ event: Event) -> PinEntry.Machine<MobileAuthRequest>.Event? {
        switch event {
        case .pinStatusFetched(let counters): return .statusFetched(counters)
        case .pinProvided(let pin): return .provided(pin)
        case .answerChecked(.handled):
            guard let request else { return nil }
            return .checked(.accepted(request))
        case .answerChecked(.rejected(let failures, let maximum)):
            return .checked(.rejected(PinCounters(maxFailureCount: maximum, previousFailureCount: failures)))
        case .answerChecked(.deregistered): return .checked(.deregistered)
        case .serviceFailed(let error): return .serviceFailed(error)
        case .challengeAbandoned(let how): return .abandoned(how)
        case .cancelRequested: return .cancelRequested
        case .profileDeleted: return .profileDeleted
        case .started, .requestFetched, .confirmationAnswered, .biometricAnswered, .requestExpired: return nil
        }
    }

    /// Maps the PIN loop's action to the flow's state and effects: the loop runs on in
    /// `enteringPin`; a handled acceptance is reported as accepted with the PIN.
    private mutating func follow(
        _ pin: PinEntry.Machine<MobileAuthRequest>, _ action: PinEntry.Machine<MobileAuthRequest>.Action, guard guardName: String?
    ) -> Reaction<Effect>? {
        switch action {
        case .ask(let counters, let error):
            guard let request else { return nil }
            return go(.enteringPin(pin), guard: guardName, Effects(.emitPinChallenge(request, counters, error: error)))
        case .verify(let secret):
            guard let request else { return nil }
            return go(.enteringPin(pin), guard: guardName, Effects(.sendPinAnswer(request, secret)))
        case .deleteProfile: return go(.enteringPin(pin), guard: guardName, Effects(.deleteProfile))
        case .awaitCheck: return go(.enteringPin(pin), guard: guardName, Effects())
        case .accepted(let request):
            return go(.accepted, guard: "handled", Effects(.reportHandled(MobileAuthResult(request: request, accepted: true, authenticator: .pin))))
        case .acceptedAfterCancel: return cancelled()
        case .fail(let error): return go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
    }

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}
