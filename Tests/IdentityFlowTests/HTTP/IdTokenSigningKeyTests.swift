import Foundation
import Testing
@testable import IdentityFlow

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

    @Test("an RSA entry without alg verifies RS256, RS384, RS512, PS256, PS384 and PS512; one with alg only that; an EC entry ES256 only", arguments: [
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

    @Test("the accepted algorithms are RS256, RS384, RS512, PS256, PS384, PS512 and ES256")
    func accepted() {
        #expect(IdTokenSigningKey.algorithms == ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256"])
    }
}
