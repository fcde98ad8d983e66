import Statechart

/// The I/O steps of a login (``AuthenticationFlow``): the PIN loop's (``PinSteps``), the biometric
/// check, storing the session, logging the previous user out. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct AuthenticationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// A biometric attempt (``AuthenticatorHome/checkBiometricKey(for:)``): the biometric key
    /// signs a fresh nonce for the server, or unwraps the vault key on the device.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        try await dependencies.authenticatorHome.checkBiometricKey(for: profile)
    }
}
