/// An access token obtained by implicit authentication: no user interaction, only the scopes
/// the server marks implicit. It does not log the user in.
public struct ImplicitAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// The profile.
    public let profile: UserProfile
    /// The token, for the implicit scopes only.
    public let tokens: TokenSet

    /// Wraps the tokens.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - tokens: Its implicit tokens.
    public init(profile: UserProfile, tokens: TokenSet) {
        self.profile = profile
        self.tokens = tokens
    }

    /// Names the profile and scopes; no token.
    public var description: String { "ImplicitAuthentication(\(profile.profileId), scopes: \(tokens.scopes))" }
}
