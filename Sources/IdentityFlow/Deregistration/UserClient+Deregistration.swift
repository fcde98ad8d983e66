import Statechart

extension UserClient {
    /// Removes a profile: on the server (its PIN enrolment, device keys and tokens) and from this
    /// device.
    ///
    /// The server removes a profile only on a proof by its PIN key (`docs/pin-proof.md`), which
    /// the session holds after a login with the PIN. Deregistering any other profile (not logged
    /// in, or logged in with biometrics: a "forgot my PIN" reset, say) revokes its tokens at the
    /// provider and removes it from this device, and fails with ``ErrorCode/localDeregistration``
    /// whose underlying error is ``ErrorCode/pinProofRequired``: the server keeps a record that
    /// nobody can use any more, since the device secret it needs is gone with the device's copy.
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
            DeregistrationFlow(steps: DeregistrationSteps(dependencies: self.dependencies), id: id, stored: try self.storedProfile(profile), host: host)
        }
    }
}
