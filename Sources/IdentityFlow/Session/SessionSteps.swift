import Foundation
import Statechart

/// The session steps flows share: store a new session, log the previous user out, revoke tokens
/// nobody uses. A view of the client's ``FlowDependencies``: one word, no allocation.
struct SessionSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    private var service: any IdentityService { dependencies.service }
    private var sessions: ProfileSessions { dependencies.sessions }

    /// Stores a new session for the profile and logs it in, keeping the PIN key that proved it in
    /// memory; the token set it replaces is revoked (best effort), so the server holds at most one
    /// live set per profile. When the storage fails, the new set is revoked instead and the error
    /// thrown. A biometric revocation left pending is sent with the PIN key's proof.
    nonisolated(nonsending) func storeSession(_ profile: UserProfile, tokens: TokenSet, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        var stored = try sessions.storedProfile(profile)
        // A login that unseals the profile's one token set (device mode) replaces nothing live,
        // and that set stays live if the flow fails.
        let issuesTokensPerLogin = sessions.authenticatorHome(of: stored).issuesTokensPerLogin
        let replaced: TokenSet? = issuesTokensPerLogin && stored.holdsSession ? stored.tokens : nil
        let proofKey = sessions.dpopKey(for: profile)
        stored.tokens = tokens
        do {
            _ = try sessions.logIn(stored, pinKey: pinKey)
        } catch {
            // The flow fails: the session the server just opened would otherwise stay live.
            if issuesTokensPerLogin { await revokeUnused(tokens, proofKey: proofKey, flow: flow) }
            throw error
        }
        if let replaced, replaced.accessToken != tokens.accessToken { await revokeUnused(replaced, proofKey: proofKey, flow: flow) }
        if stored.biometricRevocationPending, pinKey.provesPin {
            await sessions.authenticatorHome.revokeBiometricKey(of: profile, pinKey: pinKey, flow: flow)
        }
    }

    /// Revokes a token set nobody will use any more (best effort: a failure is logged), with a
    /// proof by `proofKey`, the DPoP key of the profile it belongs to. A
    /// provider that cannot revoke fails the same way at every refresh: the first failure of a
    /// kind is a warning, once per client, and the ones like it are logged at debug level.
    nonisolated(nonsending) func revokeUnused(_ tokens: TokenSet, proofKey: DPoPKey?, flow: FlowID?) async {
        do { try await service.revoke(tokens, proofKey: proofKey) } catch {
            let kind = "\(error.code) \(error.oauthError ?? "")"
            let first = sessions.withState { $0.revocationFailuresLogged.insert(kind).inserted }
            dependencies.logger.log(
                first ? .warning : .debug,
                "Could not revoke a token set that is no longer used: \(error)\(first ? " (failures like it are logged at debug level from now on)" : "")",
                flow: flow)
        }
    }

    /// Logs the authenticated user out on this device and revokes its tokens, best effort.
    nonisolated(nonsending) func logOutLocallyRevoking(flow: FlowID) async {
        let proofKey = sessions.sessionDPoPKey
        guard let ended = sessions.endSessionLocally(), ended.revokesTokensAtLogout else { return }
        do { try await service.revoke(ended.tokens, proofKey: proofKey) } catch {
            dependencies.logger.log(.warning, "Could not revoke the previous user's tokens: \(error)", flow: flow)
        }
    }
}
