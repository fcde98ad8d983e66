/// A session as a token write sees it: whose, which one (``ProfileSessions/State/sessionNumber``)
/// and the key that proved it.
struct SessionHandle: Sendable {
    /// The logged-in profile.
    let profile: UserProfile
    /// The session's number.
    let number: UInt64
    /// The key that proved the session.
    let key: ProvenPinKey
}

/// Where a refresh's answer went (``ProfileSessions/storeRefreshed(_:replacing:for:)``).
enum RefreshLanding: Sendable, Hashable {
    /// The session that asked for it, or a newer one holding the token it replaces, uses it.
    case stored
    /// Its session ended with the sign-in kept: it is sealed for the next login.
    case keptForNextLogin
    /// Nobody will use it (its sign-in ended, or its profile is gone): the caller revokes it.
    case orphaned
}

// Writes of a token set that check, under the cache's lock, that the session they belong to is
// still the current one (docs/device-authenticators.md, "What a session end does").
extension ProfileSessions {
    /// The logged-in session and its tokens, read together.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in.
    func currentSession() throws(IdentityFlowError) -> (SessionHandle, TokenSet) {
        let current = withState { state -> (SessionHandle, TokenSet)? in
            guard let profile = state.authenticatedProfile, let tokens = state.profiles[profile]?.tokens else { return nil }
            return (SessionHandle(profile: profile, number: state.sessionNumber, key: state.sessionPinKey), tokens)
        }
        guard let current else { throw IdentityFlowError(.userNotAuthenticated, "Authenticated requests need a logged-in user.") }
        return current
    }

    /// Stores a refresh's answer as one token write (``writing(_:)``): for `session` when it is
    /// still the current session (or a newer session of its profile still holds `spent`);
    /// otherwise where the profile's ``AuthenticatorHome`` keeps the ended session's sign-in
    /// (``AuthenticatorHome/keepLateRefresh(_:replacing:in:key:)``).
    /// - Parameters:
    ///   - fresh: The refresh's answer.
    ///   - spent: The refresh token it replaces.
    ///   - session: The session that asked for it.
    /// - Returns: Where it went; ``RefreshLanding/orphaned`` is for the caller to revoke.
    /// - Throws: The storage's errors; then nothing changed.
    func storeRefreshed(_ fresh: TokenSet, replacing spent: Redacted<String>, for session: SessionHandle) throws(IdentityFlowError) -> RefreshLanding {
        try writing { () throws(IdentityFlowError) -> RefreshLanding in
            let (found, liveKey) = withState { state -> (StoredProfile?, ProvenPinKey?) in
                guard let stored = state.profiles[session.profile] else { return (nil, nil) }
                let live = state.authenticatedProfile == session.profile && (state.sessionNumber == session.number || stored.tokens.refreshToken == spent)
                return (stored, live ? state.sessionPinKey : nil)
            }
            guard var stored = found else { return .orphaned }
            let home = authenticatorHome(of: stored)
            if let liveKey {
                stored.tokens = fresh
                try home.sealTokens(of: &stored, key: liveKey)
                try store.save(stored)
                withState { $0.profiles[session.profile] = stored }
                return .stored
            }
            guard try home.keepLateRefresh(fresh, replacing: spent, in: &stored, key: session.key) else { return .orphaned }
            try store.save(stored)
            withState { $0.profiles[session.profile] = stored }
            return .keptForNextLogin
        }
    }
}
