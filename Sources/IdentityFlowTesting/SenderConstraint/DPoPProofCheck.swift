import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// What the reference servers check in a DPoP proof (RFC 9449 §4.3), as a real provider or
/// resource server would: the JWT's shape, `typ` `dpop+jwt`, `alg` `ES256`, a public P-256 `jwk`
/// (no private member) whose key made the signature, `htm` and `htu` (compared without query and
/// fragment), `iat` within ``DPoPProofCheck/window`` of the server's clock, a `jti` never seen
/// before, `ath` when an access token goes with it, and the server's nonce when it asks for one.
package struct DPoPProofCheck: Sendable {
    /// How far `iat` may lie from the server's clock, either way.
    static let window: TimeInterval = 60

    /// The `DPoP` header's value.
    let proof: String
    /// The request's method.
    let method: String
    /// The request's URL.
    let url: URL
    /// The access token the proof must name (`ath`), for a resource request or userinfo.
    let accessToken: String?
    /// The nonce the server asks for; `nil` when it asks for none.
    let nonce: String?

    /// A check of one request's proof.
    package init(proof: String, method: String, url: URL, accessToken: String? = nil, nonce: String? = nil) {
        self.proof = proof
        self.method = method
        self.url = url
        self.accessToken = accessToken
        self.nonce = nonce
    }

    /// Why a proof was refused, for the error and the resource server's answer.
    package enum Refusal: Error, Equatable {
        /// A malformed, wrongly signed, stale or replayed proof (`invalid_dpop_proof`).
        case invalidProof(String)
        /// A proof without the server's current nonce (`use_dpop_nonce`).
        case nonceRequired
    }

    /// Verifies the proof and records its `jti` in `seen` (a replay cache with each entry's expiry).
    /// - Parameters:
    ///   - now: The server's clock.
    ///   - seen: The `jti` values of proofs accepted so far; expired entries are dropped here.
    /// - Returns: The thumbprint (RFC 7638) of the proof's key.
    /// - Throws: The ``Refusal``.
    package func verify(at now: Date, seen: inout [String: Date]) throws(Refusal) -> String {
        guard let token = try? JSONWebToken(compact: proof) else { throw .invalidProof("The DPoP proof is not a compact JWS.") }
        guard token.header["typ"]?.stringValue == "dpop+jwt" else { throw .invalidProof("The DPoP proof's typ is not dpop+jwt.") }
        guard let jwk = token.header["jwk"]?.objectValue, let (publicKey, thumbprint) = Self.publicKey(of: jwk) else {
            throw .invalidProof("The DPoP proof's jwk is not a public P-256 key.")
        }
        guard token.verifyES256(with: publicKey) else { throw .invalidProof("The DPoP proof's ES256 signature does not verify with its jwk.") }
        guard token.claims["htm"]?.stringValue == method else { throw .invalidProof("The DPoP proof's htm is not the request's method.") }
        guard let htu = token.claims["htu"]?.stringValue.flatMap(URL.init(string:)), Self.target(of: htu) == Self.target(of: url) else {
            throw .invalidProof("The DPoP proof's htu is not the request's URL.")
        }
        guard let iat = token.claims["iat"]?.doubleValue, abs(iat - now.timeIntervalSince1970) <= Self.window else {
            throw .invalidProof("The DPoP proof's iat is outside the server's window.")
        }
        if let accessToken {
            guard token.claims["ath"]?.stringValue == Base64URL.encode(Hashing.sha256(accessToken)) else {
                throw .invalidProof("The DPoP proof's ath is not the hash of the access token it came with.")
            }
        }
        if let nonce, token.claims["nonce"]?.stringValue != nonce { throw .nonceRequired }
        guard let jti = token.claims["jti"]?.stringValue, !jti.isEmpty else { throw .invalidProof("The DPoP proof has no jti.") }
        seen = seen.filter { $0.value > now }
        guard seen[jti] == nil else { throw .invalidProof("The DPoP proof was used before (its jti is known).") }
        seen[jti] = now.addingTimeInterval(2 * Self.window)
        return thumbprint
    }

    /// The SEC1 point and RFC 7638 thumbprint of a public P-256 `jwk`; `nil` for anything else
    /// (another curve, a private member `d`, coordinates of the wrong length or off the curve).
    static func publicKey(of jwk: [String: JSONValue]) -> ([UInt8], String)? {
        guard jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256", jwk["d"] == nil,
            let xText = jwk["x"]?.stringValue, let yText = jwk["y"]?.stringValue,
            let x = Base64URL.decode(xText), let y = Base64URL.decode(yText), x.count == 32, y.count == 32
        else { return nil }
        let point = [0x04] + x + y
        guard DeviceKey.isValidPublicKey(point) else { return nil }
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + xText + #"","y":""# + yText + #""}"#
        return (point, Base64URL.encode(Hashing.sha256(canonical)))
    }

    /// A URL as `htu` names it: scheme and host lowercased, no query, no fragment.
    static func target(of url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.query = nil
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if components.path.isEmpty { components.path = "/" }
        return components.string
    }
}
