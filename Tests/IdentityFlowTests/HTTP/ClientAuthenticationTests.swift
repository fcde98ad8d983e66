import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Confidential clients: `client_secret_basic` and `client_secret_post` at every token endpoint
/// call and at revocation, exactly as RFC 6749 §2.3.1 spells them, checked against discovery.
@Suite("Client authentication at the token and revocation endpoints")
struct ClientAuthenticationTests {
    /// A provider whose discovery lists `methods` (nil: no such member) and whose token endpoint
    /// grants every request; every request is recorded.
    static func withProvider(
        tokenMethods: [String]? = nil, revocationMethods: [String]? = nil, clientID: String = "client 1",
        authentication: ClientAuthentication, _ body: (HTTPIdentityService) async throws -> Void
    ) async throws -> [LoopbackHTTPServer.Request] {
        let server = try LoopbackHTTPServer(maxRequests: 32) { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                var document: [String: Any] = [
                    "issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                    "revocation_endpoint": "\(origin)/o/revoke/",
                ]
                if let tokenMethods { document["token_endpoint_auth_methods_supported"] = tokenMethods }
                if let revocationMethods { document["revocation_endpoint_auth_methods_supported"] = revocationMethods }
                return .json(200, object: document)
            case "/o/token/":
                return .json(200, object: ["access_token": "access-1", "token_type": "Bearer", "expires_in": 300, "refresh_token": "refresh-2"])
            case "/o/revoke/":
                return .response(status: 200, headers: [:], body: Data())
            default:
                return .json(404, #"{"error": "not_found"}"#)
            }
        }
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: clientID,
            redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"], requestTimeout: 10)
        configuration.clientAuthentication = authentication
        try await body(try HTTPIdentityService(configuration: configuration))
        return server.requests.filter { $0.path != "/o/.well-known/openid-configuration" }
    }

    /// Every call that authenticates the client: refresh, code exchange, password grant, token exchange, revocation.
    static func everyClientCall(_ service: HTTPIdentityService) async throws {
        _ = try await service.refresh(Redacted("refresh-1"))
        _ = try await service.exchangeCode(
            Redacted("code-1"),
            request: AuthorizationRequest(
                redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"], state: "state-1", nonce: "nonce-1",
                codeVerifier: String(repeating: "v", count: 43)))
        _ = try await service.passwordGrant(login: "alice", password: Redacted("alice-password"), scopes: [])
        _ = try await service.exchangeExternalToken(ExternalToken(provider: "google", token: "ya29.token"), scopes: [])
        try await service.revoke(TokenSet(accessToken: "access-9"))
    }

    @Test("client_secret_basic: Basic over the form-urlencoded id and secret at every call, and neither in the body")
    func basic() async throws {
        let secret = "s3cr:et +/%é"
        let requests = try await Self.withProvider(authentication: .clientSecretBasic(Redacted(secret))) { try await Self.everyClientCall($0) }
        #expect(requests.map(\.path) == ["/o/token/", "/o/token/", "/o/token/", "/o/token/", "/o/revoke/"])
        // RFC 6749 §2.3.1: "client%201" ":" "s3cr%3Aet%20%2B%2F%25%C3%A9", base64-encoded.
        let expected = "Basic " + Data("client%201:s3cr%3Aet%20%2B%2F%25%C3%A9".utf8).base64EncodedString()
        for request in requests {
            #expect(request.headers["authorization"] == expected, "\(request.path)")
            #expect(request.form["client_id"] == nil)
            #expect(request.form["client_secret"] == nil)
            #expect(!String(decoding: request.body, as: UTF8.self).contains("s3cr"))
        }
    }

    @Test("client_secret_post: client_id and client_secret in the body at every call, no Authorization header")
    func post() async throws {
        let requests = try await Self.withProvider(authentication: .clientSecretPost(Redacted("post secret&=1"))) { try await Self.everyClientCall($0) }
        #expect(requests.count == 5)
        for request in requests {
            #expect(request.headers["authorization"] == nil)
            #expect(request.form["client_id"] == "client 1")
            #expect(request.form["client_secret"] == "post secret&=1")
            #expect(String(decoding: request.body, as: UTF8.self).contains("client_secret=post%20secret%26%3D1"))
        }
        let refresh = try #require(requests.first)
        #expect(refresh.form["grant_type"] == "refresh_token")
        #expect(refresh.form["refresh_token"] == "refresh-1")
    }

    @Test("a public client sends its client_id only, as before")
    func publicClient() async throws {
        let requests = try await Self.withProvider(tokenMethods: ["client_secret_basic"], authentication: .none) { try await Self.everyClientCall($0) }
        #expect(requests.count == 5)
        for request in requests {
            #expect(request.headers["authorization"] == nil)
            #expect(request.form["client_id"] == "client 1")
            #expect(request.form["client_secret"] == nil)
        }
    }

