/// The claims the provider's userinfo endpoint returned for the session's user
/// (OpenID Connect Core §5.3), from ``UserClient/userInfo()``.
///
/// Its ``subject`` is the session's ID token's `sub`: an answer for anyone else is refused before
/// its claims are used. The standard claims are typed (``StandardClaims``); the rest are reachable
/// by name. Descriptions and `dump` show the number of claims only.
public struct UserInfo: StandardClaims, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `sub`: the user's identifier at the issuer, the same as ``IdentityClaims/subject``.
    public let subject: String
    /// Every claim, as the provider sent it.
    public let all: [String: IdentityClaims.Value]

    /// Creates userinfo claims (a host's test doubles, or an `IdentityService` of its own).
    /// - Parameter claims: The claims; `sub` is required.
    /// - Throws: ``ErrorCode/invalidServerResponse`` when `sub` is missing or not a string.
    public init(claims: [String: IdentityClaims.Value]) throws(IdentityFlowError) {
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw IdentityFlowError(.invalidServerResponse, "The userinfo answer has no 'sub'.")
        }
        self.subject = subject
        self.all = claims
    }

    /// `UserInfo(5 claims, <redacted>)`.
    public var description: String { "UserInfo(\(all.count) claims, <redacted>)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The claims' names; every value `<redacted>`.
    public var customMirror: Mirror { Mirror(self, children: ["claims": all.keys.sorted(), "values": "<redacted>"], displayStyle: .struct) }
}
