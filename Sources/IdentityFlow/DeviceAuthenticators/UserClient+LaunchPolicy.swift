import Foundation

/// ``LaunchPolicy/resumeLastUser``: the session a launch brings back. ``ProfileSessions`` keeps a
/// new session for the next launch, and takes that away (leaving a device-mode session sealed)
/// when the session ends.
extension UserClient {
    /// At launch, under ``LaunchPolicy/resumeLastUser``: logs the last user in again when their
    /// resume item opens their session and the provider still refreshes it.
    /// - Returns: The resumed profile, or `nil`.
    nonisolated(nonsending) func resumeLastSession() async -> UserProfile? {
        guard configuration.launchPolicy == .resumeLastUser else { return nil }
        let candidates = withState { Array($0.profiles.values) }
        for stored in candidates {
            guard let item = try? sessions.store.resumeItem(for: stored.profile) else { continue }
            guard let (tokens, key) = resumableSession(of: stored, item: item) else {
                try? sessions.store.deleteResumeItem(for: stored.profile)
                continue
            }
            withState { state in
                state.profiles[stored.profile]?.tokens = tokens
                state.authenticatedProfile = stored.profile
                state.sessionPinKey = key
            }
            do throws(IdentityFlowError) {
                _ = try await refreshedTokens(replacing: tokens)
                return stored.profile
            } catch {
                configuration.logger.log(.warning, "The last session was not resumed: \(error)", flow: nil)
                // A refused refresh already ended the session (resume item gone); an unreachable
                // provider leaves it for the next launch.
                withState { state in
                    if state.authenticatedProfile == stored.profile { state.authenticatedProfile = nil }
                    state.profiles[stored.profile]?.lockVault()
                }
                return nil
            }
        }
        return nil
    }

    /// The tokens and session key a resume item opens, or `nil`.
    private func resumableSession(of stored: StoredProfile, item: Redacted<[UInt8]>) -> (TokenSet, ProvenPinKey)? {
        guard let vault = stored.vault else { return stored.tokens.refreshToken == nil ? nil : (stored.tokens, .none) }
        let maxPinFailures = configuration.authenticators.maxPinFailures
        // A vault at the PIN limit opens for nothing, a resume item included.
        guard
            vault.damage(
                deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: configuration.acceptedPinKeyIterations,
                maxPinFailures: maxPinFailures) == nil, vault.failureCount < maxPinFailures,
            let key = vault.key(unwrapping: vault.resumeWrap, with: item, purpose: "resume", profile: stored.profile),
            let tokens = try? vault.tokens(key: key, profile: stored.profile), tokens.refreshToken != nil
        else { return nil }
        return (tokens, .device(key))
    }
}

extension StoredProfile {
    /// Forgets a device-mode profile's live tokens in memory (they stay sealed in its vault); the
    /// ID token stays, for ``UserClient/identityClaims(of:)``.
    mutating func lockVault() {
        if vault != nil { tokens = tokens.withoutCredentials }
    }
}
