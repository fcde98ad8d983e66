import Statechart

/// The I/O steps of a biometric registration (``AuthenticatorRegistrationFlow``): the PIN loop's
/// (``PinSteps``), the biometric key's enrolment, storing the session. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct AuthenticatorRegistrationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// Registers the biometric key under the PIN key's proof and stores the session the PIN
    /// opened. When the key cannot be registered, the PIN check's tokens are revoked where they are
    /// a session of their own (server mode); in device mode they are the profile's sealed sign-in and stay.
    nonisolated(nonsending) func storeAuthenticator(for profile: UserProfile, pinKey: ProvenPinKey, tokens: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)
    {
        do throws(IdentityFlowError) {
            try await registerBiometricKey(for: profile, pinKey: pinKey, tokens: tokens, flow: flow)
        } catch {
            // In device mode the PIN check's tokens are the profile's own sealed sign-in: kept.
            await pinLoop.revokeDropped(tokens, of: profile, flow: flow)
            throw error
        }
        try await session.storeSession(profile, tokens: tokens, pinKey: pinKey, flow: flow)
    }

    /// Creates the biometric key and registers it under the PIN key's proof
    /// (``AuthenticatorHome/registerBiometricKey(for:pinKey:tokens:flow:)``: with the server,
    /// or as a wrap of the vault key).
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, tokens: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)
    {
        try await dependencies.authenticatorHome.registerBiometricKey(for: profile, pinKey: pinKey, tokens: tokens, flow: flow)
    }
}
