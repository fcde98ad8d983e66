import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// A vector file of `Tests/Fixtures/jwt/`, read as JSON.
struct VectorFile {
    let object: [String: Any]

    /// Reads `name`; with `shared`, checks that the file was made for the same issuer, client id,
    /// nonce and time (the generators share them).
    init(_ name: String, sharing shared: IdTokenVectors? = nil) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jwt/\(name)")
        object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        if let shared {
            #expect(
                object["issuer"] as? String == shared.issuer && object["nonce"] as? String == shared.nonce
                    && object["client_id"] as? String == shared.clientID && object["now"] as? Double == shared.now.timeIntervalSince1970)
        }
    }

    /// The member `key` as JSON text (a JWKS, say).
    func json(_ key: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: try #require(object[key])), as: UTF8.self)
    }

    /// The compact tokens by name.
    func tokens() throws -> [String: String] { try #require(object["tokens"] as? [String: String]) }
}

/// Vectors with compact tokens by name.
protocol NamedTokens: Sendable {
    var tokens: [String: String] { get }
}

extension NamedTokens {
    /// The token `name`, or a failed requirement naming it.
    func token(_ name: String) throws -> Redacted<String> { Redacted(try #require(tokens[name], "no token \(name)")) }
}

/// Vectors of a file of their own, made for the issuer, client id, nonce and time of ``IdTokenVectors``.
protocol AdditionalTokens: NamedTokens {
    /// The vectors of `id-tokens.json`, whose claims these share.
    var shared: IdTokenVectors { get }
}

extension AdditionalTokens {
    /// The claims of `name` validated against `jwks`.
    func validate(_ name: String, jwks: String, accessToken: String? = nil) async throws -> IdTokenInfo {
        try await shared.validate(try token(name), jwks: jwks, accessToken: accessToken)
    }

    /// The error validating `name` against `jwks` throws, expected to be 11001.
    func refusal(_ name: String, jwks: String, accessToken: String? = nil) async throws -> IdentityFlowError? {
        try await shared.refusal(try token(name), jwks: jwks, accessToken: accessToken)
    }
}

/// The ID token vectors of `Tests/Fixtures/jwt/id-tokens.json` (made by `make_id_tokens.py`).
struct IdTokenVectors: NamedTokens {
    let issuer: String
    let clientID: String
    let nonce: String
    let now: Date
    let clockSkew: TimeInterval
    let jwksK1: String
    let jwksK1K2: String
    let jwksK1NoKid: String
    /// k1 (RS256), e1 (ES256, P-256) and p384 (ES384, P-384).
    let jwksK1E1: String
    /// r1 alone, an RSA key whose entry names no `alg` (any RS or PS algorithm), as Canaille publishes it.
    let jwksR1: String
    /// k1 (RS256), r1 (no `alg`) and r2 (RS512 only).
    let jwksK1R1R2: String
    let tokens: [String: String]

    static func load() throws -> IdTokenVectors {
        let file = try VectorFile("id-tokens.json")
        let object = file.object
        return IdTokenVectors(
            issuer: try #require(object["issuer"] as? String), clientID: try #require(object["client_id"] as? String),
            nonce: try #require(object["nonce"] as? String),
            now: Date(timeIntervalSince1970: try #require(object["now"] as? Double)),
            clockSkew: try #require(object["clock_skew"] as? Double),
            jwksK1: try file.json("jwks_k1"), jwksK1K2: try file.json("jwks_k1_k2"), jwksK1NoKid: try file.json("jwks_k1_nokid"),
            jwksK1E1: try file.json("jwks_k1_e1"), jwksR1: try file.json("jwks_r1"), jwksK1R1R2: try file.json("jwks_k1_r1_r2"),
            tokens: try file.tokens())
    }

}

/// The PS256, PS384 and PS512 ID token vectors of `Tests/Fixtures/jwt/pss-id-tokens.json` (made by
/// `make_pss_id_tokens.py`), for the issuer, client id, nonce and times of ``IdTokenVectors``.
struct PSSIdTokenVectors: AdditionalTokens {
    let shared: IdTokenVectors
    /// p1 alone, an RSA key whose entry names no `alg` (any RS or PS algorithm).
    let jwksP1: String
    /// p1 and p2, whose entry names PS256.
    let jwksP1P2: String
    let tokens: [String: String]

    static func load() throws -> PSSIdTokenVectors {
        let shared = try IdTokenVectors.load(), file = try VectorFile("pss-id-tokens.json", sharing: shared)
        return PSSIdTokenVectors(shared: shared, jwksP1: try file.json("jwks_p1"), jwksP1P2: try file.json("jwks_p1_p2"), tokens: try file.tokens())
    }

    /// p1's key, for verifying tokens without a provider.
    func p1() throws -> RSAPublicKey {
        let jwk = try #require(StrictJSONParser.parse(Array(jwksP1.utf8))?["keys"]?.arrayValue?.first)
        return try RSAPublicKey(jwkModulus: try #require(jwk["n"]?.stringValue), jwkExponent: try #require(jwk["e"]?.stringValue))
    }
}

/// The ES384 and ES512 ID token vectors of `Tests/Fixtures/jwt/ec-id-tokens.json` (made by
/// `make_ec_id_tokens.py`), for the issuer, client id, nonce and times of ``IdTokenVectors``.
struct ECIdTokenVectors: AdditionalTokens {
    let shared: IdTokenVectors
    /// q1 (P-384, its entry names ES384), q2 (P-521, its entry names no `alg`) and e3 (P-256, ES256).
    let jwksEC: String
    /// q1, q2 and q3, a second P-384 key.
    let jwksTwoP384: String
    /// Entries at the edge: off the curve, a coordinate not below p, secp256k1 (all passed over),
    /// and q-small-x, a P-384 point with a tiny x (taken).
    let jwksEdgeCases: String
    let tokens: [String: String]

    static func load() throws -> ECIdTokenVectors {
        let shared = try IdTokenVectors.load(), file = try VectorFile("ec-id-tokens.json", sharing: shared)
        return ECIdTokenVectors(
            shared: shared, jwksEC: try file.json("jwks_ec"), jwksTwoP384: try file.json("jwks_ec_two_p384"),
            jwksEdgeCases: try file.json("jwks_edge_cases"), tokens: try file.tokens())
    }

    /// The JWKS entry `kid` of `jwks`.
    static func entry(_ jwks: String, _ kid: String) throws -> JSONValue {
        let keys = try #require(StrictJSONParser.parse(Array(jwks.utf8))?["keys"]?.arrayValue)
        return try #require(keys.first { $0["kid"]?.stringValue == kid }, "no key \(kid)")
    }

    /// The P-384 or P-521 key `kid` of `jwks`, for verifying tokens without a provider.
    static func key(_ jwks: String, _ kid: String) throws -> ECDSAPublicKey {
        guard case .ecdsa(let key) = try #require(IdTokenSigningKey(jwk: try entry(jwks, kid))) else {
            throw CryptoError(.invalidKey, reason: "\(kid) is not a P-384 or P-521 key")
        }
        return key
    }
}

extension IdTokenVectors {
    /// Runs `body` against a ``ScriptedProvider`` at the vectors' issuer, client and time, whose
    /// JWKS is `jwks` and whose token endpoint answers `token`.
    func withProvider<T>(
        jwks: String, token: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in .close },
        _ body: (HTTPIdentityService) async throws -> T
    ) async throws -> T {
        let provider = ScriptedProvider(issuer: issuer, jwks: { _ in jwks }, token: token)
        let server = try LoopbackHTTPServer(maxRequests: 16, handler: provider.handler)
        defer { server.stop() }
        return try await body(try HTTPTestSupport.service(server, clientID: clientID, now: now))
    }

    /// The claims of `token` validated against `jwks` with the vectors' nonce.
    func validate(_ token: Redacted<String>, jwks: String, accessToken: String? = nil) async throws -> IdTokenInfo {
        try await withProvider(jwks: jwks) { [nonce] in try await $0.validateIdToken(token, nonce: nonce, accessToken: accessToken.map(Redacted.init)) }
    }

    /// The error validating `token` against `jwks` throws, expected to be 11001.
    func refusal(_ token: Redacted<String>, jwks: String, accessToken: String? = nil) async throws -> IdentityFlowError? {
        try await withProvider(jwks: jwks) { [nonce] service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(token, nonce: nonce, accessToken: accessToken.map(Redacted.init))
            }
        }
    }
}
