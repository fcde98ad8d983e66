import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// PS256, PS384 and PS512 ID tokens (RSASSA-PSS): what FAPI providers sign (Keycloak, Okta, Authlib
/// when the client registers `id_token_signed_response_alg` `PS256`).
@Suite("ID tokens signed PS256, PS384 and PS512")
struct IdTokenPSSTests {
    let vectors: PSSIdTokenVectors

    init() throws { vectors = try PSSIdTokenVectors.load() }

    @Test(
        "an RSA key whose JWK names no alg verifies PS256, PS384 and PS512, by kid or as the only key",
        arguments: [
            "ps256_valid", "ps384_valid", "ps512_valid", "ps256_no_kid",
        ])
    func valid(_ name: String) async throws {
        let info = try await vectors.validate(name, jwks: vectors.jwksP1)
        #expect(info.subject == "user-1")
        #expect(info.issuer == vectors.shared.issuer)
    }

    @Test(
        "a bad signature is refused: another key, a tampered payload, a salt length other than the hash's, a header naming another scheme or hash than the signer's",
        arguments: [
            "ps256_wrong_key", "ps256_tampered", "ps256_salt_0", "ps256_salt_max", "ps384_salt_32",
            "ps256_signed_rs256", "rs256_signed_ps256", "ps384_signed_ps512",
        ])
    func badSignature(_ name: String) async throws {
        let error = try await vectors.refusal(name, jwks: vectors.jwksP1)
        #expect(error?.message.contains("signature is invalid") == true, "\(String(describing: error))")
        #expect(error.map { !$0.description.contains(vectors.tokens[name] ?? "-") } == true)
    }

    @Test(
        "a JWK's alg limits its key to that algorithm: p2 (PS256) verifies PS256, not PS384 nor RS256",
        arguments: [
            ("ps384_p2", "a key for PS256, not for the token's algorithm PS384"),
            ("rs256_p2", "a key for PS256, not for the token's algorithm RS256"),
        ])
    func namedAlgorithm(_ name: String, _ message: String) async throws {
        #expect(try await vectors.validate("ps256_p2", jwks: vectors.jwksP1P2).subject == "user-1")
        let error = try await vectors.refusal(name, jwks: vectors.jwksP1P2)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("without kid, the JWKS must hold exactly one key able to verify the alg: p1 and p2 both verify PS256")
    func withoutKid() async throws {
        let error = try await vectors.refusal("ps256_no_kid", jwks: vectors.jwksP1P2)
        #expect(error?.message.contains("does not hold exactly one PS256 key") == true, "\(String(describing: error))")
    }

    @Test(
        "at_hash is the left half of the alg's hash: SHA-256 for PS256, SHA-384 for PS384, SHA-512 for PS512",
        arguments: [
            "ps256_at_hash", "ps384_at_hash", "ps512_at_hash",
        ])
    func accessTokenHash(_ name: String) async throws {
        _ = try await vectors.validate(name, jwks: vectors.jwksP1, accessToken: "at-1")
        let error = try await vectors.refusal(name, jwks: vectors.jwksP1, accessToken: "at-2")
        #expect(error?.message.contains("at_hash") == true)
    }

    @Test("an at_hash made with another hash than the alg's is refused")
    func accessTokenHashOfAnotherFunction() async throws {
        let error = try await vectors.refusal("ps512_at_hash_sha256", jwks: vectors.jwksP1, accessToken: "at-1")
        #expect(error?.message.contains("at_hash does not match the access token") == true, "\(String(describing: error))")
    }
}
