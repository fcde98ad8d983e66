import Statechart

/// The I/O steps of a deregistration (``DeregistrationFlow``): removing the profile from where its
/// authenticators live (``AuthenticatorHome/deregister(_:pinKey:flow:)``), then from this device.
/// A view of the client's ``FlowDependencies``: one word, no allocation.
struct DeregistrationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// Revokes what the profile's ``AuthenticatorHome`` holds (the home it was registered in):
    /// on the server, its record, with the PIN key's proof (refused before anything is sent
    /// without a key that proves the PIN; when the server was not told, the tokens are revoked
    /// instead, best effort); on the device, its tokens at the provider.
    /// - Throws: ``ErrorCode/pinProofRequired`` without the key; the service's errors.
    nonisolated(nonsending) func deregisterOnServer(_ stored: StoredProfile, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        try await dependencies.authenticatorHome(of: stored).deregister(stored, pinKey: pinKey, flow: flow)
    }

    /// Removes the profile and everything of it from this device.
    func deleteProfileLocally(_ profile: UserProfile) throws(IdentityFlowError) { try sessions.deleteProfileLocally(profile) }
}
