/// Receives the callbacks of registering biometrics: `didStart` → ``PinChallenge``* → exactly
/// one of ``userClient(_:didRegister:for:)`` / ``userClient(_:didFailToRegister:for:error:)``.
///
/// - Important: Retained until the terminal callback; callbacks arrive in order on
///   ``ClientConfiguration/callbackExecutor`` (the main actor by default).
public protocol AuthenticatorRegistrationDelegate: Sendable {
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
