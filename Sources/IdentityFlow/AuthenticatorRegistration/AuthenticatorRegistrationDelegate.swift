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

extension UserClient {
    /// Registers biometrics for a profile, reporting to a delegate. The PIN is asked once.
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    /// - Important: Exactly one terminal callback.
    public func registerBiometricAuthenticator(for profile: UserProfile, delegate: some AuthenticatorRegistrationDelegate) {
        let executor = configuration.callbackExecutor
        let host = FlowHost<UserProfile, RegisteredAuthenticator>(
            started: { profile in executor.run { delegate.userClient(self, didStartRegistering: .biometric, for: profile) } },
            challenge: { challenge in
                executor.run {
                    if case .pin(let pin) = challenge { delegate.userClient(self, didReceivePinChallenge: pin) } else { challenge.cancel() }
                }
            },
            finished: { outcome in
                executor.run {
                    switch outcome {
                    case .success(let registered): delegate.userClient(self, didRegister: registered.authenticator, for: registered.profile)
                    case .failure(let error): delegate.userClient(self, didFailToRegister: .biometric, for: profile, error: error)
                    }
                }
            })
        launchAuthenticatorRegistration(for: profile, host: host)
    }

    /// Registers biometrics for a profile, answering the PIN challenge through a responder.
    /// Logs the profile in as a side effect (the PIN was proven).
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - responder: Receives the PIN challenges.
    /// - Throws: ``IdentityFlowError``: the login errors for a wrong PIN, ``ErrorCode/requestInvalid`` for an unknown profile.
    public func registerBiometricAuthenticator(for profile: UserProfile, responder: some ChallengeResponder) async throws(IdentityFlowError) {
        _ = try await runAsync(responder: responder) { (host: FlowHost<UserProfile, RegisteredAuthenticator>) in
            launchAuthenticatorRegistration(for: profile, host: host)
        }
    }

    /// Removes biometrics from a profile on this device; the PIN stays.
    /// - Parameter profile: The profile.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered`` when none is registered,
    ///   ``ErrorCode/dataStorageNotAvailable`` when the storage fails.
    public func deregisterBiometricAuthenticator(for profile: UserProfile) throws(IdentityFlowError) {
        try requireStarted()
        guard try storedProfile(profile).biometricKey != nil else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        try updateStoredProfile(profile) { $0.biometricKey = nil }
    }

    @discardableResult
    private func launchAuthenticatorRegistration(for profile: UserProfile, host: FlowHost<UserProfile, RegisteredAuthenticator>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            _ = try self.storedProfile(profile)
            return AuthenticatorRegistrationFlow(client: self, id: id, profile: profile, host: host)
        }
    }
}
