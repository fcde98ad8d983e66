extension UserClient {
    /// Registers biometrics for a profile, reporting to a delegate. The PIN is asked once.
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one terminal callback.
    public func registerBiometricAuthenticator(
        for profile: UserProfile, delegate: sending some AuthenticatorRegistrationDelegate, isolation: (any Actor)? = #isolation
    ) {
        let target = CallbackTarget(delegate as any AuthenticatorRegistrationDelegate)
        let host = FlowHost<UserProfile, RegisteredAuthenticator>.delegate(
            on: delegateExecutor(isolation),
            started: { profile in target.delegate.userClient(self, didStartRegistering: .biometric, for: profile) },
            challenge: { challenge in
                if case .pin(let pin) = challenge { target.delegate.userClient(self, didReceivePinChallenge: pin) } else { challenge.cancel() }
            },
            finished: { outcome in
                switch outcome {
                case .success(let registered): target.delegate.userClient(self, didRegister: registered.authenticator, for: registered.profile)
                case .failure(let error): target.delegate.userClient(self, didFailToRegister: .biometric, for: profile, error: error)
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

    /// Removes biometrics from a profile: the key is deleted on this device at once, and the
    /// server is asked to revoke it with the PIN key's proof (in the background, best effort). The
    /// proof needs the PIN key, which only a session opened with the PIN holds: otherwise, and
    /// when the server cannot be reached, the revocation is sent at the profile's next PIN login.
    /// The PIN stays.
    /// - Parameter profile: The profile.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered`` when none is registered,
    ///   ``ErrorCode/dataStorageNotAvailable`` when the storage fails.
    public func deregisterBiometricAuthenticator(for profile: UserProfile) throws(IdentityFlowError) {
        try requireStarted()
        let stored = try storedProfile(profile)
        guard stored.hasBiometricKey || stored.biometricKey != nil else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        let pinKey = sessionPinKey(for: profile)
        try sessions.store.deleteBiometricKey(for: profile)
        try sessions.authenticatorHome(of: stored).removeBiometricKey(of: stored, pinKey: pinKey)
    }

    @discardableResult
    private func launchAuthenticatorRegistration(for profile: UserProfile, host: FlowHost<UserProfile, RegisteredAuthenticator>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            try self.requireStoredProfile(profile, for: "Registering biometrics")
            return AuthenticatorRegistrationFlow(steps: AuthenticatorRegistrationSteps(dependencies: self.dependencies), id: id, profile: profile, host: host)
        }
    }
}
