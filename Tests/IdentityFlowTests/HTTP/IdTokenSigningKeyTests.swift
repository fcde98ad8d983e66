import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// Which algorithms a JWKS entry's key may verify.
@Suite("ID token signing keys from JWKS entries")
struct IdTokenSigningKeyTests {
    let vectors: IdTokenVectors

    init() throws { vectors = try IdTokenVectors.load() }

    /// The JWKS entry `kid` of `jwks`, with `changes` applied (`nil` removes a member).
    private func entry(_ jwks: String, _ kid: String, _ changes: [String: String?] = [:]) throws -> JSONValue {
        let keys = try #require(StrictJSONParser.parse(Array(jwks.utf8))?["keys"]?.arrayValue)
        var object = try #require(keys.first { $0["kid"]?.stringValue == kid }?.objectValue)
        for (name, value) in changes { object[name] = value.map(JSONValue.string) }
        return .object(object)
    }

    @Test(
        "an RSA entry without alg verifies RS256, RS384, RS512, PS256, PS384 and PS512; one with alg only that",
        arguments: [
            ("r1", [String: String?](), ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]), ("r2", [:], ["RS512"]), ("k1", [:], ["RS256"]),
            ("r1", ["alg": "RS384"], ["RS384"]), ("k1", ["alg": nil], ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]),
            ("r1", ["alg": "PS256"], ["PS256"]), ("r2", ["alg": "PS384"], ["PS384"]), ("k1", ["alg": "PS512"], ["PS512"]),
        ])
    func algorithms(_ kid: String, _ changes: [String: String?], _ expected: [String]) throws {
        let key = try #require(IdTokenSigningKey(jwk: try entry(vectors.jwksK1R1R2, kid, changes)))
        #expect(key.algorithms == expected)
        for algorithm in IdTokenSigningKey.algorithms {
            #expect(key.canVerify(algorithm) == expected.contains(algorithm), "\(kid) \(algorithm)")
        }
    }

    @Test("an entry whose alg its key type cannot verify is passed over", arguments: ["ES256", "ES384", "HS256", "RS1", "PS1", "ps256", "none"])
    func unusableAlgorithm(_ alg: String) throws {
        #expect(IdTokenSigningKey(jwk: try entry(vectors.jwksK1R1R2, "r1", ["alg": alg])) == nil)
        if alg != "ES256" {
            #expect(IdTokenSigningKey(jwk: try entry(vectors.jwksK1E1, "e1", ["alg": alg])) == nil)
        }
        let ec = try #require(IdTokenSigningKey(jwk: try entry(vectors.jwksK1E1, "e1", ["alg": nil])))
        #expect(ec.algorithms == ["ES256"])
    }

    @Test("a key whose entry names RS512 does not verify an RS256 token even when its signature is valid")
    func verifiesOnlyItsAlgorithms() throws {
        let r2 = try #require(IdTokenSigningKey(jwk: try entry(vectors.jwksK1R1R2, "r2")))
        let rs256 = try JSONWebToken(compact: try vectors.token("rs256_r2").value)
        guard case .rsa(let key, _) = r2 else { Issue.record("r2 is an RSA key"); return }
        #expect(rs256.verifyRSA(with: key), "the signature itself is valid")
        #expect(!r2.verifies(rs256))
        #expect(IdTokenSigningKey.rsa(key, algorithms: IdTokenSigningKey.rsaAlgorithms).verifies(rs256))
        #expect(r2.verifies(try JSONWebToken(compact: try vectors.token("rs512_r2").value)))
    }

    @Test("an EC entry naming a PS alg is passed over")
    func ecWithPSAlgorithm() throws {
        for alg in ["PS256", "PS384", "PS512"] {
            #expect(IdTokenSigningKey(jwk: try entry(vectors.jwksK1E1, "e1", ["alg": alg])) == nil, "\(alg)")
        }
    }

    @Test("a key whose entry names PS256 verifies PS256 only, and one limited to RS256 no PS256 token, even when the signature is valid")
    func verifiesOnlyItsPSAlgorithms() throws {
        let pss = try PSSIdTokenVectors.load()
        let p2 = try #require(IdTokenSigningKey(jwk: try entry(pss.jwksP1P2, "p2")))
        #expect(p2.algorithms == ["PS256"])
        #expect(p2.verifies(try JSONWebToken(compact: try pss.token("ps256_p2").value)))
        let rs256 = try JSONWebToken(compact: try pss.token("rs256_p2").value)
        guard case .rsa(let key, _) = p2 else { Issue.record("p2 is an RSA key"); return }
        #expect(rs256.verifyRSA(with: key), "the signature itself is valid")
        #expect(!p2.verifies(rs256))
        let ps256 = try JSONWebToken(compact: try pss.token("ps256_valid").value)
        let p1 = try pss.p1()
        #expect(IdTokenSigningKey.rsa(p1, algorithms: IdTokenSigningKey.rsaAlgorithms).verifies(ps256))
        #expect(!IdTokenSigningKey.rsa(p1, algorithms: ["RS256"]).verifies(ps256))
    }

    @Test("the accepted algorithms are RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 and ES512")
    func accepted() {
        #expect(IdTokenSigningKey.algorithms == ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"])
    }

    @Test(
        "an EC entry verifies the alg of its curve only: P-256 ES256, P-384 ES384, P-521 ES512, whether or not it names it",
        arguments: [
            ("e1", [String: String?](), "ES256"), ("e1", ["alg": nil], "ES256"), ("p384", [:], "ES384"), ("p384", ["alg": nil], "ES384"),
            ("q1", [:], "ES384"), ("q2", [:], "ES512"), ("q2", ["alg": "ES512"], "ES512"),
        ])
    func ecAlgorithms(_ kid: String, _ changes: [String: String?], _ expected: String) throws {
        let jwks = kid.hasPrefix("q") ? try ECIdTokenVectors.load().jwksEC : vectors.jwksK1E1
        let key = try #require(IdTokenSigningKey(jwk: try entry(jwks, kid, changes)))
        #expect(key.algorithms == [expected])
        for algorithm in IdTokenSigningKey.algorithms {
            #expect(key.canVerify(algorithm) == (algorithm == expected), "\(kid) \(algorithm)")
        }
    }

    @Test(
        "an EC entry naming another alg than its curve's is passed over",
        arguments: [
            ("p384", "ES256"), ("p384", "ES512"), ("p384", "RS384"), ("p384", "PS384"), ("p384", "ES384K"), ("q2", "ES384"), ("q2", "ES256"), ("q2", "RS512"),
        ])
    func ecOtherAlgorithm(_ kid: String, _ alg: String) throws {
        let jwks = kid.hasPrefix("q") ? try ECIdTokenVectors.load().jwksEC : vectors.jwksK1E1
        #expect(IdTokenSigningKey(jwk: try entry(jwks, kid, ["alg": alg])) == nil)
    }

    @Test(
        "EC entries that make no usable key are passed over: off the curve, a coordinate not below p, secp256k1; a tiny x is fine",
        arguments: [
            ("q1-off-curve", false), ("q2-off-curve", false), ("q2-y-plus-p", false), ("q-x-plus-p", false), ("k256", false), ("q-small-x", true),
        ])
    func ecEdgeCases(_ kid: String, _ usable: Bool) throws {
        let key = IdTokenSigningKey(jwk: try entry(try ECIdTokenVectors.load().jwksEdgeCases, kid))
        #expect((key != nil) == usable)
        #expect(key?.algorithms == (usable ? ["ES384"] : nil))
    }

    @Test(
        "EC entries are passed over with another curve's coordinate length, a crv other than P-256, P-384, P-521, a missing member, another kty, use enc",
        arguments: [
            ("q1", ["crv": "P-521"]), ("q2", ["crv": "P-384"]), ("q1", ["crv": "P-256"]), ("e1", ["crv": "P-384"]), ("q1", ["crv": "secp384r1"]),
            ("q1", ["crv": nil]), ("q1", ["x": nil]), ("q1", ["kty": "OKP"]), ("q1", ["use": "enc"]),
        ] as [(String, [String: String?])])
    func ecCoordinateLengths(_ kid: String, _ changes: [String: String?]) throws {
        let jwks = kid.hasPrefix("q") ? try ECIdTokenVectors.load().jwksEC : vectors.jwksK1E1
        #expect(IdTokenSigningKey(jwk: try entry(jwks, kid, [:])) != nil, "the unchanged entry is a key")
        #expect(IdTokenSigningKey(jwk: try entry(jwks, kid, changes)) == nil)
    }

    @Test("EC coordinates one byte short or long are passed over", arguments: ["q1", "q2", "e1"])
    func ecCoordinateOneByteOff(_ kid: String) throws {
        let jwks = kid.hasPrefix("q") ? try ECIdTokenVectors.load().jwksEC : vectors.jwksK1E1
        let x = try #require(try entry(jwks, kid)["x"]?.stringValue.flatMap(Base64URL.decode))
        #expect(IdTokenSigningKey(jwk: try entry(jwks, kid, ["x": Base64URL.encode(x.dropFirst())])) == nil)
        #expect(IdTokenSigningKey(jwk: try entry(jwks, kid, ["x": Base64URL.encode([0] + x)])) == nil)
    }

    @Test("a P-384 key does not verify an ES512 token, even one whose signature it made with SHA-384")
    func ecVerifiesOnlyItsAlgorithm() throws {
        let ec = try ECIdTokenVectors.load()
        let q1 = try #require(IdTokenSigningKey(jwk: try entry(ec.jwksEC, "q1")))
        #expect(q1.verifies(try JSONWebToken(compact: try ec.token("es384_valid").value)))
        #expect(!q1.verifies(try JSONWebToken(compact: try ec.token("es512_q1_kid").value)))
        #expect(!q1.verifies(try JSONWebToken(compact: try ec.token("es512_valid").value)))
    }
}
