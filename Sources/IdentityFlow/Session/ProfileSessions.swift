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
        /// The logged-in profile. Whenever it changes, the session's PIN key is forgotten; whenever
        /// it is set, a new session number begins.
        var authenticatedProfile: UserProfile? {
            didSet {
                sessionNumber &+= 1
                if authenticatedProfile != oldValue { sessionPinKey = .none }
            }
        }
        /// The key that proved the PIN for the logged-in profile's session (in memory only), so
        /// that the session can prove the PIN for a credential change; `.none` after a biometric
        /// login or without a session.
        var sessionPinKey: ProvenPinKey = .none
        /// The current session's number: a new one at every login, resumed session and end, so
        /// that a token write for a session that has ended since, even one of the same profile,
        /// is told from a write for the current one.
        private(set) var sessionNumber: UInt64 = 0
        /// The kinds of revocation failure already logged as a warning (``SessionSteps/revokeUnused(_:proofKey:flow:)``).
        var revocationFailuresLogged: Set<String> = []
        /// DPoP keys loaded from their items (server mode) or kept from a stateless registration
        /// (``dpopKey(for:)``); a device-mode key is opened from the vault for each use.
        var dpopKeys: [UserProfile: DPoPKey] = [:]
        /// The last `DPoP-Nonce` of each resource server origin.
        var dpopNonces: [String: String] = [:]
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

    /// Runs one write of a profile's token set (the check of its session, the storage write, the
    /// cache's update) with no other such write in between: under a lock of its own, so that the
    /// host's storage, which may call the client back, runs outside the cache's lock. `body` must
    /// not start another write.
    func writing<Result>(_ body: () throws(IdentityFlowError) -> Result) throws(IdentityFlowError) -> Result {
        try dependencies.sessionWrites.withLock { _ throws(IdentityFlowError) in try body() }
    }

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

    /// Saves changes to a stored profile (new tokens, a biometric key): read, changed, sealed and
    /// written as one token write (``writing(_:)``), so that no other write (a refresh landing, a
    /// session end) falls between the read and the write and is lost.
    func updateStoredProfile(_ profile: UserProfile, _ change: (inout StoredProfile) -> Void) throws(IdentityFlowError) {
        try writing { () throws(IdentityFlowError) in
            var stored = try storedProfile(profile)
            let tokens = stored.tokens
            change(&stored)
            if stored.tokens != tokens { try authenticatorHome(of: stored).sealTokens(of: &stored, key: sessionPinKey(for: profile)) }
            try store.save(stored)
            withState { $0.profiles[profile] = stored }
        }
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
        let home = authenticatorHome(of: stored)
        return try writing { () throws(IdentityFlowError) -> TokenSet? in
            // A refresh of an ended session may have sealed a newer sign-in since this login
            // opened the vault: it is taken, not overwritten.
            if let latest = withState({ $0.profiles[stored.profile] }) { home.adoptNewerSignIn(from: latest, into: &stored, key: pinKey) }
            try home.sealTokens(of: &stored, key: pinKey)
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
    }

    /// Removes a profile and everything of it from this device, under the cache's lock (a refresh
    /// landing later finds it gone and writes nothing back).
    func deleteProfileLocally(_ profile: UserProfile) throws(IdentityFlowError) {
        try writing { () throws(IdentityFlowError) in
            try store.delete(profile)
            withState { state in
                state.profiles[profile] = nil
                state.dpopKeys[profile] = nil
                if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
            }
        }
    }

    /// Deletes a profile from the device; a storage failure is logged and the profile is forgotten all the same.
    func forgetProfile(_ profile: UserProfile, flow: FlowID?) {
        do { try deleteProfileLocally(profile) } catch {
            withState { state in
                state.profiles[profile] = nil
                state.dpopKeys[profile] = nil
                if state.authenticatedProfile == profile { state.authenticatedProfile = nil }
            }
            logger.log(.error, "Could not delete the deregistered profile's stored data: \(error)", flow: flow)
        }
    }

    /// Ends the session of the authenticated profile on this device, as `end` says
    /// (``SessionEnd``), as one token write (``writing(_:)``). A stateless profile ends with its
    /// session: it is forgotten.
    /// - Parameter end: Whether the profile's sign-in at the provider outlives the session.
    /// - Returns: The profile and the session's last tokens, or `nil` when nobody was logged in.
    @discardableResult
    func endSessionLocally(_ end: SessionEnd = .signInKept) -> EndedSession? {
        closeSession(end) { state in state.authenticatedProfile }
    }

    /// Ends `session` as `end` says, if it is still the current session (a refresh refused).
    /// - Returns: Whether it was, and has ended now.
    func endSession(_ session: SessionHandle, _ end: SessionEnd) -> Bool {
        closeSession(end) { state in
            state.sessionNumber == session.number && state.authenticatedProfile == session.profile ? session.profile : nil
        } != nil
    }

    /// Logs out the profile `current` names, if any, and writes what its ``AuthenticatorHome``
    /// keeps of the session (``AuthenticatorHome/closeSession(of:key:_:)``), as one token write,
    /// so that a refresh answer landing later finds the session ended and the profile as it was
    /// left. The resume item goes.
    private func closeSession(_ end: SessionEnd, current: (State) -> UserProfile?) -> EndedSession? {
        let ended = try? writing { () -> EndedSession? in
            let closing = withState { state -> (StoredProfile, ProvenPinKey)? in
                guard let profile = current(state) else { return nil }
                defer { state.authenticatedProfile = nil }
                guard let stored = state.profiles[profile] else { return nil }
                if profile.isStateless {
                    state.profiles[profile] = nil
                    state.dpopKeys[profile] = nil
                }
                return (stored, state.sessionPinKey)
            }
            guard let (stored, key) = closing else { return nil }
            let home = authenticatorHome(of: stored)
            if !stored.profile.isStateless {
                var kept = stored
                do throws(IdentityFlowError) {
                    if try home.closeSession(of: &kept, key: key, end) { try store.save(kept) }
                } catch {
                    kept = stored
                    logger.log(.warning, "Could not seal the ended session's sign-in: \(error)", flow: nil)
                }
                home.forgetLiveTokens(of: &kept)
                withState { state in
                    if state.profiles[kept.profile] != nil, state.authenticatedProfile != kept.profile { state.profiles[kept.profile] = kept }
                }
            }
            return EndedSession(profile: stored.profile, tokens: stored.tokens, revokesTokensAtLogout: home.revokesTokensAtLogout)
        }
        guard let ended else { return nil }
        try? store.deleteResumeRecord(of: ended.profile)
        return ended
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
}
