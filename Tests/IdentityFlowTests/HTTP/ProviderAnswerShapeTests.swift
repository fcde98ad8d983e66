import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// Answers real providers give where the documents leave room: unknown paths answered with `401`
/// JSON, a login page or other JSON (LemonLDAP::NG), a bare `401` from a revocation endpoint that
/// lets only confidential clients revoke (glewlwyd), `invalid_request` from a refresh or a revocation.
@Suite("Providers' answers as they are")
struct ProviderAnswerShapeTests {
    private static let redirect = URL(string: "identityflow://callback")!

    /// A provider whose discovery names the loopback server's endpoints; every other path is `answer`.
    static func provider(revocationMethods: [String]? = nil, answer: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply)
        throws -> LoopbackHTTPServer
    {
        try LoopbackHTTPServer(maxRequests: 16) { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            guard request.path == "/o/.well-known/openid-configuration" else { return answer(request) }
            var document: [String: Any] = [
                "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                "revocation_endpoint": "\(origin)/o/revoke/", "jwks_uri": "\(origin)/o/jwks/",
            ]
            document["revocation_endpoint_auth_methods_supported"] = revocationMethods
            return .json(200, object: document)
        }
    }

    static func service(_ server: LoopbackHTTPServer) throws -> HTTPIdentityService {
        try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: redirect))
    }

    /// Answers to the provider list that are not the documented list.
    static let notTheList: [LoopbackHTTPServer.Reply] = [
        .json(401, #"{"error": "unauthorized", "error_description": "no session"}"#),
        .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><form>Sign in</form></html>".utf8)),
        .json(200, #"{"status": "ok"}"#),
        .json(200, #"[{"name": "no id or type"}]"#),
        .response(status: 302, headers: ["Location": "/login"], body: Data()),
        .response(status: 403, headers: [:], body: Data()),
        .response(status: 500, headers: [:], body: Data()),
        .response(status: 404, headers: [:], body: Data()),
    ]

    @Test("the extension probe: any answer but the documented provider list means no extension API, described at debug level", arguments: notTheList)
    func probeDecidesFromShape(_ reply: LoopbackHTTPServer.Reply) async throws {
        // A redirect leads to the provider's login page, as LemonLDAP::NG's portal does.
        let loginPage = LoopbackHTTPServer.Reply.response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<form>Sign in</form>".utf8))
        let server = try Self.provider { request in request.path == "/login" ? loginPage : reply }
        defer { server.stop() }
        let logged = Locked<[IdentityFlowLogger.Record]>([])
        let logger = IdentityFlowLogger(minimumLevel: .debug) { record in logged.withLock { $0.append(record) } }
        let serves = try await Self.service(server).servesExtensionEndpoints(logger: logger)
        #expect(!serves)
        let records = logged.current
        #expect(records.count == 1)
        #expect(records.first?.level == .debug)
        #expect(records.first?.message.contains("not the documented list") == true)
    }

    @Test("the extension probe: the documented provider list means the extension API is there")
    func probeFindsTheList() async throws {
        let server = try Self.provider { _ in .json(200, #"[{"id": "idp", "name": "IdP", "type": "browser"}]"#) }
        defer { server.stop() }
        #expect(try await Self.service(server).servesExtensionEndpoints(logger: .disabled))
    }

    @Test("server mode against a provider answering unknown paths with 401 JSON: the registration fails with 11020, before any sign-in")
    func serverModeRegistrationWithout404() async throws {
        let server = try Self.provider { _ in .json(401, #"{"error": "unauthorized"}"#) }
        defer { server.stop() }
        let client = UserClient(configuration: .testing(), service: try Self.service(server), storage: InMemoryStorage())
        try await client.start()
        let error = await #expect(throws: IdentityFlowError.self) {
            _ = try await client.registerUser(
                .provider(IdentityProvider(identifier: "oidc", name: "OpenID Connect", kind: .browser)), responder: ScriptedResponder([]))
        }
        #expect(error?.code == .featureNotSupported, "\(String(describing: error))")
    }

    @Test(
        "a bare 401 from a revocation endpoint that names only secret-based methods: said to refuse public clients (10001), not 11001",
        arguments: [(["client_secret_basic"], true), (["client_secret_basic", "none"], false), (nil, false)] as [([String]?, Bool)])
    func bareRevocationRefusal(methods: [String]?, explained: Bool) async throws {
        let server = try Self.provider(revocationMethods: methods) { _ in .response(status: 401, headers: [:], body: Data()) }
        defer { server.stop() }
        let service = try Self.service(server)
        do {
            try await service.revoke(TokenSet(accessToken: "a", refreshToken: "r"))
            Issue.record("the revocation succeeded")
        } catch {
            #expect(error.code == (explained ? .configurationInvalid : .invalidServerResponse), "\(error)")
            #expect(error.message.contains("lets only clients with a secret revoke tokens") == explained, "\(error)")
        }
    }

    @Test("invalid_request at a refresh or a revocation is 10015 without the code exchange's redirect URI hint; at a code exchange it keeps it")
    func invalidRequestMessage() async throws {
        let server = try Self.provider { _ in .json(400, #"{"error": "invalid_request"}"#) }
        defer { server.stop() }
        let service = try Self.service(server)
        let refresh = await HTTPTestSupport.expectError(.requestInvalid) { () throws(IdentityFlowError) in _ = try await service.refresh(Redacted("rt")) }
        #expect(refresh?.message.contains("redirect URI") == false, "\(String(describing: refresh))")
        let revocation = await HTTPTestSupport.expectError(.requestInvalid) { () throws(IdentityFlowError) in
            try await service.revoke(TokenSet(accessToken: "a"))
        }
        #expect(revocation?.message.contains("redirect URI") == false, "\(String(describing: revocation))")
        let request = try AuthorizationRequest(redirectURI: Self.redirect, scopes: ["openid"])
        let exchange = await HTTPTestSupport.expectError(.requestInvalid) { () throws(IdentityFlowError) in
            _ = try await service.exchangeCode(Redacted("code"), request: request)
        }
        #expect(exchange?.message.contains("redirect URI") == true, "\(String(describing: exchange))")
    }
}
