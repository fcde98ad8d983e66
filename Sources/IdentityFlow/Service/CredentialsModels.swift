/// What the server made of a login and password (the password grant) or of another provider's
/// token (token exchange).
@_spi(Integrator) public enum CredentialsOutcome: Sendable, Hashable {
    /// Signed in: the user's tokens.
    case granted(TokenSet)
    /// The login or password is wrong (or the other provider's token is refused).
    case invalid
    /// The user must act in the browser first (consents, say): continue there with this token,
    /// which signs the user in without asking again (7Pass's `interaction_required`).
    case interactionRequired(autologinToken: Redacted<String>)
}

/// A token another provider issued (Google, Facebook, ...), for social login by token exchange
/// (RFC 8693).
public struct ExternalToken: Sendable, Hashable, CustomStringConvertible {
    /// The provider that issued it, as the server names it (`google`, `facebook`).
    public let provider: String
    /// The token.
    public let token: Redacted<String>
    /// Its RFC 8693 type: `urn:ietf:params:oauth:token-type:access_token` (default) or `...:id_token`.
    public let tokenType: String

    /// An access token (or another type) from `provider`.
    /// - Parameters:
    ///   - provider: The issuing provider's name.
    ///   - token: The token.
    ///   - tokenType: Its RFC 8693 token type URI.
    public init(provider: String, token: String, tokenType: String = "urn:ietf:params:oauth:token-type:access_token") {
        self.provider = provider
        self.token = Redacted(token)
        self.tokenType = tokenType
    }

    /// Names the provider; the token is left out.
    public var description: String { "ExternalToken(\(provider), <redacted>)" }
}
