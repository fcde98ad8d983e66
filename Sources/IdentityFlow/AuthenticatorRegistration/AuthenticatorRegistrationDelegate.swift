/// Receives the callbacks of registering biometrics: `didStart` → ``PinChallenge``* → exactly
/// one of ``userClient(_:didRegister:for:)`` / ``userClient(_:didFailToRegister:for:error:)``.
///
/// - Important: Retained until the terminal callback. Callbacks arrive in order on the actor
///   that started the flow: a `@MainActor` screen conforms with an isolated conformance
///   (`extension Screen: @MainActor AuthenticatorRegistrationDelegate`) and gets them on the main actor, with no
///   `nonisolated` and no `MainActor.assumeIsolated`. Started from nonisolated code (a test, a
///   server), they arrive on ``ClientConfiguration/callbackExecutor``.
public protocol AuthenticatorRegistrationDelegate {
    /// The registration started.
    /// - Parameters:
    ///   - client: The client.
    ///   - authenticator: The authenticator being registered.
    ///   - profile: The profile.
    func userClient(_ client: UserClient, didStartRegistering authenticator: Authenticator, for profile: UserProfile)
    /// Enter the PIN; a wrong one counts as at login, lockout included.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge)
    /// The authenticator is registered. Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - authenticator: The authenticator.
    ///   - profile: The profile.
    func userClient(_ client: UserClient, didRegister authenticator: Authenticator, for profile: UserProfile)
    /// The registration failed. Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - authenticator: The authenticator.
    ///   - profile: The profile.
    ///   - error: Why.
    func userClient(_ client: UserClient, didFailToRegister authenticator: Authenticator, for profile: UserProfile, error: IdentityFlowError)
}

extension AuthenticatorRegistrationDelegate {
    /// Does nothing.
    public func userClient(_ client: UserClient, didStartRegistering authenticator: Authenticator, for profile: UserProfile) {}
}
