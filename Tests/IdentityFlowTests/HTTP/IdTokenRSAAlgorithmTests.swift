import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// RS384 and RS512 ID tokens: what Canaille (Authlib) signs with an RSA key whose JWK names no `alg`.
@Suite("ID tokens signed RS384 and RS512")
struct IdTokenRSAAlgorithmTests {
    let vectors: IdTokenVectors

    init() throws { vectors = try IdTokenVectors.load() }

    /// The error validating `name` against `jwks` throws, expected to be 11001.
    private func refusal(_ name: String, jwks: String, accessToken: String? = nil) async throws -> IdentityFlowError? {
        try await vectors.refusal(try vectors.token(name), jwks: jwks, accessToken: accessToken)
    }

    @Test(
        "an RSA key whose JWK names no alg verifies RS256, RS384, RS512 and PS256, by kid or as the only key",
        arguments: [
            "rs384_valid", "rs512_valid", "rs256_r1", "rs256_no_kid", "rs384_no_kid", "rs512_no_kid", "ps256",
        ])
    func valid(_ name: String) async throws {
        let token = try vectors.token(name), nonce = vectors.nonce
        let info = try await vectors.withProvider(jwks: vectors.jwksR1) { try await $0.validateIdToken(token, nonce: nonce) }
        #expect(info.subject == "user-1")
        #expect(info.issuer == vectors.issuer)
    }

    @Test(
        "a bad signature is refused: another key, a tampered payload, a header naming another hash than the signer's",
        arguments: [
            "rs384_wrong_key", "rs512_wrong_key", "rs512_tampered", "rs512_signed_rs256", "rs384_signed_rs512",
        ])
    func badSignature(_ name: String) async throws {
        let error = try await refusal(name, jwks: vectors.jwksR1)
        #expect(error?.message.contains("signature is invalid") == true, "\(String(describing: error))")
        #expect(error.map { !$0.description.contains(vectors.tokens[name] ?? "-") } == true)
    }

    @Test("a JWK's alg limits its key to that algorithm: r2 (RS512) verifies RS512 only")
    func namedAlgorithm() async throws {
        let token = try vectors.token("rs512_r2"), nonce = vectors.nonce
        let info = try await vectors.withProvider(jwks: vectors.jwksK1R1R2) { try await $0.validateIdToken(token, nonce: nonce) }
        #expect(info.subject == "user-1")
    }

    @Test(
        "a kid naming a key that cannot verify the token's alg is refused before any signature check, saying so",
        arguments: [
            ("rs256_r2", "a key for RS512, not for the token's algorithm RS256"),
            ("rs512_k1", "a key for RS256, not for the token's algorithm RS512"),
            ("es256_r1_kid", "a key for RS256, RS384, RS512, PS256, PS384 or PS512, not for the token's algorithm ES256"),
        ])
    func keyCannotVerify(_ name: String, _ message: String) async throws {
        let error = try await refusal(name, jwks: vectors.jwksK1R1R2)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("without kid, the JWKS must hold exactly one key able to verify the alg: k1 (RS256), r1 (any RS) and r2 (RS512)")
    func withoutKid() async throws {
        let token = try vectors.token("rs384_no_kid"), nonce = vectors.nonce
        let info = try await vectors.withProvider(jwks: vectors.jwksK1R1R2) { try await $0.validateIdToken(token, nonce: nonce) }
        #expect(info.subject == "user-1", "r1 is the only key for RS384")
        for (name, algorithm) in [("rs512_no_kid", "RS512"), ("rs256_no_kid", "RS256")] {
            let error = try await refusal(name, jwks: vectors.jwksK1R1R2)
            #expect(error?.message.contains("does not hold exactly one \(algorithm) key") == true, "\(String(describing: error))")
        }
    }

    @Test("at_hash is the left half of the alg's hash: SHA-384 for RS384, SHA-512 for RS512", arguments: ["rs384_at_hash", "rs512_at_hash"])
    func accessTokenHash(_ name: String) async throws {
        let token = try vectors.token(name), nonce = vectors.nonce
        try await vectors.withProvider(jwks: vectors.jwksR1) { service in
            _ = try await service.validateIdToken(token, nonce: nonce, accessToken: Redacted("at-1"))
        }
        let error = try await refusal(name, jwks: vectors.jwksR1, accessToken: "at-2")
        #expect(error?.message.contains("at_hash") == true)
    }

    @Test("an at_hash made with another hash than the alg's is refused", arguments: ["rs512_at_hash_sha256", "rs384_at_hash_sha512"])
    func accessTokenHashOfAnotherFunction(_ name: String) async throws {
        let error = try await refusal(name, jwks: vectors.jwksR1, accessToken: "at-1")
        #expect(error?.message.contains("at_hash does not match the access token") == true, "\(String(describing: error))")
    }

    @Test("none and HMAC are refused, the message listing what is accepted", arguments: ["alg_none", "hs256", "hs512"])
    func refusedAlgorithms(_ name: String) async throws {
        let error = try await refusal(name, jwks: vectors.jwksK1R1R2)
        #expect(
            error?.message.contains("is refused: only RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 and ES512 are accepted") == true,
            "\(String(describing: error))")
    }

    @Test("ES384 is an accepted algorithm now: against a JWKS without its key (k1, r1, r2), the token is refused for its kid, not its alg")
    func es384WithoutItsKey() async throws {
        let error = try await refusal("es384", jwks: vectors.jwksK1R1R2)
        #expect(error?.message.contains("kid is not in the provider's JWKS") == true, "\(String(describing: error))")
    }

    @Test("a code exchange with an RS512 ID token (Canaille) succeeds, its at_hash checked against the access token")
    func codeExchange() async throws {
        let vectors = vectors
        let names = Locked(["rs512_at_hash_sha256", "rs512_at_hash"])
        let request = AuthorizationRequest(
            redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"],
            state: "s", nonce: vectors.nonce, codeVerifier: String(repeating: "v", count: 43))
        try await vectors.withProvider(
            jwks: vectors.jwksR1,
            token: { _ in
                let name = names.withLock { $0.removeFirst() }
                return .json(200, object: ["access_token": "at-1", "token_type": "Bearer", "expires_in": 300, "id_token": vectors.tokens[name] ?? ""])
            }
        ) { service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("c1"), request: request)
            }
            let tokens = try await service.exchangeCode(Redacted("c2"), request: request)
            #expect(tokens.accessToken.value == "at-1")
        }
    }
}
