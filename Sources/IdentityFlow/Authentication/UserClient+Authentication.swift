import Statechart

extension UserClient {
    /// The authenticators registered for a profile: the PIN, and biometrics when registered.
    /// - Parameter profile: The profile.
    /// - Returns: The authenticators; empty for a profile not registered here.
    public func registeredAuthenticators(for profile: UserProfile) -> [Authenticator] {
        withState { $0.profiles[profile]?.authenticators ?? [] }
    }

    /// Logs a user in, reporting to a delegate.
    ///
    /// ```swift
    /// client.authenticateUser(profile, delegate: loginScreen)
    /// ```
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - authenticator: `.pin`, `.biometric`, or `nil` for biometrics when registered and the PIN otherwise.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one terminal callback, also when the login cannot start.
    public func authenticateUser(
        _ profile: UserProfile, authenticator: Authenticator? = nil, delegate: sending some AuthenticationDelegate, isolation: (any Actor)? = #isolation
    ) {
        let target = CallbackTarget(delegate as any AuthenticationDelegate)
        // The authenticator the failure callback names: the requested one until the flow chose.
        let used = Locked(authenticator ?? .pin)
        let host = FlowHost<AuthenticationMachine.Context, AuthenticationResult>.delegate(
            on: delegateExecutor(isolation),
            started: { context in
                used.withLock { $0 = context.authenticator }
                target.delegate.userClient(self, didStartAuthenticating: context.profile, authenticator: context.authenticator)
            },
            challenge: { challenge in
                switch challenge {
                case .pin(let challenge): target.delegate.userClient(self, didReceivePinChallenge: challenge)
                case .biometric(let challenge): target.delegate.userClient(self, didReceiveBiometricChallenge: challenge)
                default: challenge.cancel()  // a login never asks for these
                }
            },
            finished: { outcome in
                switch outcome {
                case .success(let result):
                    target.delegate.userClient(self, didAuthenticateUser: result.profile, authenticator: result.authenticator, info: result.info)
                case .failure(let error):
                    target.delegate.userClient(self, didFailToAuthenticateUser: profile, authenticator: used.current, error: error)
                }
            })
        launchAuthentication(profile, authenticator: authenticator, host: host)
    }

    /// Logs a user in, answering challenges through a responder.
    ///
    /// ```swift
    /// let result = try await client.authenticateUser(profile) { challenge in
    ///     if case .pin(let pin) = challenge { pin.sender.respond(with: await askForPin(pin), to: pin) }
    /// }
    /// ```
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - authenticator: `.pin`, `.biometric`, or `nil` for biometrics when registered and the PIN otherwise.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The profile and the authenticator that succeeded.
    /// - Throws: ``IdentityFlowError``: ``ErrorCode/userDeregistered`` after the last wrong PIN,
    ///   ``ErrorCode/authenticatorNotRegistered``, ``ErrorCode/actionCancelled``, ...
    ///   The result is discardable, as ``changePin(responder:)``'s is: it restates the profile
    ///   the caller passed, with the authenticator and any custom info.
    @discardableResult
    public func authenticateUser(_ profile: UserProfile, authenticator: Authenticator? = nil, responder: some ChallengeResponder)
        async throws(IdentityFlowError) -> AuthenticationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>) in
            launchAuthentication(profile, authenticator: authenticator, host: host)
        }
    }

    /// Logs a user in, answering challenges with a closure. See ``authenticateUser(_:authenticator:responder:)``.
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - authenticator: The authenticator, or `nil` for the preferred one.
    ///   - answer: Called with each challenge.
    /// - Returns: The profile and the authenticator that succeeded.
    /// - Throws: ``IdentityFlowError``.
    @discardableResult
    public func authenticateUser(
        _ profile: UserProfile, authenticator: Authenticator? = nil, answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> AuthenticationResult {
        try await authenticateUser(profile, authenticator: authenticator, responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchAuthentication(
        _ profile: UserProfile, authenticator: Authenticator?, host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>
    ) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            try self.requireStoredProfile(profile, for: "Logging in")
            let registered = try self.storedProfile(profile).authenticators
            let chosen = authenticator ?? registered.last ?? .pin
            guard registered.contains(chosen) else {
                throw IdentityFlowError(.authenticatorNotRegistered, "\(chosen.name) is not registered for this profile.")
            }
            let previous = self.authenticatedUserProfile.flatMap { $0 == profile ? nil : $0 }
            let reuses = self.configuration.reusesValidSession && self.authenticatedUserProfile == profile && self.isValidAccessToken
            let context = AuthenticationMachine.Context(profile: profile, authenticator: chosen, previousProfile: previous, reusesSession: reuses)
            return AuthenticationFlow(steps: AuthenticationSteps(dependencies: self.dependencies), id: id, context: context, host: host)
        }
    }
}
