import Statechart

/// The I/O steps of a PIN change (``ChangePinFlow``): the PIN loop's (``PinSteps``), the new
/// PIN's enrolment, storing the session. A view of the client's ``FlowDependencies``: one word,
/// no allocation.
struct ChangePinSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// Enrols a new PIN, authorized by the current PIN key (``AuthenticatorHome/enrolNewPin(_:for:currentKey:tokens:)``:
    /// with the server, a v1 key authorizing the upgrade; or rewrapped in the vault).
    /// - Returns: The new PIN key, for the session.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey,
        tokens: TokenSet
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        try await dependencies.authenticatorHome.enrolNewPin(pin, for: profile, currentKey: currentKey, tokens: tokens)
    }
}
