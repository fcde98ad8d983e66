import Foundation

/// Who the user is, by the claims of the session's validated OpenID Connect ID token.
///
/// The identity service validated the token when it received it (signature, issuer, audience,
/// times, nonce: see `HTTPIdentityService`); these are its claims. The standard claims are
/// typed; every claim, including those the provider adds, is reachable by name as a ``Value``:
///
/// ```swift
/// if let claims = client.identityClaims {
///     greeting.text = "Hello, \(claims.givenName ?? claims.name ?? "there")"
///     let department = claims["department"]?.stringValue
/// }
/// ```
///
/// The claims describe a person: descriptions, debug descriptions and `dump` show the issuer
/// and the number of claims only; every value prints as `<redacted>`.
public struct IdentityClaims: StandardClaims, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A claim's value, as JSON has it.
    public enum Value: Sendable, Hashable {
        /// A string.
        case string(String)
        /// A number.
        case number(Double)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
        /// An array.
        case array([Value])
        /// An object.
        case object([String: Value])

        /// The string, or `nil` for any other kind.
        public var stringValue: String? {
            if case .string(let value) = self { return value }
            return nil
        }

        /// The number, or `nil` for any other kind.
        public var doubleValue: Double? {
            if case .number(let value) = self { return value }
            return nil
        }

        /// The Boolean, or `nil` for any other kind.
        public var boolValue: Bool? {
            if case .bool(let value) = self { return value }
            return nil
        }

        /// The elements, or `nil` for any other kind.
        public var arrayValue: [Value]? {
            if case .array(let value) = self { return value }
            return nil
        }

        /// The members, or `nil` for any other kind.
        public var objectValue: [String: Value]? {
            if case .object(let value) = self { return value }
            return nil
        }

        init(_ json: JSONValue) {
            switch json {
            case .string(let value): self = .string(value)
            case .number(let value): self = .number(value)
            case .bool(let value): self = .bool(value)
            case .null: self = .null
            case .array(let values): self = .array(values.map(Value.init))
            case .object(let members): self = .object(members.mapValues(Value.init))
            }
        }

        var json: JSONValue {
            switch self {
            case .string(let value): .string(value)
            case .number(let value): .number(value)
            case .bool(let value): .bool(value)
            case .null: .null
            case .array(let values): .array(values.map(\.json))
            case .object(let members): .object(members.mapValues(\.json))
            }
        }
    }

    /// Every claim, as the provider sent it.
    public let all: [String: Value]

    // MARK: - Registered claims (always present in a validated ID token)

    /// `sub`: the user's identifier at the issuer, stable and unique there.
    public let subject: String
    /// `iss`: the issuer.
    public let issuer: String
    /// `aud`: the audiences; the client id is among them.
    public let audiences: [String]
    /// `exp`: when the ID token expires (not the session: see ``UserClient/accessTokenExpiresAt``).
    public let expiresAt: Date
    /// `iat`: when the ID token was issued.
    public let issuedAt: Date

    /// Creates claims from a claims set (a host's test doubles, or claims it validated itself).
    /// - Parameter claims: The claims; `sub`, `iss`, `aud`, `exp` and `iat` are required.
    /// - Throws: ``ErrorCode/invalidServerResponse`` when one of them is missing or of the wrong type.
    public init(claims: [String: Value]) throws(IdentityFlowError) {
        try self.init(json: claims.mapValues(\.json))
    }

    /// Reads the claims of an ID token's payload.
    init(json claims: [String: JSONValue]) throws(IdentityFlowError) {
        let info = try IdTokenInfo(claims: claims)
        subject = info.subject
        issuer = info.issuer
        audiences = info.audiences
        expiresAt = info.expiresAt
        issuedAt = info.issuedAt
        all = claims.mapValues(Value.init)
    }

    /// Reads the claims of a compact ID token the identity service validated when it received it.
    /// - Parameter idToken: The token.
    /// - Returns: The claims, or `nil` when the token cannot be read.
    static func of(_ idToken: Redacted<String>) -> IdentityClaims? {
        guard let token = try? JSONWebToken(compact: idToken.value) else { return nil }
        return try? IdentityClaims(json: token.claims)
    }

    // MARK: - Authentication

    /// `auth_time`: when the user last authenticated at the provider.
    public var authenticationTime: Date? { all["auth_time"]?.doubleValue.map(Date.init(timeIntervalSince1970:)) }
    /// `acr`: the authentication context class the sign-in satisfied.
    public var authenticationContextClass: String? { all["acr"]?.stringValue }
    /// `amr`: the authentication methods used (`pwd`, `otp`, `mfa`, ...).
    public var authenticationMethods: [String] { all["amr"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    /// `azp`: the party the token was issued to, when present.
    public var authorizedParty: String? { all["azp"]?.stringValue }

    // MARK: - Descriptions

    /// `IdentityClaims(iss: <issuer>, 12 claims, <redacted>)`: no value of a claim.
    public var description: String { "IdentityClaims(iss: \(issuer), \(all.count) claims, <redacted>)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The issuer and the claims' names; every value `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["issuer": issuer, "claims": all.keys.sorted(), "values": "<redacted>"], displayStyle: .struct)
    }
}
