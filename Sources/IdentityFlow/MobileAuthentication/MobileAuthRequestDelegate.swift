/// Receives the callbacks of handling a mobile authentication request:
/// ``MobileAuthConfirmationChallenge`` → (for a stepped-up acceptance) ``BiometricChallenge`` /
/// ``PinChallenge``* → exactly one of ``userClient(_:didHandle:)`` /
/// ``userClient(_:didFailToHandle:error:)``.
///
/// - Important: Retained until the terminal callback. Callbacks arrive in order on the actor
///   that started the flow: a `@MainActor` screen conforms with an isolated conformance
///   (`extension Screen: @MainActor MobileAuthRequestDelegate`) and gets them on the main actor, with no
///   `nonisolated` and no `MainActor.assumeIsolated`. Started from nonisolated code (a test, a
///   server), they arrive on ``ClientConfiguration/callbackExecutor``.
public protocol MobileAuthRequestDelegate {
    /// Show the request's message; accept or deny it.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveConfirmationChallenge challenge: MobileAuthConfirmationChallenge)
    /// Enter the PIN to step the acceptance up; a wrong one counts as at login, lockout included.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge)
    /// Confirm with biometrics to step the acceptance up. Optional: by default the PIN is asked instead.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge)
    /// The request was answered: accepted or denied (``MobileAuthResult/accepted``). Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - result: The request, the decision and the step-up authenticator.
    func userClient(_ client: UserClient, didHandle result: MobileAuthResult)
    /// The request was not answered, or the server refused the answer. Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - source: Where the request came from.
    ///   - error: Why: ``ErrorCode/mobileAuthRequestExpired``, ``ErrorCode/mobileAuthRequestNotFound``,
    ///     ``ErrorCode/userDeregistered`` after the last wrong PIN, ``ErrorCode/actionCancelled``, ...
    func userClient(_ client: UserClient, didFailToHandle source: MobileAuthSource, error: IdentityFlowError)
}

extension MobileAuthRequestDelegate {
    /// Falls back to the PIN.
    public func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) {
        challenge.sender.respondWithPinFallback(to: challenge)
    }
}
