import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// A scripted provider for DPoP and PAR on a ``LoopbackHTTPServer``: discovery with the
/// metadata members a test chooses, and token, revocation, userinfo and PAR endpoints whose
/// answers the test scripts. Every request is recorded.
struct SenderConstraintProvider: Sendable {
    /// Extra discovery members (`dpop_signing_alg_values_supported`, ...); a `String` value
    /// `"<origin>/…"` has `<origin>` replaced by the server's.
    var metadata: [String: any Sendable] = [:]
    var token: @Sendable (LoopbackHTTPServer.Request, Int) -> LoopbackHTTPServer.Reply = { _, _ in SenderConstraintProvider.dpopTokenReply() }
    var userinfo: @Sendable (LoopbackHTTPServer.Request, Int) -> LoopbackHTTPServer.Reply = { _, _ in .json(200, #"{"sub": "alice"}"#) }
    var par: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in
        .json(201, #"{"request_uri": "urn:ietf:params:oauth:request_uri:abc", "expires_in": 60}"#)
    }
    let requests = Locked<[LoopbackHTTPServer.Request]>([])

    /// The metadata of a provider with DPoP (ES256), PAR and RFC 9207 `iss`.
    static let full: [String: any Sendable] = [
        "dpop_signing_alg_values_supported": ["ES256", "RS256"],
        "pushed_authorization_request_endpoint": "<origin>/o/par/",
        "authorization_response_iss_parameter_supported": true,
    ]

    static func dpopTokenReply(type: String = "DPoP", headers: [String: String] = [:]) -> LoopbackHTTPServer.Reply {
        let body = #"{"access_token": "access-1", "refresh_token": "refresh-1", "token_type": "\#(type)", "expires_in": 300, "scope": "openid"}"#
        return .response(status: 200, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Data(body.utf8))
    }

    /// The requests to `path`, in order.
    func requests(to path: String) -> [LoopbackHTTPServer.Request] { requests.current.filter { $0.path == path } }

    var handler: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        { [self] request in
            let count = requests.withLock { list in
                list.append(request)
                return list.filter { $0.path == request.path }.count
            }
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                var document: [String: Any] = [
                    "issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/?tenant=t1", "token_endpoint": "\(origin)/o/token/",
                    "userinfo_endpoint": "\(origin)/o/userinfo/", "jwks_uri": "\(origin)/o/jwks/", "revocation_endpoint": "\(origin)/o/revoke/",
                    "code_challenge_methods_supported": ["S256"],
                ]
                for (key, value) in metadata {
                    document[key] = (value as? String).map { $0.replacingOccurrences(of: "<origin>", with: origin) } ?? value
                }
                return .json(200, object: document)
            case "/o/jwks/": return .json(200, #"{"keys": []}"#)
            case "/o/token/": return token(request, count)
            case "/o/userinfo/": return userinfo(request, count)
            case "/o/revoke/": return .response(status: 200, headers: [:], body: Data())
            case "/o/par/": return par(request)
            default: return .json(404, #"{"error": "not_found"}"#)
            }
        }
    }

    /// Runs `body` with a service for this provider, configured by `configure`.
    func run(
        configure: (inout HTTPServiceConfiguration) -> Void = { _ in }, now: Date = Date(),
        _ body: (HTTPIdentityService) async throws -> Void
    ) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 32, handler: handler)
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"], requestTimeout: 10)
        configure(&configuration)
        try await body(try HTTPIdentityService(configuration: configuration, now: { now }))
    }
}

enum DPoPTestSupport {
    /// A software key with a known scalar (1, 2, ..., 32): its public JWK and thumbprint were
    /// computed independently with Python's `cryptography` 48 (see `DPoPProofTests.thumbprintVector`).
    static let knownKey: DPoPKey = {
        guard let key = try? DPoPKey(stored: .software(privateKey: Redacted(Array(1...32)))) else { preconditionFailure("known DPoP key") }
        return key
    }()

    /// The proof's parts, decoded, after checking its ES256 signature by the header's own `jwk`
    /// and by `key` with the package's verifier.
    static func decode(_ proof: Redacted<String>, key: DPoPKey, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONWebToken {
        let token = try JSONWebToken(compact: proof.value)
        #expect(token.verifyES256(with: key.publicKey), "the proof's signature", sourceLocation: sourceLocation)
        let jwk = try #require(token.header["jwk"]?.objectValue, sourceLocation: sourceLocation)
        let x = try #require(jwk["x"]?.stringValue.flatMap(Base64URL.decode), sourceLocation: sourceLocation)
        let y = try #require(jwk["y"]?.stringValue.flatMap(Base64URL.decode), sourceLocation: sourceLocation)
        #expect(token.verifyES256(with: [0x04] + x + y), "the proof verifies with its own jwk", sourceLocation: sourceLocation)
        return token
    }

    /// The request's `DPoP` header decoded and verified with `key`, or `nil` when it has none.
    static func proof(of request: LoopbackHTTPServer.Request, key: DPoPKey) throws -> JSONWebToken? {
        guard let header = request.headers["dpop"] else { return nil }
        return try decode(Redacted(header), key: key)
    }
}

extension DPoPTestSupport {
    /// The browser provider the scripted provider's sign-ins go through.
    static let browserProvider = IdentityProvider(identifier: "idp", name: "IdP", kind: .browser)

    /// ``request`` naming ``knownKey`` as its `dpop_jkt`, as a registration with a DPoP key sends it.
    static var boundRequest: AuthorizationRequest {
        var bound = request
        bound.dpopKeyThumbprint = knownKey.thumbprint
        return bound
    }

    /// Under `configure`, the grants that issue bearer tokens (password, token exchange, the
    /// provider's session exchange) are refused with 11020 naming `reason`, and nothing reaches
    /// the token endpoint.
    static func expectBearerGrantsRefused(
        configure: (inout HTTPServiceConfiguration) -> Void, naming reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        try await provider.run(configure: configure) { service in
            let password = await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
                try await service.passwordGrant(login: "alice", password: Redacted("pw"), scopes: [])
            }
            #expect(password?.message.contains(reason) == true, sourceLocation: sourceLocation)
            await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
                try await service.exchangeExternalToken(ExternalToken(provider: "other", token: "t"), scopes: [])
            }
            await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
                try await service.exchangeSession(Redacted("s"), request: boundRequest)
            }
        }
        #expect(provider.requests(to: "/o/token/").isEmpty, sourceLocation: sourceLocation)
    }

    /// A request without `openid` (the scripted provider issues no ID token).
    static let request = AuthorizationRequest(
        redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"],
        state: "state-1", nonce: "nonce-1", codeVerifier: String(repeating: "v", count: 43))
}
