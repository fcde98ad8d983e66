/// Any challenge a flow can hand the host, for the async API and test kits that answer every
/// kind in one place.
public enum Challenge: Sendable, CustomStringConvertible {
    /// Open a URL in a browser and hand back the redirect.
    case browserRegistration(BrowserRegistrationChallenge)
    /// Give custom registration data (init or finish step: see ``CustomRegistrationChallenge/step``).
    case customRegistration(CustomRegistrationChallenge)
    /// Choose a new PIN.
    case createPin(CreatePinChallenge)
    /// Enter the PIN.
    case pin(PinChallenge)
    /// Confirm with biometrics, or fall back to the PIN.
    case biometric(BiometricChallenge)
    /// Accept or deny a mobile authentication request.
    case mobileAuthConfirmation(MobileAuthConfirmationChallenge)
    /// Give the registration attributes the provider still needs (partial registration).
    case partialRegistration(PartialRegistrationChallenge)
    /// Give a login and password (native login).
    case credentials(CredentialsChallenge)
    /// Open the provider's logout page and hand back the redirect (provider logout).
    case providerLogout(ProviderLogoutChallenge)

    /// The challenge's own description (no secrets).
    public var description: String {
        switch self {
        case .browserRegistration(let challenge): challenge.description
        case .customRegistration(let challenge): challenge.description
        case .createPin(let challenge): challenge.description
        case .pin(let challenge): challenge.description
        case .biometric(let challenge): challenge.description
        case .mobileAuthConfirmation(let challenge): challenge.description
        case .partialRegistration(let challenge): challenge.description
        case .credentials(let challenge): challenge.description
        case .providerLogout(let challenge): challenge.description
        }
    }

    /// The error the challenge carries: why the previous answer failed.
    public var error: IdentityFlowError? {
        switch self {
        case .browserRegistration(let challenge): challenge.error
        case .customRegistration(let challenge): challenge.error
        case .createPin(let challenge): challenge.error
        case .pin(let challenge): challenge.error
        case .partialRegistration(let challenge): challenge.error
        case .credentials(let challenge): challenge.error
        case .biometric, .mobileAuthConfirmation, .providerLogout: nil
        }
    }

    /// Cancels the challenge through its sender.
    /// - Returns: `false` when it was already answered, is stale, or its flow ended.
    @discardableResult
    public func cancel() -> Bool {
        switch self {
        case .browserRegistration(let challenge): challenge.sender.cancel(challenge)
        case .customRegistration(let challenge): challenge.sender.cancel(challenge)
        case .createPin(let challenge): challenge.sender.cancel(challenge)
        case .pin(let challenge): challenge.sender.cancel(challenge)
        case .biometric(let challenge): challenge.sender.cancel(challenge)
        case .mobileAuthConfirmation(let challenge): challenge.sender.cancel(challenge)
        case .partialRegistration(let challenge): challenge.sender.cancel(challenge)
        case .credentials(let challenge): challenge.sender.cancel(challenge)
        case .providerLogout(let challenge): challenge.sender.cancel(challenge)
        }
    }
}

extension Challenge {
    /// Cancels the challenge with a reason that the flow's error carries ("The host cancelled the
    /// challenge: <reason>"): the test kit's `ScriptedResponder` passes what went against its
    /// script. A challenge built with a sender of its own is cancelled through that sender.
    /// - Parameter reason: Why, one sentence with no secret in it.
    /// - Returns: `false` when it was already answered, is stale, or its flow ended.
    @discardableResult
    package func cancel(because reason: String) -> Bool {
        guard let ticket = releaseObserver else { return cancel() }
        return ticket.challengeCancelled(because: reason)
    }

    private var releaseObserver: (any ChallengeReleaseObserver)? {
        switch self {
        case .browserRegistration(let challenge): challenge.releaseObserver
        case .customRegistration(let challenge): challenge.releaseObserver
        case .createPin(let challenge): challenge.releaseObserver
        case .pin(let challenge): challenge.releaseObserver
        case .biometric(let challenge): challenge.releaseObserver
        case .mobileAuthConfirmation(let challenge): challenge.releaseObserver
        case .partialRegistration(let challenge): challenge.releaseObserver
        case .credentials(let challenge): challenge.releaseObserver
        case .providerLogout(let challenge): challenge.releaseObserver
        }
    }
}

/// Answers challenges for the async API: each challenge a flow emits is passed to ``receive(_:)``.
///
/// Answer through the challenge's sender, at once or later (after the user typed a PIN, say).
/// Returning without answering is fine as long as a reference is kept until the answer is given:
/// a challenge released unanswered ends the flow with ``ErrorCode/actionCancelled``.
///
/// ``receive(_:)`` is `nonisolated(nonsending)`: it starts inside the flow step that emitted the
/// challenge, in a task of its own, and runs there until it first suspends. An answer given before
/// that is taken by the same step, with no task switch; a responder isolated to an actor (say
/// `@MainActor`) hops there first, as any call would. Keep slow synchronous work out of it.
public protocol ChallengeResponder: Sendable {
    /// Receives a challenge.
    /// - Parameter challenge: The challenge.
    nonisolated(nonsending) func receive(_ challenge: Challenge) async
}

/// A responder that is also told the flow's terminal outcome (the test kit's `ScriptedResponder`
/// records it), right before the awaiting call returns it.
package protocol FlowOutcomeObserver: ChallengeResponder {
    /// The outcome: a `RegistrationResult`, an `AuthenticationResult`, the `UserProfile` whose PIN
    /// changed, a ``RegisteredAuthenticator``, or the error.
    func flowEnded(_ outcome: Result<any Sendable, IdentityFlowError>)
}

/// A ``ChallengeResponder`` made from a closure.
public struct ClosureResponder: ChallengeResponder {
    private let body: nonisolated(nonsending) @Sendable (Challenge) async -> Void

    /// Wraps a closure.
    /// - Parameter body: Called with each challenge.
    public init(_ body: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void) { self.body = body }

    /// Passes the challenge to the closure.
    public nonisolated(nonsending) func receive(_ challenge: Challenge) async { await body(challenge) }
}
