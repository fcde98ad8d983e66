/// A Proof Key for Code Exchange pair (RFC 7636) using the `S256` method.
///
/// Send ``challenge`` and ``method`` with the authorization request and ``verifier`` with the
/// token request. The verifier is a secret: it prints as `<redacted>` in `description`,
/// `debugDescription`, `Mirror` and `dump`.
///
/// ```swift
/// let pkce = try PKCE.generate()
/// query["code_challenge"] = pkce.challenge
/// query["code_challenge_method"] = pkce.method     // "S256"
/// // later, in the token request:
/// form["code_verifier"] = pkce.verifier
/// ```
package struct PKCE: Sendable, Equatable {
    /// The code verifier: 43 to 128 characters from `A–Z a–z 0–9 - . _ ~`. Secret.
    package let verifier: String

    /// The code challenge: `BASE64URL(SHA256(ASCII(verifier)))` without padding.
    package let challenge: String

    /// The challenge method, always `"S256"`.
    package let method: String

    /// The number of random bytes behind a generated verifier (256 bits, 43 characters).
    package static let verifierEntropyByteCount = 32

    /// Creates the pair for an existing verifier, computing its `S256` challenge.
    /// - Parameter verifier: A code verifier of 43 to 128 unreserved characters
    ///   (`A–Z a–z 0–9 - . _ ~`, RFC 7636 §4.1).
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when the verifier
    ///   has the wrong length or a character outside that set.
    package init(verifier: String) throws {
        let characters = Array(verifier.utf8)
        guard (43...128).contains(characters.count), characters.allSatisfy(Self.isUnreserved) else {
            throw CryptoError(.invalidArgument, reason: "PKCE verifier must be 43-128 unreserved characters")
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
        self.method = "S256"
    }

    /// Generates a fresh pair from 32 secure random bytes (a 43-character verifier).
    /// - Returns: The verifier, its `S256` challenge and the method.
    /// - Throws: ``CryptoError`` if the secure random generator fails.
    package static func generate() throws -> PKCE {
        try PKCE(verifier: SecureRandom.token(byteCount: verifierEntropyByteCount))
    }

    /// Computes the `S256` code challenge of a verifier (RFC 7636 §4.2).
    /// - Parameter verifier: The code verifier.
    /// - Returns: `BASE64URL(SHA256(ASCII(verifier)))` without padding.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(Hashing.sha256(verifier))
    }

    private static func isUnreserved(_ character: UInt8) -> Bool {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}

// MARK: - Redaction

extension PKCE: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The pair with the verifier shown as `<redacted>`.
    package var description: String {
        "PKCE(verifier: <redacted>, challenge: \(challenge), method: \(method))"
    }

    /// The pair with the verifier shown as `<redacted>`.
    package var debugDescription: String { description }

    /// A mirror whose `verifier` child is the string `<redacted>`, so `dump` and reflection
    /// never reveal the secret.
    package var customMirror: Mirror {
        Mirror(self, children: ["verifier": "<redacted>", "challenge": challenge, "method": method], displayStyle: .struct)
    }
}
