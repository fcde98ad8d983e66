import Foundation
import Statechart

/// What flows do to the client's profiles and session: verify PINs, store tokens, delete profiles.
extension UserClient {
    /// The stored profile, or ``ErrorCode/requestInvalid`` when it is not registered here.
    func storedProfile(_ profile: UserProfile) throws(IdentityFlowError) -> StoredProfile {
        guard let stored = withState({ $0.profiles[profile] }) else {
            throw IdentityFlowError(.requestInvalid, "The profile \(profile.profileId) is not registered on this device.")
        }
        return stored
    }

    /// Refuses a stateless profile (``ErrorCode/statelessUser``) and one not registered here.
    func requireStoredProfile(_ profile: UserProfile, for action: String) throws(IdentityFlowError) {
        if try storedProfile(profile).profile.isStateless {
            throw IdentityFlowError(.statelessUser, "\(action) needs a profile stored on this device; this one was registered stateless.")
        }
    }

    /// The server's counters for a profile; a profile the server no longer knows comes back as `.deregistered`.
    nonisolated(nonsending) func pinStatus(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters? {
        if keepsAuthenticatorsOnDevice { return try devicePinCounters(for: profile) }
        do {
            let challenge = try await service.pinLoginChallenge(for: profile)
            return PinCounters(maxFailureCount: challenge.maxFailureCount, previousFailureCount: challenge.failureCount)
        } catch  where error.code == .userDeregistered {
            return nil
        }
    }

    /// Stores a new session for the profile and logs it in, keeping the PIN key that proved it in
    /// memory; the token set it replaces is revoked (best effort), so the server holds at most one
    /// live set per profile. When the storage fails, the new set is revoked instead and the error
    /// thrown. A biometric revocation left pending is sent with the PIN key's proof.
    nonisolated(nonsending) func storeSession(_ profile: UserProfile, tokens: TokenSet, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        var stored = try storedProfile(profile)
        // A device-mode profile's stored tokens are sealed: nothing was live before this session.
        let replaced: TokenSet? = stored.vault == nil ? stored.tokens : nil
        stored.tokens = tokens
        do {
            try keepForNextLaunch(&stored, pinKey: pinKey)
            try stored.resealTokens(with: pinKey)
            try profileStore.save(stored)
        } catch {
            // The flow fails: the session the server just opened would otherwise stay live (a
            // device-mode session is the profile's own, unsealed: it stays).
            if stored.vault == nil { await revokeUnused(tokens, flow: flow) }
            throw error
        }
        withState { state in
            state.profiles[profile] = stored
            state.authenticatedProfile = profile
            state.sessionPinKey = pinKey
        }
        if let replaced, replaced.accessToken != tokens.accessToken { await revokeUnused(replaced, flow: flow) }
        if stored.biometricRevocationPending, pinKey.provesPin { await revokeBiometricKeyOnServer(of: profile, pinKey: pinKey, flow: flow) }
    }

    /// Revokes a token set nobody will use any more (best effort: a failure is logged).
    nonisolated(nonsending) func revokeUnused(_ tokens: TokenSet, flow: FlowID?) async {
        do { try await service.revoke(tokens) } catch {
            configuration.logger.log(.warning, "Could not revoke a token set that is no longer used: \(error)", flow: flow)
        }
    }

    /// Saves changes to a stored profile (new tokens, a biometric key).
    func updateStoredProfile(_ profile: UserProfile, _ change: (inout StoredProfile) -> Void) throws(IdentityFlowError) {
        var stored = try storedProfile(profile)
        let tokens = stored.tokens
        change(&stored)
        if stored.tokens != tokens { try stored.resealTokens(with: sessionPinKey(for: profile)) }
        try profileStore.save(stored)
        withState { $0.profiles[profile] = stored }
    }

    /// Removes a profile and everything of it from this device.
    func deleteProfileLocally(_ profile: UserProfile) throws(IdentityFlowError) {
        try profileStore.delete(profile)
        withState { state in
            state.profiles[profile] = nil
            if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
        }
    }

    /// Ends the session of the authenticated profile on this device; returns its tokens to revoke,
    /// `nil` for a device-mode profile (``StoredProfile/revokesTokensAtLogout``). A stateless
    /// profile ends with its session: it is forgotten.
    @discardableResult
    func endSessionLocally() -> (UserProfile, TokenSet?)? {
        let ended = withState { state -> (StoredProfile, ProvenPinKey)? in
            guard let profile = state.authenticatedProfile, let stored = state.profiles[profile] else {
                state.authenticatedProfile = nil
                return nil
            }
            let key = state.sessionPinKey
            state.authenticatedProfile = nil
            if profile.isStateless { state.profiles[profile] = nil }
            state.profiles[profile]?.lockVault()
            return (stored, key)
        }
        guard let (stored, key) = ended else { return nil }
        closeSession(of: stored, key: key)
        return (stored.profile, stored.revokesTokensAtLogout ? stored.tokens : nil)
    }
}

extension UserClient {
    /// Logs the authenticated user out on this device and revokes its tokens, best effort.
    nonisolated(nonsending) func logOutLocallyRevoking(flow: FlowID) async {
        guard let (_, ended) = endSessionLocally(), let tokens = ended else { return }
        do { try await service.revoke(tokens) } catch {
            configuration.logger.log(.warning, "Could not revoke the previous user's tokens: \(error)", flow: flow)
        }
    }

    /// Deletes a profile from the device; a storage failure is logged and the profile is forgotten all the same.
    func forgetProfile(_ profile: UserProfile, flow: FlowID?) {
        do { try deleteProfileLocally(profile) } catch {
            withState { state in
                state.profiles[profile] = nil
                if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
            }
            configuration.logger.log(.error, "Could not delete the deregistered profile's stored data: \(error)", flow: flow)
        }
    }
}
