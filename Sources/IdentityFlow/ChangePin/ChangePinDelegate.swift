/// Receives a PIN change's callbacks: `didStart` → ``PinChallenge`` (current PIN)* →
/// ``CreatePinChallenge`` (new PIN)* → exactly one of ``userClient(_:didChangePinFor:)`` /
/// ``userClient(_:didFailToChangePinFor:error:)``.
///
/// - Important: Retained until the terminal callback. Callbacks arrive in order on the actor
///   that started the flow: a `@MainActor` screen conforms with an isolated conformance
///   (`extension Screen: @MainActor ChangePinDelegate`) and gets them on the main actor, with no
///   `nonisolated` and no `MainActor.assumeIsolated`. Started from nonisolated code (a test, a
///   server), they arrive on ``ClientConfiguration/callbackExecutor``.
public protocol ChangePinDelegate {
    /// The change started.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The authenticated profile.
    func userClient(_ client: UserClient, didStartPinChangeFor profile: UserProfile)
    /// Enter the current PIN. A wrong one counts as at login, lockout included.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge)
    /// Choose the new PIN; comes back while it breaks the policy.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge)
    /// The PIN changed. Terminal: called at most once per flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile.
    func userClient(_ client: UserClient, didChangePinFor profile: UserProfile)
    /// The change failed; the old PIN still holds unless the profile was deregistered. Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile, if one was authenticated.
    ///   - error: Why: ``ErrorCode/userNotAuthenticated`` without a logged-in user.
    func userClient(_ client: UserClient, didFailToChangePinFor profile: UserProfile?, error: IdentityFlowError)
}

extension ChangePinDelegate {
    /// Does nothing.
    public func userClient(_ client: UserClient, didStartPinChangeFor profile: UserProfile) {}
}
