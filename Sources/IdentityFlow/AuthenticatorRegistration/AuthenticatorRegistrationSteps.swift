import Statechart

/// The I/O steps of a biometric registration (``AuthenticatorRegistrationFlow``): the PIN loop's
/// (``PinSteps``), the biometric key's enrolment, storing the session. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct AuthenticatorRegistrationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// Registers the biometric key under the PIN key's proof and stores the session the PIN
    /// opened; a key that could not be registered leaves the session's tokens revoked.
    nonisolated(nonsending) func storeAuthenticator(for profile: UserProfile, pinKey: ProvenPinKey, tokens: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)
    {
        do throws(IdentityFlowError) {
            try await registerBiometricKey(for: profile, pinKey: pinKey, accessToken: tokens.accessToken, flow: flow)
        } catch {
            await session.revokeUnused(tokens, flow: flow)
            throw error
        }
        try await session.storeSession(profile, tokens: tokens, pinKey: pinKey, flow: flow)
    }

    /// Creates the biometric key, registers it with the server under the PIN key's proof, and
    /// stores it as an item of its own that needs the user's presence. A failure to store it
    /// revokes it on the server.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, accessToken: Redacted<String>, flow: FlowID)
        async throws(IdentityFlowError)
    {
        if dependencies.keepsAuthenticatorsOnDevice { return try registerBiometricKeyOnDevice(for: profile, pinKey: pinKey) }
        let biometric = try DeviceKey.random()
        let authorization = try await pinLoop.pinKeyAuthorization(.biometricEnrolment, for: profile, key: pinKey, publicKey: biometric.publicKey)
        try await service.enrolBiometricKey(biometric.publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        do throws(IdentityFlowError) {
            try sessions.store.saveBiometricKey(biometric.privateKey, for: profile)
            try sessions.updateStoredProfile(profile) { stored in
                stored.hasBiometricKey = true
                stored.biometricRevocationPending = false
            }
        } catch {
            try? sessions.store.deleteBiometricKey(for: profile)
            await pinLoop.revokeBiometricKeyOnServer(of: profile, pinKey: pinKey, flow: flow)
            throw error
        }
    }
}
