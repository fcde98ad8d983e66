import Foundation

/// A decoded compact JSON Web Signature (RFC 7515 §7.1), such as an OpenID Connect ID token.
///
/// Decoding checks the structure only: three base64url parts, and a header and claims set that
/// are JSON objects. It does not validate claims (issuer, audience, expiry, nonce); that is the
/// caller's job after ``verifyRSA(with:)``, ``verifyES256(with:)`` or ``verifyECDSA(with:)`` succeeds.
///
/// Tokens are secrets: `description`, `debugDescription` and `dump` show the algorithm and key
/// ID only.
///
/// ```swift
/// let token = try JSONWebToken(compact: idToken)
/// guard let kid = token.keyID, let key = keys[kid], token.verifyRSA(with: key) else { throw ... }
/// let subject = token.claims["sub"]?.stringValue
/// ```
package struct JSONWebToken: Sendable {
    /// The JOSE header (`alg`, `kid`, `typ`, ...).
    package let header: [String: JSONValue]

    /// The claims set (payload).
    package let claims: [String: JSONValue]

    /// The JWS signing input: the ASCII bytes of `BASE64URL(header) "." BASE64URL(payload)`.
    package let signingInput: [UInt8]

    /// The decoded signature bytes (empty for an unsecured token).
    package let signature: [UInt8]

    /// The header's `alg` member, if it is a string.
    package var algorithm: String? { header["alg"]?.stringValue }

    /// The header's `kid` member, if it is a string.
    package var keyID: String? { header["kid"]?.stringValue }

    /// The hash function of the header's `alg`, for the algorithms this type verifies: SHA-256 for
    /// `RS256`, `PS256` and `ES256`, SHA-384 for `RS384`, `PS384` and `ES384`, SHA-512 for `RS512`,
    /// `PS512` and `ES512`; `nil` for any other. It is also the hash of the ID token's `at_hash`
    /// (OpenID Connect Core §3.1.3.6).
    package var hashFunction: Hashing.Function? {
        algorithm == "ES256" ? .sha256 : rsaAlgorithm?.hash ?? ecdsaAlgorithm?.hash
    }

    /// The curve and hash of `ES384` and `ES512` (RFC 7518 §3.4); `nil` for any other `alg`.
    private var ecdsaAlgorithm: (curve: EllipticCurve, hash: Hashing.Function)? {
        switch algorithm {
        case "ES384": (.p384, .sha384)
        case "ES512": (.p521, .sha512)
        default: nil
        }
    }

    /// The signature scheme and hash of `RS256`, `RS384`, `RS512` (RFC 7518 §3.3) and `PS256`,
    /// `PS384`, `PS512` (§3.5); `nil` for any other `alg`.
    private var rsaAlgorithm: (scheme: RSAPublicKey.SignatureScheme, hash: Hashing.Function)? {
        switch algorithm {
        case "RS256": (.pkcs1v15, .sha256)
        case "RS384": (.pkcs1v15, .sha384)
        case "RS512": (.pkcs1v15, .sha512)
        case "PS256": (.pss, .sha256)
        case "PS384": (.pss, .sha384)
        case "PS512": (.pss, .sha512)
        default: nil
        }
    }

    /// Splits and decodes a compact JWS.
    /// - Parameter compact: The token, `header.payload.signature` in unpadded base64url.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/malformedToken`` when the token does
    ///   not have exactly three parts, a part is not unpadded base64url, or the header or payload
    ///   is not a JSON object.
    package init(compact: String) throws {
        // Split on the UTF-8 bytes: splitting the String walks grapheme clusters, and the token is
        // ASCII when it is valid at all.
        let utf8 = Array(compact.utf8)
        let dots = utf8.indices.filter { utf8[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else {
            throw CryptoError(.malformedToken, reason: "a compact JWS has 3 parts, found \(dots.count + 1)")
        }
        header = try Self.decodeObject(utf8[..<dots[0]], name: "header")
        claims = try Self.decodeObject(utf8[(dots[0] + 1)..<dots[1]], name: "payload")
        signature = try Self.decodePart(utf8[(dots[1] + 1)...], name: "signature")
        signingInput = Array(utf8[..<dots[1]])
    }

    /// Verifies the signature as `RS256` (RSASSA-PKCS1-v1_5 with SHA-256).
    ///
    /// Any other `alg` in the header, including `none`, `HS256` and `RS512`, is refused, so an
    /// attacker cannot downgrade the algorithm.
    /// - Parameter key: The issuer's RSA package key (usually chosen by ``keyID`` from its JWKS).
    /// - Returns: `true` only if `alg` is `RS256` and the signature is valid for the signing input.
    package func verifyRS256(with key: RSAPublicKey) -> Bool {
        algorithm == "RS256" && verifyRSA(with: key)
    }

    /// Verifies the signature as the RSA algorithm the header names: RSASSA-PKCS1-v1_5 for `RS256`,
    /// `RS384` and `RS512` (RFC 7518 §3.3), RSASSA-PSS for `PS256`, `PS384` and `PS512` (§3.5),
    /// with SHA-256, SHA-384 or SHA-512.
    ///
    /// The scheme and hash are the header's: a signature made with another hash fails (a
    /// `DigestInfo` names its hash, PSS hashes the message and its mask with it), and so does one
    /// made with the other scheme. Any other `alg`, including `none`, HMAC and the `ES` ones, is
    /// refused. Whether the key may be used with the header's `alg` is the caller's decision.
    /// - Parameter key: The issuer's RSA package key (usually chosen by ``keyID`` from its JWKS).
    /// - Returns: `true` only if `alg` is one of the six and the signature is valid for the signing
    ///   input with its scheme and hash.
    package func verifyRSA(with key: RSAPublicKey) -> Bool {
        guard let (scheme, hash) = rsaAlgorithm else { return false }
        return key.isValidSignature(signature, for: signingInput, hash: hash, scheme: scheme)
    }

    /// Verifies the signature as `ES256` (ECDSA on P-256 with SHA-256, RFC 7518 §3.4): 64 bytes,
    /// `r ‖ s`; the DER form some signers produce is refused, as the RFC requires.
    ///
    /// Any other `alg` in the header is refused, as for ``verifyRSA(with:)``.
    /// - Parameter publicKey: The issuer's P-256 key as a SEC1 uncompressed point.
    /// - Returns: `true` only if `alg` is `ES256` and the signature is valid for the signing input.
    package func verifyES256(with publicKey: [UInt8]) -> Bool {
        guard algorithm == "ES256", signature.count == 64 else { return false }
        return DeviceKey.verify(signature, of: signingInput, publicKey: publicKey)
    }

    /// Verifies the signature as `ES384` (ECDSA on P-384 with SHA-384) or `ES512` (P-521 with
    /// SHA-512), the one the header names (RFC 7518 §3.4): `r ‖ s`, 48 or 66 bytes each; the DER
    /// form is refused, as for ``verifyES256(with:)``.
    ///
    /// The header's `alg` must be the key's curve's: a P-384 key verifies `ES384` only, a P-521
    /// key `ES512` only. Any other `alg`, including `ES256`, RSA and HMAC ones, is refused.
    /// - Parameter key: The issuer's P-384 or P-521 key (usually chosen by ``keyID`` from its JWKS).
    /// - Returns: `true` only if `alg` is `ES384` or `ES512`, names the key's curve, and the
    ///   signature is valid for the signing input.
    func verifyECDSA(with key: ECDSAPublicKey) -> Bool {
        guard let (curve, hash) = ecdsaAlgorithm, curve == key.curve else { return false }
        return key.isValidSignature(signature, for: signingInput, hash: hash)
    }

    // MARK: - Decoding

    private static func decodePart(_ part: ArraySlice<UInt8>, name: String) throws -> [UInt8] {
        guard !part.contains(UInt8(ascii: "=")), let bytes = Base64URL.decode(utf8: part) else {
            throw CryptoError(.malformedToken, reason: "the JWS \(name) is not unpadded base64url")
        }
        return bytes
    }

    private static func decodeObject(_ part: ArraySlice<UInt8>, name: String) throws -> [String: JSONValue] {
        let bytes = try decodePart(part, name: name)
        guard let object = StrictJSONParser.parse(bytes)?.objectValue else {
            throw CryptoError(.malformedToken, reason: "the JWS \(name) is not a JSON object with unique member names")
        }
        return object
    }
}

// MARK: - Redaction

extension JSONWebToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The algorithm and key ID; claims and signature show as `<redacted>`.
    package var description: String {
        "JSONWebToken(alg: \(algorithm ?? "nil"), kid: \(keyID ?? "nil"), claims: <redacted>)"
    }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// A mirror with the algorithm and key ID only, so `dump` never reveals claims.
    package var customMirror: Mirror {
        Mirror(self, children: ["alg": algorithm ?? "nil", "kid": keyID ?? "nil", "claims": "<redacted>"], displayStyle: .struct)
    }
}
