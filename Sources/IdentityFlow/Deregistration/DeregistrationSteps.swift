import Statechart

/// The I/O steps of a deregistration (``DeregistrationFlow``): removing the profile on the server
/// with the PIN key's proof (in device mode, revoking its tokens), then from this device. A view
/// of the client's ``FlowDependencies``: one word, no allocation.
struct DeregistrationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps, for the PIN key's proof.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }

    /// Removes `stored` on the server with the PIN key's proof (refused before anything is sent
    /// without a key that proves the PIN). When the server was not told, the profile's tokens
    /// are revoked at the provider instead (best effort), so that none stays live.
    /// - Throws: ``ErrorCode/pinProofRequired`` without the key; the service's errors.
    nonisolated(nonsending) func deregisterOnServer(_ stored: StoredProfile, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        if stored.vault != nil { return try await revokeDeviceProfileTokens(stored, sessionKey: pinKey) }
        do throws(IdentityFlowError) {
            try await service.deregister(
                stored.profile, authorization: try await pinLoop.pinKeyAuthorization(.deregistration, for: stored.profile, key: pinKey))
        } catch {
            await pinLoop.session.revokeUnused(stored.tokens, flow: flow)
            throw error
        }
    }

    /// Removes the profile and everything of it from this device.
    func deleteProfileLocally(_ profile: UserProfile) throws(IdentityFlowError) { try sessions.deleteProfileLocally(profile) }
}
