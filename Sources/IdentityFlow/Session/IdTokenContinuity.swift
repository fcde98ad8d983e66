import Foundation

/// OpenID Connect Core §12.2: an ID token from a refresh must name the same issuer, subject and
/// audience as the one the session began with. The service validated both tokens' signatures
/// when it received them; this compares their claims.
enum IdTokenContinuity {
    /// Why `refreshed` may not follow `previous`, or `nil` when it may (or either is absent).
    /// - Parameters:
    ///   - previous: The session's ID token.
    ///   - refreshed: The ID token the refresh returned.
    /// - Returns: A message naming the claim that differs (never a token).
    static func problem(previous: Redacted<String>?, refreshed: Redacted<String>?) -> String? {
        guard let previous, let refreshed else { return nil }
        guard let before = claims(previous), let after = claims(refreshed) else {
            return "an ID token of the session could not be read"
        }
        if !same(before["iss"], after["iss"]) { return "the refreshed ID token names another issuer" }
        if !same(before["sub"], after["sub"]) { return "the refreshed ID token names another subject" }
        guard let was = audiences(before), let now = audiences(after), was == now else {
            return "the refreshed ID token names another audience"
        }
        return nil
    }

    private static func claims(_ token: Redacted<String>) -> [String: JSONValue]? {
        try? JSONWebToken(compact: token.value).claims
    }

    private static func same(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        guard let a = a?.stringValue, let b = b?.stringValue else { return false }
        return a.hasSameBytes(as: b)
    }

    /// The audiences as a set of byte strings (order does not matter; spelling does).
    private static func audiences(_ claims: [String: JSONValue]) -> Set<[UInt8]>? {
        switch claims["aud"] {
        case .string(let audience)?: [Array(audience.utf8)]
        case .array(let values)?: Set(values.compactMap { $0.stringValue.map { Array($0.utf8) } })
        default: nil
        }
    }
}
