/// Receives a login's callbacks: `didStart` → PIN or biometric challenges → exactly one of
/// ``userClient(_:didAuthenticateUser:authenticator:info:)`` /
/// ``userClient(_:didFailToAuthenticateUser:authenticator:error:)``.
///
/// - Important: Retained until the terminal callback. Callbacks arrive in order on the actor
///   that started the flow: a `@MainActor` screen conforms with an isolated conformance
///   (`extension Screen: @MainActor AuthenticationDelegate`) and gets them on the main actor, with no
///   `nonisolated` and no `MainActor.assumeIsolated`. Started from nonisolated code (a test, a
///   server), they arrive on ``ClientConfiguration/callbackExecutor``.
public protocol AuthenticationDelegate {
    /// The login started.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile logging in.
    ///   - authenticator: The authenticator used.
    func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator)
    /// Enter the PIN. Comes back after a wrong PIN (9009), a network error or a biometric failure (9030).
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge)
    /// Confirm with biometrics. The default falls back to the PIN.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge)
    /// The user is logged in. Terminal: called at most once per flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile.
    ///   - authenticator: The authenticator that succeeded.
    ///   - info: Extra information from the server, if any.
    func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?)
    /// The login failed. Terminal: called at most once per flow. With ``ErrorCode/userDeregistered``
    /// the profile is gone from the device.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile.
    ///   - authenticator: The authenticator tried.
    ///   - error: Why.
    func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError)
}

extension AuthenticationDelegate {
    /// Does nothing.
    public func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator) {}

    /// Falls back to the PIN.
    public func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) {
        challenge.sender.respondWithPinFallback(to: challenge)
    }
}

/// What a successful login returns through the async API.
public struct AuthenticationResult: Sendable, Hashable {
    /// The profile, now authenticated.
    public let profile: UserProfile
    /// The authenticator that succeeded.
    public let authenticator: Authenticator
    /// Extra information from the server, if any.
    public let info: CustomInfo?

    /// Creates a result (test doubles of a host's own use it).
    /// - Parameters:
    ///   - profile: The profile.
    ///   - authenticator: The authenticator.
    ///   - info: Extra information.
    package init(profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) {
        self.profile = profile
        self.authenticator = authenticator
        self.info = info
    }
}
