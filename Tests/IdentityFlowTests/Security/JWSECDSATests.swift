import Testing
@_spi(Integrator) @testable import IdentityFlow

/// JWS ES384 and ES512 (RFC 7518 §3.4) on the ID token vectors of make_ec_id_tokens.py: the
/// header's `alg` names the curve and the hash.
@Suite("JWS ES384 and ES512")
struct JWSECDSATests {
    @Test(
        "verifyECDSA takes the curve and hash of the header's alg, and only a key of that curve",
        arguments: [
            ("es384_valid", "q1", true), ("es512_valid", "q2", true), ("es384_high_s", "q1", true), ("es512_high_s", "q2", true),
            ("es384_valid", "q2", false), ("es512_valid", "q1", false), ("es384_tampered", "q1", false), ("es384_der", "q1", false),
            ("es512_r_plus_n", "q2", false), ("es384_signed_sha512", "q1", false), ("es384_signed_es256", "q1", false),
            ("es512_q1_kid", "q1", false), ("es512_q1_sha512", "q1", false), ("es256_e3", "q1", false),
        ])
    func verifyECDSA(_ name: String, _ kid: String, _ valid: Bool) throws {
        let vectors = try ECIdTokenVectors.load()
        let token = try JSONWebToken(compact: try vectors.token(name).value)
        #expect(token.verifyECDSA(with: try ECIdTokenVectors.key(vectors.jwksEC, kid)) == valid)
    }

    @Test(
        "a P-384 signature by q1 under an ES512 header is refused though it is valid for q1, with SHA-384 or with ES512's SHA-512",
        arguments: [
            ("es512_q1_kid", Hashing.Function.sha384), ("es512_q1_sha512", .sha512),
        ])
    func algorithmNamesTheCurve(_ name: String, _ hash: Hashing.Function) throws {
        let vectors = try ECIdTokenVectors.load()
        let token = try JSONWebToken(compact: try vectors.token(name).value)
        let q1 = try ECIdTokenVectors.key(vectors.jwksEC, "q1")
        #expect(q1.isValidSignature(token.signature, for: token.signingInput, hash: hash), "the signature itself")
        #expect(!token.verifyECDSA(with: q1))
    }

    @Test(
        "the hash of an alg: SHA-384 for ES384, SHA-512 for ES512",
        arguments: [
            ("es384_valid", Hashing.Function.sha384), ("es512_valid", .sha512), ("es256_e3", .sha256),
        ])
    func hashFunction(_ name: String, _ expected: Hashing.Function) throws {
        #expect(try JSONWebToken(compact: try ECIdTokenVectors.load().token(name).value).hashFunction == expected)
    }
}
