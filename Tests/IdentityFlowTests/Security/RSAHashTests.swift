import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// RSASSA-PKCS1-v1_5 with SHA-384 and SHA-512 (`RS384`, `RS512`), on the ID token vectors signed by r1.
@Suite("RSA PKCS#1 v1.5 with SHA-384 and SHA-512, and JWS RS384 / RS512")
struct RSAHashTests {
    let vectors: IdTokenVectors
    let key: RSAPublicKey

    init() throws {
        vectors = try IdTokenVectors.load()
        let jwks = try #require(StrictJSONParser.parse(Array(vectors.jwksR1.utf8)))
        let jwk = try #require(jwks["keys"]?.arrayValue?.first)
        key = try RSAPublicKey(jwkModulus: try #require(jwk["n"]?.stringValue), jwkExponent: try #require(jwk["e"]?.stringValue))
    }

    private func token(_ name: String) throws -> JSONWebToken { try JSONWebToken(compact: try vectors.token(name).value) }

    @Test(
        "a signature verifies with the hash it was made with and no other: the DigestInfo names the hash",
        arguments: [
            ("rs256_r1", Hashing.Function.sha256), ("rs384_valid", .sha384), ("rs512_valid", .sha512),
            // Headers that name another hash than the signer used: the signature is the signer's.
            ("rs512_signed_rs256", .sha256), ("rs384_signed_rs512", .sha512),
        ])
    func signatureHash(_ name: String, _ signer: Hashing.Function) throws {
        let token = try token(name)
        for hash in [Hashing.Function.sha256, .sha384, .sha512] {
            #expect(key.isValidSignature(token.signature, for: token.signingInput, hash: hash) == (hash == signer), "\(name) with \(hash)")
        }
        #expect(key.isValidSignature(token.signature, for: token.signingInput) == (signer == .sha256), "SHA-256 is the default")
    }

    @Test(
        "verifyRSA uses the hash of the header's alg; verifyRS256 takes RS256 only",
        arguments: [
            ("rs256_r1", true), ("rs384_valid", true), ("rs512_valid", true), ("rs512_signed_rs256", false), ("rs384_signed_rs512", false),
            ("rs512_tampered", false), ("rs512_wrong_key", false), ("ps256", true),
        ])
    func verifyRSA(_ name: String, _ valid: Bool) throws {
        let token = try token(name)
        #expect(token.verifyRSA(with: key) == valid)
        #expect(token.verifyRS256(with: key) == (valid && token.algorithm == "RS256"))
    }

    @Test(
        "the hash of an alg: SHA-256 for RS256, PS256 and ES256, SHA-384 for RS384 and ES384, SHA-512 for RS512, none for others",
        arguments: [
            ("rs256_r1", Optional(Hashing.Function.sha256)), ("es256_valid", .sha256), ("rs384_valid", .sha384), ("rs512_valid", .sha512),
            ("ps256", .sha256), ("hs512", nil), ("hs256", nil), ("es384", .sha384), ("alg_none", nil),
        ])
    func hashFunction(_ name: String, _ expected: Hashing.Function?) throws {
        #expect(try token(name).hashFunction == expected)
    }
}
