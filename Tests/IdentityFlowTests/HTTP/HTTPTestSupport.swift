import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

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
                return .json(
                    200,
                    object: [
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
    static func service(
        _ server: LoopbackHTTPServer, clientID: String = "client-1", timeout: TimeInterval = 10,
        maxBody: Int = 1 << 20, now: Date = Date()
    ) throws -> HTTPIdentityService {
        let configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: clientID, redirectURI: URL(string: "identityflow://callback")!,
            requestTimeout: timeout, maxResponseBodySize: maxBody)
        return try HTTPIdentityService(configuration: configuration, now: { now })
    }

    /// Runs `body`, expects it to throw an error with `code`, and returns the error.
    @discardableResult
    static func expectError<T>(
        _ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws(IdentityFlowError) -> T
    ) async -> IdentityFlowError? {
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

    static let request = AuthorizationRequest(
        redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"],
        state: "state-1", nonce: "nonce-1", codeVerifier: String(repeating: "v", count: 43))
}
