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
        /// The server tells the PIN counters; the error is shown on the first PIN challenge.
        case fetchingPinStatus(PendingError)
        /// The user enters the PIN.
        case awaitingPin(PinCounters)
        /// The server checks the acceptance stepped up with the PIN key.
        case verifyingPin(PinCounters)
        /// The device deletes the profile the server deregistered.
        case deletingProfile
        /// Done: accepted. Final.
        case accepted
        /// Done: denied. Final.
        case denied
        /// Done: not answered, or the server refused. Final.
        case failed
    }

    /// An error waiting to be shown on the first PIN challenge (after a biometric failure).
    package struct PendingError: Sendable, Equatable {
        /// The error, or `nil`.
        package let error: IdentityFlowError?
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
            case .answerChecked(.deregistered): return go(.deletingProfile, guard: "deregistered", Effects(.deleteProfile))
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
                    return go(.fetchingPinStatus(PendingError(error: nil)), guard: "pin", Effects(.fetchPinStatus))
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
                case .pinFallback: return go(.fetchingPinStatus(PendingError(error: nil)), guard: "pinFallback", Effects(.fetchPinStatus))
                case .failed: return go(.fetchingPinStatus(PendingError(error: Self.biometricFailure)), guard: "sensorFailed", Effects(.fetchPinStatus))
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
                    return go(.awaitingPin(counters), guard: "rejected", Effects(.emitPinChallenge(request, counters, error: Self.biometricFailure)))
                case .deregistered: return go(.deletingProfile, guard: "deregistered", Effects(.deleteProfile))
                }
            case .serviceFailed(let error):
                if PinEntry.isRecoverable(error) {
                    return go(.fetchingPinStatus(PendingError(error: Self.biometricFailure)), guard: "recoverable", Effects(.fetchPinStatus))
                }
                return go(.failed, guard: "unrecoverable", Effects(.reportFailure(error)))
            default: return nil
            }
        case .fetchingPinStatus(let pending):
            switch event {
            case .pinStatusFetched(let counters):
                guard let request else { return nil }
                return go(.awaitingPin(counters), Effects(.emitPinChallenge(request, counters, error: pending.error)))
            case .answerChecked(.deregistered): return go(.deletingProfile, guard: "deregistered", Effects(.deleteProfile))
            case .serviceFailed(let error): return go(.failed, Effects(.reportFailure(error)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .awaitingPin(let counters):
            switch event {
            case .pinProvided(let pin):
                guard let request else { return nil }
                return go(.verifyingPin(counters), Effects(.sendPinAnswer(request, pin)))
            case .requestExpired: return go(.failed, Effects(.reportFailure(Self.expired)))
            case .challengeAbandoned(let how): return go(.failed, Effects(.reportFailure(how.error)))
            case .cancelRequested: return cancelled()
            default: return nil
            }
        case .verifyingPin(let counters):
            switch event {
            case .answerChecked(let verdict):
                guard let request else { return nil }
                switch verdict {
                case .handled:
                    return go(.accepted, guard: "handled", Effects(.reportHandled(MobileAuthResult(request: request, accepted: true, authenticator: .pin))))
                case .rejected(let failures, let maximum):
                    let counters = PinCounters(maxFailureCount: maximum, previousFailureCount: failures)
                    let error = IdentityFlowError(.invalidPin, "The PIN is wrong; \(counters.remainingFailureCount) attempt(s) left.")
                    return go(.awaitingPin(counters), guard: "rejected", Effects(.emitPinChallenge(request, counters, error: error)))
                case .deregistered: return go(.deletingProfile, guard: "deregistered", Effects(.deleteProfile))
                }
            case .serviceFailed(let error):
                if PinEntry.isRecoverable(error), let request {
                    return go(.awaitingPin(counters), guard: "recoverable", Effects(.emitPinChallenge(request, counters, error: error)))
                }
                return go(.failed, guard: "unrecoverable", Effects(.reportFailure(error)))
            default: return nil
            }
        case .deletingProfile:
            guard case .profileDeleted = event else { return nil }
            return go(.failed, Effects(.reportFailure(PinEntry.deregisteredError(context.profile))))
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

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }
}
