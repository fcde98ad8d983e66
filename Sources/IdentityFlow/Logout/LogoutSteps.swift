import Statechart

/// The I/O steps of a logout (``LogoutFlow``): ending the session on the device and revoking
/// its tokens at the provider. A view of the client's ``FlowDependencies``: one word, no allocation.
struct LogoutSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    /// Whether a logout of `profile` revokes its tokens at the provider, as the home it was
    /// registered in says (``AuthenticatorHome/revokesTokensAtLogout``): not a device-mode
    /// profile's, which keeps its provider session for the next login.
    func revokesTokensAtLogout(of profile: UserProfile) -> Bool {
        guard let stored = dependencies.sessions.withState({ $0.profiles[profile] }) else { return true }
        return dependencies.authenticatorHome(of: stored).revokesTokensAtLogout
    }

    /// Ends the session on this device.
    func endSessionLocally() { dependencies.sessions.endSessionLocally() }

    /// The DPoP key of `profile`, read before the session ends (in device mode it opens with the session's key).
    func dpopKey(of profile: UserProfile) -> DPoPKey? { dependencies.sessions.dpopKey(for: profile) }

    /// Revokes the session's tokens at the provider, with a proof by the profile's DPoP key.
    nonisolated(nonsending) func revoke(_ tokens: TokenSet, proofKey: DPoPKey?) async throws(IdentityFlowError) {
        try await dependencies.service.revoke(tokens, proofKey: proofKey)
    }
}
