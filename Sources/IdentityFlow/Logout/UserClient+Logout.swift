extension UserClient {
    /// Logs the authenticated user out: the session ends on the device at once, and the server
    /// revokes the tokens. In device mode nothing is revoked: the profile's refresh token stays
    /// sealed for its next login (``AuthenticatorPlacement``).
    ///
    /// ```swift
    /// do { try await client.logout() } catch where error.code == .localLogout { /* offline: fine */ }
    /// ```
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in;
    ///   ``ErrorCode/localLogout`` when the server could not be told (the user is logged out all the same).
    public func logout() async throws(IdentityFlowError) {
        _ = try await runAsync(responder: ClosureResponder { $0.cancel() }) { (host: FlowHost<UserProfile, UserProfile>) in
            launchLogout(host: host)
        }
    }

    /// Logs the authenticated user out, calling `completion` once on the callback executor.
    /// - Parameter completion: Receives `nil` on success, or the error (``ErrorCode/localLogout``, ...).
    public func logout(completion: @escaping @Sendable (IdentityFlowError?) -> Void) {
        launchLogout(host: .completion(configuration.callbackExecutor, completion))
    }

    @discardableResult
    private func launchLogout(host: FlowHost<UserProfile, UserProfile>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let profile = self.authenticatedUserProfile else {
                throw IdentityFlowError(.userNotAuthenticated, "Nobody is logged in.")
            }
            return LogoutFlow(
                steps: LogoutSteps(dependencies: self.dependencies), id: id, profile: profile, tokens: try self.storedProfile(profile).tokens, host: host)
        }
    }
}
