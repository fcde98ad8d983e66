import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// ES384 and ES512 ID tokens (ECDSA on P-384 and P-521): what providers configured with EC keys of
/// those curves sign (Keycloak's ecdsa-generated keys, Ping, ForgeRock, Authlib when a client
/// registers `id_token_signed_response_alg` `ES384`).
@Suite("ID tokens signed ES384 and ES512")
struct IdTokenECDSATests {
    let vectors: ECIdTokenVectors

    init() throws { vectors = try ECIdTokenVectors.load() }

    @Test(
        "a P-384 key verifies ES384 and a P-521 key ES512, by kid or as the only key of the alg; high s verifies",
        arguments: [
            "es384_valid", "es512_valid", "es384_no_kid", "es512_no_kid", "es384_high_s", "es512_high_s", "es256_e3",
        ])
    func valid(_ name: String) async throws {
        let info = try await vectors.validate(name, jwks: vectors.jwksEC)
        #expect(info.subject == "user-1")
        #expect(info.issuer == vectors.shared.issuer)
    }

    @Test(
        "a bad signature is refused: another key, a tampered payload, the DER form, r or s out of 1...n-1, another alg's signature or hash",
        arguments: [
            "es384_wrong_key", "es512_wrong_key", "es384_tampered", "es512_tampered", "es384_der", "es512_der",
            "es384_r_zero", "es384_s_zero", "es512_r_zero", "es512_s_zero", "es384_r_n", "es384_s_n", "es512_r_n", "es512_s_n",
            "es512_r_plus_n", "es512_s_plus_n", "es384_signed_es256", "es384_signed_sha512",
        ])
    func badSignature(_ name: String) async throws {
        let error = try await vectors.refusal(name, jwks: vectors.jwksEC)
        #expect(error?.message.contains("signature is invalid") == true, "\(String(describing: error))")
        #expect(error.map { !$0.description.contains(vectors.tokens[name] ?? "-") } == true)
    }

    @Test(
        "a kid naming a key of another curve is refused before any signature check, saying so",
        arguments: [
            ("es512_q1_kid", "a key for ES384, not for the token's algorithm ES512"),
            ("es384_q2_kid", "a key for ES512, not for the token's algorithm ES384"),
            ("es384_e3_kid", "a key for ES256, not for the token's algorithm ES384"),
            ("es256_q1_kid", "a key for ES384, not for the token's algorithm ES256"),
        ])
    func otherCurve(_ name: String, _ message: String) async throws {
        let error = try await vectors.refusal(name, jwks: vectors.jwksEC)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("claims are checked after an ES384 signature: another issuer is refused")
    func claims() async throws {
        let error = try await vectors.refusal("es384_wrong_iss", jwks: vectors.jwksEC)
        #expect(error?.message.contains("its issuer is not") == true, "\(String(describing: error))")
    }

    @Test("without kid, the JWKS must hold exactly one key able to verify the alg: q1 and q3 both verify ES384")
    func withoutKid() async throws {
        let error = try await vectors.refusal("es384_no_kid", jwks: vectors.jwksTwoP384)
        #expect(error?.message.contains("does not hold exactly one ES384 key") == true, "\(String(describing: error))")
        // q2, the only P-521 key there, is still found without a kid.
        #expect(try await vectors.validate("es512_no_kid", jwks: vectors.jwksTwoP384).subject == "user-1")
    }

    @Test(
        "a JWKS entry off its curve, or with a coordinate not below p, is passed over: its kid is as good as absent",
        arguments: [
            ("es384_valid", "q1-off-curve"), ("es512_valid", "q2-off-curve"), ("es512_valid", "q2-y-plus-p"),
        ])
    func unusableKey(_ name: String, _ kid: String) async throws {
        // The edge-case entry takes the kid of the key that signed the token.
        var jwks = try #require(try JSONSerialization.jsonObject(with: Data(vectors.jwksEdgeCases.utf8)) as? [String: [[String: String]]])
        let index = try #require(jwks["keys"]?.firstIndex { $0["kid"] == kid })
        jwks["keys"]?[index]["kid"] = name == "es384_valid" ? "q1" : "q2"
        let renamed = String(decoding: try JSONSerialization.data(withJSONObject: jwks), as: UTF8.self)
        let error = try await vectors.refusal(name, jwks: renamed)
        #expect(error?.message.contains("kid is not in the provider's JWKS") == true, "\(String(describing: error))")
    }

    @Test("at_hash is the left half of the alg's hash: SHA-384 for ES384, SHA-512 for ES512", arguments: ["es384_at_hash", "es512_at_hash"])
    func accessTokenHash(_ name: String) async throws {
        _ = try await vectors.validate(name, jwks: vectors.jwksEC, accessToken: "at-1")
        let error = try await vectors.refusal(name, jwks: vectors.jwksEC, accessToken: "at-2")
        #expect(error?.message.contains("at_hash") == true)
    }

    @Test("an at_hash made with another hash than the alg's is refused", arguments: ["es384_at_hash_sha256", "es512_at_hash_sha384"])
    func accessTokenHashOfAnotherFunction(_ name: String) async throws {
        let error = try await vectors.refusal(name, jwks: vectors.jwksEC, accessToken: "at-1")
        #expect(error?.message.contains("at_hash does not match the access token") == true, "\(String(describing: error))")
    }
}
