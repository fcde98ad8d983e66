/// What a session end leaves of a profile's sign-in at the provider
/// (`docs/device-authenticators.md`, "What a session end does").
///
/// In server mode each login opens a sign-in of its own, so both are the same. In device mode the
/// vault holds the profile's one sign-in: ``signInKept`` keeps its refresh token sealed for the
/// next PIN login; ``signInEnded`` drops it, and the next PIN login fails with
/// ``ErrorCode/signInEnded`` and removes the profile, before any API call.
enum SessionEnd: Sendable, Hashable {
    /// The user leaves; the sign-in outlives the session (a logout; a refresh that failed for a
    /// reason other than the grant).
    case signInKept
    /// The provider no longer honours the sign-in (a provider logout; a refresh refused with
    /// `invalid_grant`, without a refresh token, or answered for someone else).
    case signInEnded
}

/// A session that has just ended on this device.
struct EndedSession: Sendable {
    /// Whose session it was.
    let profile: UserProfile
    /// Its last tokens.
    let tokens: TokenSet
    /// Whether a logout revokes them (``AuthenticatorHome/revokesTokensAtLogout``).
    let revokesTokensAtLogout: Bool
}
