import Foundation

/// The tokens a server issued for a profile. Every token is ``Redacted``.
public struct TokenSet: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The access token sent with API requests.
    public var accessToken: Redacted<String>
    /// The refresh token, if the server issued one.
    public var refreshToken: Redacted<String>?
    /// The OpenID Connect ID token, if any.
    public var idToken: Redacted<String>?
    /// When the access token expires, if the server said.
    public var expiresAt: Date?
    /// The scopes granted.
    public var scopes: [String]

    /// Creates a token set.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - idToken: The ID token.
    ///   - expiresAt: When the access token expires.
    ///   - scopes: The scopes granted.
    public init(accessToken: String, refreshToken: String? = nil, idToken: String? = nil, expiresAt: Date? = nil, scopes: [String] = []) {
        self.accessToken = Redacted(accessToken)
        self.refreshToken = refreshToken.map(Redacted.init)
        self.idToken = idToken.map(Redacted.init)
        self.expiresAt = expiresAt
        self.scopes = scopes
    }

    /// Whether the access token is still valid at `date`, allowing `leeway` before expiry.
    /// - Parameters:
    ///   - date: The moment to check.
    ///   - leeway: How long before expiry the token already counts as expired.
    /// - Returns: `true` when no expiry is known or it lies after `date + leeway`.
    public func isAccessTokenValid(at date: Date, leeway: TimeInterval = 0) -> Bool {
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
