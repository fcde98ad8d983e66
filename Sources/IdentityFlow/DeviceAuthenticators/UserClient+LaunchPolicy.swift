import Foundation

/// ``LaunchPolicy/resumeLastUser``: the session a launch brings back, and how a session's end
/// takes that away; and what a device-mode session leaves sealed when it ends.
extension ProfileSessions {
    /// Keeps a new session for the next launch when the policy says so: a resume item in the
    /// storage and, in device mode, the vault key wrapped under the resume key it holds.
    func keepForNextLaunch(_ stored: inout StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        guard configuration.launchPolicy == .resumeLastUser, !stored.profile.isStateless else { return }
        for other in withState({ Array($0.profiles.keys) }) where other != stored.profile { try? store.deleteResumeItem(for: other) }
        guard stored.vault != nil else { return try store.saveResumeItem(Redacted([0]), for: stored.profile) }
        guard let vaultKey = pinKey.vaultKey else { return }
        let resumeKey = Redacted(try PinProof.randomBytes(DeviceVault.keyLength))
        stored.vault?.resumeWrap = try DeviceVault.wrap(vaultKey, with: resumeKey, purpose: "resume", profile: stored.profile)
        try store.saveResumeItem(resumeKey, for: stored.profile)
    }

    /// After a session ended on this device: its resume item is removed and, in device mode, the
    /// vault keeps the refresh token sealed with the access token forgotten (the next login
    /// refreshes) and no resume wrap.
    func closeSession(of stored: StoredProfile, key: ProvenPinKey) {
        try? store.deleteResumeItem(for: stored.profile)
        guard stored.vault != nil, !stored.profile.isStateless else { return }
        var closed = stored
        closed.vault?.resumeWrap = nil
        closed.tokens.accessToken = Redacted("")
        closed.tokens.expiresAt = .distantPast
        do throws(IdentityFlowError) {
            try closed.resealTokens(with: key)
            if let deviceSecret = closed.deviceSecret { closed.vault?.bind(deviceSecret: deviceSecret, profile: closed.profile) }
            try store.save(closed)
            closed.lockVault()
            withState { state in
                if state.profiles[closed.profile] != nil, state.authenticatedProfile != closed.profile { state.profiles[closed.profile] = closed }
            }
        } catch {
            configuration.logger.log(.warning, "Could not reseal the ended session's tokens: \(error)", flow: nil)
        }
    }
}

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
        guard vault.damage(deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: configuration.acceptedPinKeyIterations) == nil,
            let key = vault.key(unwrapping: vault.resumeWrap, with: item, purpose: "resume", profile: stored.profile),
            let tokens = try? vault.tokens(key: key, profile: stored.profile), tokens.refreshToken != nil
        else { return nil }
        return (tokens, .device(key))
    }
}

extension StoredProfile {
    /// Whether a logout revokes the tokens at the provider: not a device-mode profile's, whose
    /// refresh token stays sealed for the next login. Revoking even its access token is not safe:
    /// RFC 7009 §2.1 lets a provider revoke the refresh token with it (django-oauth-toolkit
    /// does), which would end the profile's sign-in. The access token lives out its lifetime.
    var revokesTokensAtLogout: Bool { vault == nil }

    /// Forgets a device-mode profile's live tokens in memory (they stay sealed in its vault).
    mutating func lockVault() {
        if vault != nil { tokens = TokenSet(accessToken: "") }
    }
}
