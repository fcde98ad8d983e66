import Statechart

extension UserClient {
    /// Changes the authenticated user's PIN, reporting to a delegate.
    /// - Parameters:
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one terminal callback; ``ErrorCode/userNotAuthenticated`` when no user is logged in.
    public func changePin(delegate: sending some ChangePinDelegate, isolation: (any Actor)? = #isolation) {
        let target = CallbackTarget(delegate as any ChangePinDelegate)
        let profile = authenticatedUserProfile
        let host = FlowHost<UserProfile, UserProfile>.delegate(
            on: delegateExecutor(isolation),
            started: { profile in target.delegate.userClient(self, didStartPinChangeFor: profile) },
            challenge: { challenge in
                switch challenge {
                case .pin(let challenge): target.delegate.userClient(self, didReceivePinChallenge: challenge)
                case .createPin(let challenge): target.delegate.userClient(self, didReceiveCreatePinChallenge: challenge)
                default: challenge.cancel()  // a PIN change never asks for these
                }
            },
            finished: { outcome in
                switch outcome {
                case .success(let profile): target.delegate.userClient(self, didChangePinFor: profile)
                case .failure(let error): target.delegate.userClient(self, didFailToChangePinFor: profile, error: error)
                }
            })
        launchPinChange(host: host)
    }

    /// Changes the authenticated user's PIN, answering challenges through a responder.
    ///
    /// ```swift
    /// try await client.changePin { challenge in
    ///     switch challenge {
    ///     case .pin(let current): current.sender.respond(with: oldPin, to: current)
    ///     case .createPin(let new): new.sender.respond(with: newPin, to: new)
    ///     default: challenge.cancel()
    ///     }
    /// }
    /// ```
    /// - Parameter responder: Receives each challenge.
    /// - Returns: The profile whose PIN changed.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` without a logged-in user; the login errors for a wrong current PIN.
    @discardableResult
    public func changePin(responder: some ChallengeResponder) async throws(IdentityFlowError) -> UserProfile {
        try await runAsync(responder: responder) { (host: FlowHost<UserProfile, UserProfile>) in launchPinChange(host: host) }
    }

    /// Changes the authenticated user's PIN, answering challenges with a closure.
    /// - Parameter answer: Called with each challenge.
    /// - Returns: The profile whose PIN changed.
    /// - Throws: ``IdentityFlowError``.
    @discardableResult
    public func changePin(answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void) async throws(IdentityFlowError)
        -> UserProfile
    {
        try await changePin(responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchPinChange(host: FlowHost<UserProfile, UserProfile>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let profile = self.authenticatedUserProfile else {
                throw IdentityFlowError(.userNotAuthenticated, "Changing the PIN needs an authenticated user: log in first.")
            }
            try self.requireStoredProfile(profile, for: "Changing the PIN")
            return ChangePinFlow(
                steps: ChangePinSteps(dependencies: self.dependencies), id: id, context: .init(profile: profile, pinPolicy: self.configuration.pinPolicy),
                host: host)
        }
    }
}
