import Foundation

/// The claims of a validated OpenID Connect ID token.
///
/// ``HTTPIdentityService`` validates every ID token it receives (signature, issuer, audience,
/// times, nonce) before it hands out tokens; call ``HTTPIdentityService/validateIdToken(_:nonce:)``
/// to read the claims of one you hold. Descriptions, debug descriptions and `dump` name the
/// subject and issuer only: the other claims (e-mail, name, nonce, anything the provider adds)
/// describe the user or bind the token, so they print as `<redacted>`.
package struct IdTokenInfo: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `sub`: the user's identifier at the issuer.
    package let subject: String
    /// `iss`: the issuer.
    package let issuer: String
    /// `aud`: the audiences (the client id among them).
    package let audiences: [String]
    /// `azp`: the authorized party, when present.
    package let authorizedParty: String?
    /// `exp`: when the token expires.
    package let expiresAt: Date
    /// `iat`: when it was issued.
    package let issuedAt: Date
    /// `nbf`: when it becomes valid, when present.
    package let notBefore: Date?
    /// `nonce`, when present.
    package let nonce: String?
    /// `email`, when present.
    package let email: String?
    /// `name`, when present.
    package let name: String?
    /// Every claim, as sent.
    package let claims: [String: JSONValue]

    /// Reads the registered claims from a claims set.
    /// - Parameter claims: The token's claims.
    /// - Throws: ``ErrorCode/invalidServerResponse`` when `sub`, `iss`, `aud`, `exp` or `iat` is
    ///   missing or of the wrong type.
    package init(claims: [String: JSONValue]) throws(IdentityFlowError) {
        func invalid(_ claim: String) -> IdentityFlowError {
            IdentityFlowError(.invalidServerResponse, "The ID token's '\(claim)' claim is missing or malformed.")
        }
        func date(_ claim: String) -> Date? { claims[claim]?.doubleValue.map(Date.init(timeIntervalSince1970:)) }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw invalid("sub") }
        guard let issuer = claims["iss"]?.stringValue else { throw invalid("iss") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let audience): audiences = [audience]
        case .array(let values) where !values.isEmpty && values.allSatisfy({ $0.stringValue != nil }): audiences = values.compactMap(\.stringValue)
        default: throw invalid("aud")
        }
        guard let expiresAt = date("exp") else { throw invalid("exp") }
        guard let issuedAt = date("iat") else { throw invalid("iat") }
        if claims["nbf"] != nil, date("nbf") == nil { throw invalid("nbf") }
        self.subject = subject
        self.issuer = issuer
        self.audiences = audiences
        self.authorizedParty = claims["azp"]?.stringValue
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.notBefore = date("nbf")
        self.nonce = claims["nonce"]?.stringValue
        self.email = claims["email"]?.stringValue
        self.name = claims["name"]?.stringValue
        self.claims = claims
    }

    /// `IdTokenInfo(sub: <subject>, iss: <issuer>)`.
    package var description: String { "IdTokenInfo(sub: \(subject), iss: \(issuer))" }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// `sub` and `iss`; every other claim `<redacted>`.
    package var customMirror: Mirror {
        Mirror(self, children: ["subject": subject, "issuer": issuer, "claims": "<redacted>"], displayStyle: .struct)
    }
}
