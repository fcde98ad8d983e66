import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlowTesting
@_spi(Integrator) @testable import IdentityFlow

/// RFC 6750 §3.1 puts `invalid_token` on a 401, but resource servers and providers also send it on
/// a 400. An answer that names the token invalid is handled as the invalid token it names, whatever
/// its status: a userinfo answer is 9010, an API answer refreshes once and retries once.
@Suite("400 invalid_token is an invalid token")
struct InvalidTokenAnswerTests {
    /// How a refused token is answered.
    enum Refusal: String, CaseIterable, CustomTestStringConvertible {
        case challengeHeader, jsonBody

        var testDescription: String { rawValue }

        var headers: [String: String] {
            switch self {
            case .challengeHeader: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token", error_description="The access token expired""#]
            case .jsonBody: ["Content-Type": "application/json"]
            }
        }

        var body: Data { self == .jsonBody ? Data(#"{"error": "invalid_token", "error_description": "expired"}"#.utf8) : Data() }
    }

    /// The reference resource server, answering a refused token with `400` as `refusal` says.
    struct BadRequestResourceServer: ResourceTransport {
        let inner: ReferenceResourceServer
        let refusal: Refusal

        func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
            let (data, response) = try await inner.send(request)
            guard response.statusCode == 401 else { return (data, response) }
            let refused = HTTPURLResponse(url: response.url!, statusCode: 400, httpVersion: "HTTP/1.1", headerFields: refusal.headers)!
            return (refusal.body, refused)
        }
    }

    @Test("an API answer 400 naming invalid_token refreshes once and retries once, as a 401 does", arguments: Refusal.allCases)
    func resourceRefreshes(_ refusal: Refusal) async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
        let transport = BadRequestResourceServer(inner: ReferenceResourceServer(trusting: server), refusal: refusal)
        let client = UserClient(configuration: .testing(now: date.now), service: server, storage: InMemoryStorage(), transport: transport)
        try await client.start()
        _ = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ]))
        server.revokeAllAccessTokens()
        let (_, response) = try await client.authenticatedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        #expect(response.statusCode == 200)
        #expect(server.calls.filter { $0 == .refresh }.count == 1)
    }

    @Test("a 400 that names another error (or none) is the host's answer: no refresh")
    func otherBadRequestsAreReturned() async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
        struct Refusing: ResourceTransport {
            func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
                let response = HTTPURLResponse(
                    url: request.url!, statusCode: 400, httpVersion: "HTTP/1.1",
                    headerFields: ["WWW-Authenticate": #"Bearer error="invalid_request""#, "Content-Type": "application/json"])!
                return (Data(#"{"error": "invalid_request", "hint": "invalid_token"}"#.utf8), response)
            }
        }
        let client = UserClient(configuration: .testing(now: date.now), service: server, storage: InMemoryStorage(), transport: Refusing())
        try await client.start()
        _ = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ]))
        let (_, response) = try await client.authenticatedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        #expect(response.statusCode == 400)
        #expect(server.calls.filter { $0 == .refresh }.isEmpty)
    }

    @Test("a userinfo answer 400 naming invalid_token is userNotAuthenticated (9010), as a 401 is", arguments: Refusal.allCases)
    func userinfoRefusal(_ refusal: Refusal) async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in .close },
            extra: { request in
                request.path == "/o/userinfo/" ? .response(status: 400, headers: refusal.headers, body: refusal.body) : nil
            })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server)
        let error = await HTTPTestSupport.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
            try await service.userInfo(accessToken: Redacted("access-1"), subject: "user-1")
        }
        #expect(error?.oauthError == "invalid_token")
    }
}
