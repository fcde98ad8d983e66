import Foundation

extension ServerAuthenticators {
    /// At ``UserClient/start()``: revokes at the provider and drops from the storage the tokens
    /// that a server-mode session left behind when it ended without a logout (the system ended
    /// the app), so that a copy of the storage, taken during the session or after the kill, holds
    /// nothing usable once the app has launched again (`docs/pin-proof.md`). The profile a launch
    /// may resume (``LaunchPolicy/resumeLastUser`` with its resume item) keeps its session.
    ///
    /// Best effort: a revocation that fails is logged; the tokens are dropped all the same, except
    /// when the provider could not be reached (they are kept to be revoked at the next launch).
    /// - Parameter profiles: The profiles loaded at launch.
    /// - Returns: The profiles, with the sessions left behind dropped.
    nonisolated(nonsending) func dropSessionsLeftBehind(_ profiles: [StoredProfile]) async -> [StoredProfile] {
        var result: [StoredProfile] = []
        for var stored in profiles {
            if stored.vault == nil, !stored.profile.isStateless, stored.holdsSession, !resumes(stored.profile) {
                if await revokeLeftBehind(stored.tokens, proofKey: sessions.dpopKey(of: stored)) {
                    stored.tokens = TokenSet(accessToken: "")
                    do { try sessions.store.save(stored) } catch {
                        dependencies.logger.log(.warning, "Could not drop the tokens a previous session left in the storage: \(error)", flow: nil)
                    }
                }
            }
            result.append(stored)
        }
        return result
    }

    /// Whether the launch may resume `profile`'s session.
    private func resumes(_ profile: UserProfile) -> Bool {
        dependencies.configuration.launchPolicy == .resumeLastUser && (try? sessions.store.resumeRecord())??.profileId == profile.profileId
    }

    /// Revokes a set left behind; `false` when the provider could not be reached (keep it for the next launch).
    private nonisolated(nonsending) func revokeLeftBehind(_ tokens: TokenSet, proofKey: DPoPKey?) async -> Bool {
        do { try await service.revoke(tokens, proofKey: proofKey) } catch {
            dependencies.logger.log(.warning, "Could not revoke the tokens a previous session left in the storage: \(error)", flow: nil)
            return error.code != .serverNotReachable && error.code != .networkConnectivityFailure
        }
        return true
    }
}

extension StoredProfile {
    /// Whether the stored token set is a session (not the empty set a dropped session leaves).
    var holdsSession: Bool { tokens.refreshToken != nil || !tokens.accessToken.value.isEmpty }
}
