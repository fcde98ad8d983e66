import Foundation
import Statechart

/// The PIN loop's steps (``PinEntry``), as login, PIN change, biometric registration and mobile
/// authentication make them: the counters and one PIN attempt, asked of the client's
/// ``AuthenticatorHome`` (the server's PIN proofs or the device's vault), and the revocation of
/// tokens a flow drops. A view of the client's ``FlowDependencies``: one word, no allocation.
struct PinSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    /// Where the authenticators live.
    var authenticatorHome: any AuthenticatorHome { dependencies.authenticatorHome }
    /// The session steps, for revoking tokens nobody uses.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// The counters for a profile; a profile no longer known comes back as `nil` (deregistered).
    nonisolated(nonsending) func pinStatus(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters? {
        try await authenticatorHome.pinCounters(for: profile)
    }

    /// One PIN attempt (``AuthenticatorHome/checkPin(_:for:)``).
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        try await authenticatorHome.checkPin(pin, for: profile)
    }

    /// Revokes the tokens a PIN check returned that the flow will not use, when they are a
    /// session of their own (``AuthenticatorHome/issuesTokensPerLogin``; best effort: a failure is logged).
    /// - Parameters:
    ///   - tokens: The PIN check's tokens.
    ///   - profile: The profile that logged in: DPoP-bound tokens are revoked with a proof by its
    ///     key (a provider refuses an unproven revocation of bound tokens).
    ///   - flow: The flow, for the log.
    nonisolated(nonsending) func revokeDropped(_ tokens: TokenSet, of profile: UserProfile, flow: FlowID) async {
        guard authenticatorHome.issuesTokensPerLogin else { return }
        let proofKey = tokens.isSenderConstrained ? dependencies.sessions.dpopKey(for: profile) : nil
        await session.revokeUnused(tokens, proofKey: proofKey, flow: flow)
    }
}
