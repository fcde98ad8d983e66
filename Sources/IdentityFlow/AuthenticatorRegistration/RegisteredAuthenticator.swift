/// What a successful authenticator registration registered, as ``ChallengeResponder/flowEnded(_:)`` is told.
public struct RegisteredAuthenticator: Sendable, Hashable {
    /// The authenticator registered.
    public let authenticator: Authenticator
    /// The profile it was registered for.
    public let profile: UserProfile
}
