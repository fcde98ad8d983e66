import Foundation

/// The tokens a server issued for a profile. Every token is ``Redacted``.
public struct TokenSet: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The stored fields, encoded under the same keys as the properties.
    private struct Fields: Sendable, Hashable, Codable {
        var accessToken: Redacted<String>
        var refreshToken: Redacted<String>?
        var idToken: Redacted<String>?
        var expiresAt: Date?
        var scopes: [String]
        var tokenType: String?
    }

    /// One box, so the machines copy a token set with one retain.
    private var fields: Box<Fields>

    /// The access token sent with API requests.
    public var accessToken: Redacted<String> {
        get { fields.value.accessToken }
        set { fields = fields.replacing(\.accessToken, with: newValue) }
    }
    /// The refresh token, if the server issued one.
    public var refreshToken: Redacted<String>? {
        get { fields.value.refreshToken }
        set { fields = fields.replacing(\.refreshToken, with: newValue) }
    }
    /// The OpenID Connect ID token, if any.
    public var idToken: Redacted<String>? {
        get { fields.value.idToken }
        set { fields = fields.replacing(\.idToken, with: newValue) }
    }
    /// When the access token expires, if the server said.
    public var expiresAt: Date? {
        get { fields.value.expiresAt }
        set { fields = fields.replacing(\.expiresAt, with: newValue) }
    }
    /// The scopes granted.
    public var scopes: [String] {
        get { fields.value.scopes }
        set { fields = fields.replacing(\.scopes, with: newValue) }
    }
    /// The token response's `token_type` (`Bearer`, `DPoP`), or `nil` when it is unknown (a token
    /// set stored before IdentityFlow recorded it, or one made in code).
    public var tokenType: String? {
        get { fields.value.tokenType }
        set { fields = fields.replacing(\.tokenType, with: newValue) }
    }
    /// Whether the tokens are bound to the profile's DPoP key (`token_type` `DPoP`, RFC 9449):
    /// every use needs a proof by that key, so a copy of them alone is refused.
    public var isSenderConstrained: Bool { tokenType?.caseInsensitiveCompare("DPoP") == .orderedSame }

    /// Creates a token set.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - idToken: The ID token.
    ///   - expiresAt: When the access token expires.
    ///   - scopes: The scopes granted.
    public init(accessToken: String, refreshToken: String? = nil, idToken: String? = nil, expiresAt: Date? = nil, scopes: [String] = []) {
        fields = Box(
            Fields(
                accessToken: Redacted(accessToken), refreshToken: refreshToken.map(Redacted.init),
                idToken: idToken.map(Redacted.init), expiresAt: expiresAt, scopes: scopes))
    }

    /// Decodes a token set from the keys its properties are named after.
    public init(from decoder: any Decoder) throws { fields = Box(try Fields(from: decoder)) }

    /// Encodes the token set under the keys its properties are named after.
    public func encode(to encoder: any Encoder) throws { try fields.value.encode(to: encoder) }

    /// The set with its access and refresh tokens left out (the access token empty), the ID
    /// token kept: what a device-mode profile shows of its sealed set while logged out.
    package var withoutCredentials: TokenSet { TokenSet(accessToken: "", idToken: idToken?.value) }

    /// Whether the access token is still valid at `date`, allowing `leeway` before expiry.
    /// - Parameters:
    ///   - date: The moment to check.
    ///   - leeway: How long before expiry the token already counts as expired.
    /// - Returns: `true` when no expiry is known or it lies after `date + leeway`.
    package func isAccessTokenValid(at date: Date, leeway: TimeInterval = 0) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt > date.addingTimeInterval(leeway)
    }

    /// `TokenSet(access: <redacted>, refresh: <redacted>, ...)`.
    public var description: String {
        "TokenSet(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }
}

extension Redacted: Codable where Value: Codable {
    /// Decodes the secret from a single value.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Value.self))
    }

    /// Encodes the secret as a single value: use only for storage and the wire.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
