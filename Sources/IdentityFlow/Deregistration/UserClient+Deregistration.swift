extension UserClient {
    /// Removes a profile: on the server (its PIN enrolment and tokens) and from this device.
    /// - Parameter profile: A registered profile.
    /// - Throws: ``ErrorCode/localDeregistration`` when the server could not be told (the profile is
    ///   gone from this device all the same); ``ErrorCode/requestInvalid`` for an unknown profile;
    ///   ``ErrorCode/dataStorageNotAvailable`` when the device could not delete it.
    public func deregister(_ profile: UserProfile) async throws(IdentityFlowError) {
        _ = try await runAsync(responder: ClosureResponder { $0.cancel() }) { (host: FlowHost<UserProfile, UserProfile>) in
            launchDeregistration(profile, host: host)
        }
    }

    /// Removes a profile, calling `completion` once on the callback executor.
    /// - Parameters:
    ///   - profile: A registered profile.
    ///   - completion: Receives `nil` on success, or the error (``ErrorCode/localDeregistration``, ...).
    public func deregister(_ profile: UserProfile, completion: @escaping @Sendable (IdentityFlowError?) -> Void) {
        launchDeregistration(profile, host: .completion(configuration.callbackExecutor, completion))
    }

    @discardableResult
    private func launchDeregistration(_ profile: UserProfile, host: FlowHost<UserProfile, UserProfile>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            DeregistrationFlow(client: self, id: id, stored: try self.storedProfile(profile), host: host)
        }
    }
}