    @Test("discovery listing the methods without the configured one: 11052 before anything is sent; listing it: sent")
    func unsupportedMethod() async throws {
        let refused = try await Self.withProvider(tokenMethods: ["none", "client_secret_basic"], authentication: .clientSecretPost(Redacted("x1"))) {
            service in
            let error = await HTTPTestSupport.expectError(.clientAuthenticationMethodNotSupported) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"))
            }
            #expect(error?.message.contains("client_secret_post") == true)
            #expect(error?.description.contains("x1") == false)
            await HTTPTestSupport.expectError(.clientAuthenticationMethodNotSupported) { () throws(IdentityFlowError) in
                try await service.passwordGrant(login: "alice", password: Redacted("pw"), scopes: [])
            }
        }
        #expect(refused.isEmpty)
        let revocation = try await Self.withProvider(
            tokenMethods: ["client_secret_basic"], revocationMethods: ["client_secret_post"], authentication: .clientSecretBasic(Redacted("x2"))
        ) { service in
            _ = try await service.refresh(Redacted("refresh-1"))
            await HTTPTestSupport.expectError(.clientAuthenticationMethodNotSupported) { () throws(IdentityFlowError) in
                try await service.revoke(TokenSet(accessToken: "access-1"))
            }
        }
        #expect(revocation.map(\.path) == ["/o/token/"])
        let listed = try await Self.withProvider(tokenMethods: ["client_secret_post"], authentication: .clientSecretPost(Redacted("x3"))) {
            _ = try await $0.refresh(Redacted("refresh-1"))
        }
        #expect(listed.count == 1)
    }

    @Test("a refused secret (401 invalid_client with a Basic challenge, RFC 6749 §5.2) fails with configurationInvalid, naming no secret")
    func refusedSecret() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            guard request.path == "/o/token/" else {
                return .json(
                    200, object: ["issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/"])
            }
            return .response(
                status: 401, headers: ["WWW-Authenticate": #"Basic realm="oauth""#, "Content-Type": "application/json"],
                body: Data(#"{"error": "invalid_client"}"#.utf8))
        }
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "app",
            redirectURI: URL(string: "identityflow://callback")!, requestTimeout: 30)
        configuration.clientAuthentication = .clientSecretBasic(Redacted("wrong-secret-known"))
        let service = try HTTPIdentityService(configuration: configuration)
        let error = await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
            try await service.refresh(Redacted("refresh-1"))
        }
        #expect(error?.oauthError == "invalid_client")
        #expect(error.map { String(describing: $0).contains("wrong-secret-known") } == false)
    }

    @Test("the configuration file: client_secret with token_endpoint_auth_method, basic by default; wrong combinations refused")
    func configurationFile() throws {
        func load(_ extra: String) throws(IdentityFlowError) -> HTTPServiceConfiguration {
            try HTTPServiceConfiguration(
                data: Data(#"{"issuer": "https://id.example", "client_id": "app", "redirect_uri": "app://cb"\#(extra)}"#.utf8))
        }
        #expect(try load("").clientAuthentication == .none)
        #expect(try load(#", "client_secret": "abc""#).clientAuthentication == .clientSecretBasic(Redacted("abc")))
        #expect(
            try load(#", "client_secret": "abc", "token_endpoint_auth_method": "client_secret_post""#).clientAuthentication
                == .clientSecretPost(Redacted("abc")))
        #expect(try load(#", "token_endpoint_auth_method": "none""#).clientAuthentication == .none)
        for wrong in [
            #", "token_endpoint_auth_method": "client_secret_basic""#, #", "client_secret": "abc", "token_endpoint_auth_method": "none""#,
            #", "client_secret": "abc", "token_endpoint_auth_method": "private_key_jwt""#, #", "client_secret": 12"#, #", "client_secret": """#,
        ] {
            #expect(throws: IdentityFlowError.self) { try load(wrong) }
            do { _ = try load(wrong) } catch {
                #expect(error.code == .configurationInvalid)
                #expect(!error.message.contains("abc"))
            }
        }
    }

    @Test("7Pass's configuration as it is: consumerKey, consumerSecret, callbackUri and environment")
    func sevenPassConfiguration() throws {
        let text = """
            {"consumerKey": "56a0982fcd8fb606d000b233", "consumerSecret": "2e7b77f99be2", "callbackUri": "oauthtest://oauth-callback",
             "environment": "qa", "environments": {"qa": "https://sso.qa.example", "production": "https://sso.example"}}
            """
        let configuration = try HTTPServiceConfiguration(data: Data(text.utf8))
        #expect(configuration.clientID == "56a0982fcd8fb606d000b233")
        #expect(configuration.redirectURI == URL(string: "oauthtest://oauth-callback"))
        #expect(configuration.issuer == URL(string: "https://sso.qa.example"))
        #expect(configuration.clientAuthentication == .clientSecretBasic(Redacted("2e7b77f99be2")))
        #expect(!String(describing: configuration).contains("2e7b77f99be2"))
        let both = Data(#"{"consumerSecret": "a", "client_secret": "b", "client_id": "c", "redirect_uri": "x://y", "issuer": "https://i"}"#.utf8)
        #expect(throws: IdentityFlowError.self) { try HTTPServiceConfiguration(data: both) }
    }

    @Test("an empty secret set in code is a configuration problem")
    func emptySecret() {
        var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "app", redirectURI: URL(string: "app://cb")!)
        configuration.clientAuthentication = .clientSecretBasic(Redacted(""))
        #expect(configuration.problem?.code == .configurationInvalid)
        #expect(ClientAuthentication.clientSecretPost(Redacted("x")).methodName == "client_secret_post")
        #expect(ClientAuthentication.none.methodName == "none")
    }
}
