import Foundation
@_spi(Integrator) @testable import IdentityFlow

/// Signs ID tokens with ES256 at test time (the P-256 arithmetic of ``DeviceKey``), for tests
/// whose tokens must carry the current time or a nonce only known while the test runs.
struct ES256TokenSigner: Sendable {
    let keyID: String
    let key: DeviceKey

    init(keyID: String = "es256-test-key", seed: UInt8 = 7) {
        self.keyID = keyID
        key = DeviceKey(keyMaterial: [UInt8](repeating: seed, count: DeviceKey.keyMaterialLength))
    }

    /// The JWKS holding the public key.
    var jwks: String {
        let point = key.publicKey
        return #"{"keys": [{"kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": "\#(keyID)", "#
            + #""x": "\#(Base64URL.encode(Array(point[1..<33])))", "y": "\#(Base64URL.encode(Array(point[33..<65])))"}]}"#
    }

    /// A compact ES256 token with these claims.
    func token(_ claims: [String: Any]) -> String {
        func part(_ object: [String: Any]) -> String {
            Base64URL.encode(Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()))
        }
        let signingInput = part(["alg": "ES256", "kid": keyID, "typ": "JWT"]) + "." + part(claims)
        return signingInput + "." + Base64URL.encode(key.sign(Array(signingInput.utf8)))
    }

    /// An ID token for `subject`, issued now and valid for five minutes.
    func idToken(issuer: String, clientID: String, subject: String, nonce: String?, now: Date = Date()) -> String {
        var claims: [String: Any] = [
            "iss": issuer, "aud": clientID, "sub": subject, "iat": Int(now.timeIntervalSince1970),
            "exp": Int(now.timeIntervalSince1970) + 300,
        ]
        if let nonce { claims["nonce"] = nonce }
        return token(claims)
    }
}
