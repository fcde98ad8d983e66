import Foundation
import Testing
import Statechart
@testable import IdentityFlow

/// The ID token vectors of `Tests/Fixtures/jwt/id-tokens.json` (made by `make_id_tokens.py`).
struct IdTokenVectors: Sendable {
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
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jwt/id-tokens.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func json(_ key: String) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: try #require(object[key])), as: UTF8.self)
        }
        return IdTokenVectors(
            issuer: try #require(object["issuer"] as? String), clientID: try #require(object["client_id"] as? String),
            nonce: try #require(object["nonce"] as? String),
            now: Date(timeIntervalSince1970: try #require(object["now"] as? Double)),
            clockSkew: try #require(object["clock_skew"] as? Double),
            jwksK1: try json("jwks_k1"), jwksK1K2: try json("jwks_k1_k2"), jwksK1NoKid: try json("jwks_k1_nokid"),
            jwksK1E1: try json("jwks_k1_e1"), jwksR1: try json("jwks_r1"), jwksK1R1R2: try json("jwks_k1_r1_r2"),
            tokens: try #require(object["tokens"] as? [String: String]))
    }

    func token(_ name: String) throws -> Redacted<String> { Redacted(try #require(tokens[name], "no token \(name)")) }
}

/// The PS256, PS384 and PS512 ID token vectors of `Tests/Fixtures/jwt/pss-id-tokens.json` (made by
/// `make_pss_id_tokens.py`), for the issuer, client id, nonce and times of ``IdTokenVectors``.
struct PSSIdTokenVectors: Sendable {
    /// p1 alone, an RSA key whose entry names no `alg` (any RS or PS algorithm).
    let jwksP1: String
    /// p1 and p2, whose entry names PS256.
    let jwksP1P2: String
    let tokens: [String: String]

    static func load() throws -> PSSIdTokenVectors {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jwt/pss-id-tokens.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func json(_ key: String) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: try #require(object[key])), as: UTF8.self)
        }
        let shared = try IdTokenVectors.load()
        #expect(object["issuer"] as? String == shared.issuer && object["nonce"] as? String == shared.nonce
            && object["client_id"] as? String == shared.clientID && object["now"] as? Double == shared.now.timeIntervalSince1970)
        return PSSIdTokenVectors(jwksP1: try json("jwks_p1"), jwksP1P2: try json("jwks_p1_p2"),
                                 tokens: try #require(object["tokens"] as? [String: String]))
    }

    func token(_ name: String) throws -> Redacted<String> { Redacted(try #require(tokens[name], "no token \(name)")) }

    /// p1's key, for verifying tokens without a provider.
    func p1() throws -> RSAPublicKey {
        let jwk = try #require(StrictJSONParser.parse(Array(jwksP1.utf8))?["keys"]?.arrayValue?.first)
        return try RSAPublicKey(jwkModulus: try #require(jwk["n"]?.stringValue), jwkExponent: try #require(jwk["e"]?.stringValue))
    }
}

/// The ES384 and ES512 ID token vectors of `Tests/Fixtures/jwt/ec-id-tokens.json` (made by
/// `make_ec_id_tokens.py`), for the issuer, client id, nonce and times of ``IdTokenVectors``.
struct ECIdTokenVectors: Sendable {
    /// q1 (P-384, its entry names ES384), q2 (P-521, its entry names no `alg`) and e3 (P-256, ES256).
    let jwksEC: String
    /// q1, q2 and q3, a second P-384 key.
    let jwksTwoP384: String
    /// Entries at the edge: off the curve, a coordinate not below p, secp256k1 (all passed over),
    /// and q-small-x, a P-384 point with a tiny x (taken).
    let jwksEdgeCases: String
    let tokens: [String: String]

    static func load() throws -> ECIdTokenVectors {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jwt/ec-id-tokens.json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func json(_ key: String) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: try #require(object[key])), as: UTF8.self)
        }
        let shared = try IdTokenVectors.load()
        #expect(object["issuer"] as? String == shared.issuer && object["nonce"] as? String == shared.nonce
            && object["client_id"] as? String == shared.clientID && object["now"] as? Double == shared.now.timeIntervalSince1970)
        return ECIdTokenVectors(jwksEC: try json("jwks_ec"), jwksTwoP384: try json("jwks_ec_two_p384"), jwksEdgeCases: try json("jwks_edge_cases"),
                                tokens: try #require(object["tokens"] as? [String: String]))
    }

    func token(_ name: String) throws -> Redacted<String> { Redacted(try #require(tokens[name], "no token \(name)")) }

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
    func withProvider<T>(jwks: String, token: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in .close },
                         _ body: (HTTPIdentityService) async throws -> T) async throws -> T {
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

/// A scripted OpenID provider on a ``LoopbackHTTPServer``: discovery (issuer `issuer`, endpoints on
/// the server itself), a JWKS whose n-th fetch answers `jwks(n)`, and a token endpoint.
struct ScriptedProvider: Sendable {
    let issuer: String
    let jwks: @Sendable (Int) -> String
    let token: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply
    var extra: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply? = { _ in nil }

    var handler: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        let jwksFetches = Locked(0)
        return { [self] request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                return .json(200, object: [
                    "issuer": issuer, "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                    "userinfo_endpoint": "\(origin)/o/userinfo/", "jwks_uri": "\(origin)/o/jwks/", "revocation_endpoint": "\(origin)/o/revoke/",
                    "code_challenge_methods_supported": ["S256"],
                ])
            case "/o/jwks/":
                let count = jwksFetches.withLock { count in
                    count += 1
                    return count
                }
                return .json(200, jwks(count))
            case "/o/token/":
                return token(request)
            default:
                return extra(request) ?? .json(404, #"{"error": "not_found", "error_description": "no such path"}"#)
            }
        }
    }
}

enum HTTPTestSupport {
    /// A service whose discovery document is the loopback server's `/o/.well-known/openid-configuration`.
    static func service(_ server: LoopbackHTTPServer, clientID: String = "client-1", timeout: TimeInterval = 10,
                        maxBody: Int = 1 << 20, now: Date = Date()) throws -> HTTPIdentityService {
        let configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: clientID, redirectURI: URL(string: "identityflow://callback")!,
            requestTimeout: timeout, maxResponseBodySize: maxBody)
        return try HTTPIdentityService(configuration: configuration, now: { now })
    }

    /// Runs `body`, expects it to throw an error with `code`, and returns the error.
    @discardableResult
    static func expectError<T>(_ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
                               _ body: () async throws(IdentityFlowError) -> T) async -> IdentityFlowError? {
        do {
            let value = try await body()
            Issue.record("expected error \(code), got \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        }
    }

    static func tokenReply(idToken: String?, refreshToken: String? = "refresh-1") -> LoopbackHTTPServer.Reply {
        var object: [String: Any] = ["access_token": "access-1", "token_type": "Bearer", "expires_in": 300, "scope": "openid"]
        if let idToken { object["id_token"] = idToken }
        if let refreshToken { object["refresh_token"] = refreshToken }
        return .json(200, object: object)
    }

    static let request = AuthorizationRequest(redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"],
                                              state: "state-1", nonce: "nonce-1", codeVerifier: String(repeating: "v", count: 43))
}
