import Statechart

/// The profiles of a client and its session: the profile store, the cache of what it holds, the
/// logged-in profile and the PIN key that proved its session. Flows get it from their steps;
/// nothing here calls the server. A view of the client's ``FlowDependencies`` (which keeps the
/// store and, under its lock, the ``State``): one word, no allocation.
struct ProfileSessions: Sendable {
    private let dependencies: FlowDependencies

    /// The cache and the session, changed under one lock.
    struct State: Sendable {
        /// The profiles of this device (a stateless one while it is logged in).
        var profiles: [UserProfile: StoredProfile] = [:]
        /// The logged-in profile. Whenever it changes, the session's PIN key is forgotten.
        var authenticatedProfile: UserProfile? {
            didSet { if authenticatedProfile != oldValue { sessionPinKey = .none } }
        }
        /// The key that proved the PIN for the logged-in profile's session (in memory only), so
        /// that the session can prove the PIN for a credential change; `.none` after a biometric
        /// login or without a session.
        var sessionPinKey: ProvenPinKey = .none
    }

    /// The profiles and session of `dependencies`' client.
    init(dependencies: FlowDependencies) { self.dependencies = dependencies }

    /// Where profiles are stored.
    var store: ProfileStore { dependencies.store }
    /// What a launch brings back (``ClientConfiguration/launchPolicy``).
    var launchPolicy: LaunchPolicy { dependencies.configuration.launchPolicy }
    /// Where the client's authenticators live (``ClientConfiguration/authenticators``).
    var authenticatorHome: any AuthenticatorHome { dependencies.authenticatorHome }
    /// Where `stored`'s authenticators live: the home it was registered in.
    func authenticatorHome(of stored: StoredProfile) -> any AuthenticatorHome { dependencies.authenticatorHome(of: stored) }
    /// Where warnings go.
    var logger: IdentityFlowLogger { dependencies.logger }

    /// Reads or changes the cache and the session under their lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result { dependencies.state.withLock { body(&$0.sessions) } }

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

    /// The PIN key of `profile`'s session, if it is the logged-in profile and logged in with the PIN.
    func sessionPinKey(for profile: UserProfile) -> ProvenPinKey {
        withState { $0.authenticatedProfile == profile ? $0.sessionPinKey : .none }
    }

    /// The logged-in profile's tokens.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in.
    func sessionTokens() throws(IdentityFlowError) -> TokenSet {
        guard let tokens = withState({ state in state.authenticatedProfile.flatMap { state.profiles[$0]?.tokens } }) else {
            throw IdentityFlowError(.userNotAuthenticated, "Authenticated requests need a logged-in user.")
        }
        return tokens
    }

    /// Saves changes to a stored profile (new tokens, a biometric key).
    func updateStoredProfile(_ profile: UserProfile, _ change: (inout StoredProfile) -> Void) throws(IdentityFlowError) {
        var stored = try storedProfile(profile)
        let tokens = stored.tokens
        change(&stored)
        if stored.tokens != tokens { try authenticatorHome(of: stored).sealTokens(of: &stored, key: sessionPinKey(for: profile)) }
        try store.save(stored)
        withState { $0.profiles[profile] = stored }
    }

    /// Stores `stored` with its new session and logs it in, keeping the PIN key that proved it.
    /// - Parameters:
    ///   - stored: The profile with the session's tokens.
    ///   - pinKey: The key that proved the session.
    ///   - endingStateless: Whether a stateless profile logged in now ends (it is forgotten).
    /// - Returns: The tokens of the stateless profile that ended, to revoke.
    /// - Throws: The storage's errors; then nothing changed in memory.
    func logIn(_ stored: StoredProfile, pinKey: ProvenPinKey, endingStateless: Bool = false) throws(IdentityFlowError) -> TokenSet? {
        var stored = stored
        try keepForNextLaunch(&stored, pinKey: pinKey)
        try authenticatorHome(of: stored).sealTokens(of: &stored, key: pinKey)
        try store.save(stored)
        return withState { state -> TokenSet? in
            let previous =
                endingStateless
                ? state.authenticatedProfile.flatMap { $0.isStateless && $0 != stored.profile ? state.profiles.removeValue(forKey: $0) : nil } : nil
            state.profiles[stored.profile] = stored
            state.authenticatedProfile = stored.profile
            state.sessionPinKey = pinKey
            return previous?.tokens
        }
    }

    /// Removes a profile and everything of it from this device.
    func deleteProfileLocally(_ profile: UserProfile) throws(IdentityFlowError) {
        try store.delete(profile)
        withState { state in
            state.profiles[profile] = nil
            if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
        }
    }

    /// Deletes a profile from the device; a storage failure is logged and the profile is forgotten all the same.
    func forgetProfile(_ profile: UserProfile, flow: FlowID?) {
        do { try deleteProfileLocally(profile) } catch {
            withState { state in
                state.profiles[profile] = nil
                if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
            }
            logger.log(.error, "Could not delete the deregistered profile's stored data: \(error)", flow: flow)
        }
    }

    /// Ends the session of the authenticated profile on this device; returns its tokens to revoke,
    /// `nil` for a device-mode profile (``AuthenticatorHome/revokesTokensAtLogout``). A stateless
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
            if var kept = state.profiles[profile] {
                authenticatorHome(of: kept).forgetLiveTokens(of: &kept)
                state.profiles[profile] = kept
            }
            return (stored, key)
        }
        guard let (stored, key) = ended else { return nil }
        closeSession(of: stored, key: key)
        return (stored.profile, authenticatorHome(of: stored).revokesTokensAtLogout ? stored.tokens : nil)
    }

    // MARK: - The launch policy

    /// Keeps a new session for the next launch when the policy says so: the profile's
    /// ``AuthenticatorHome`` gives the resume key (on the device, after wrapping the vault key
    /// under it) and the one resume record names this profile in place of the previous one, a
    /// single write whatever the number of profiles. A session kept for nobody removes the record.
    func keepForNextLaunch(_ stored: inout StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        guard launchPolicy == .resumeLastUser, !stored.profile.isStateless else { return }
        if let resumeKey = try authenticatorHome(of: stored).keepForNextLaunch(&stored, pinKey: pinKey) {
            try store.saveResumeRecord(resumeKey, for: stored.profile)
        } else {
            try? store.deleteResumeRecord()
        }
    }

    /// After a session ended on this device: the resume record is removed when it names the
    /// profile, and the profile's ``AuthenticatorHome`` closes what it keeps (on the device, the
    /// vault keeps the refresh token sealed with the access token forgotten and no resume wrap).
    func closeSession(of stored: StoredProfile, key: ProvenPinKey) {
        try? store.deleteResumeRecord(of: stored.profile)
        authenticatorHome(of: stored).sessionEnded(stored, key: key)
    }
}
