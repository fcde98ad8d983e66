import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// ``HTTPIdentityService``'s end-session URL and per-sign-in authorization parameters.
@Suite("HTTP provider logout and authorization parameters")
struct ProviderLogoutHTTPTests {
    static let redirect = URL(string: "identityflow://callback")!

    /// Discovery naming an `end_session_endpoint` (with a query of its own) on the loopback server.
    static func discovery(withEndSession: Bool) -> @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            guard request.path == "/o/.well-known/openid-configuration" else { return .json(404, #"{"error": "not_found"}"#) }
            var document: [String: Any] = [
                "issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
            ]
            if withEndSession { document["end_session_endpoint"] = "\(origin)/o/logout/?tenant=t1" }
            return .json(200, object: document)
        }
    }

    @Test("the end-session URL is the discovered end_session_endpoint with id_token_hint, client_id, post_logout_redirect_uri and state")
    func endSessionURL() async throws {
        let server = try LoopbackHTTPServer(handler: Self.discovery(withEndSession: true))
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server)
        let request = EndSessionRequest(idTokenHint: Redacted("h.p.s"), postLogoutRedirectURI: Self.redirect, state: Redacted("st+1"))
        let url = try #require(try await service.endSessionURL(for: request))
        #expect(url.absoluteString.contains("/o/logout/?tenant=t1&"))
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(query["tenant"] == "t1")
        #expect(query["id_token_hint"] == "h.p.s")
        #expect(query["client_id"] == "client-1")
        #expect(query["post_logout_redirect_uri"] == Self.redirect.absoluteString)
        #expect(URLQuery.formItems(of: url)?.first { $0.name == "state" }?.value == "st+1")
    }

    @Test("a provider without end_session_endpoint has no logout page")
    func noEndSessionEndpoint() async throws {
        let server = try LoopbackHTTPServer(handler: Self.discovery(withEndSession: false))
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server)
        let request = EndSessionRequest(idTokenHint: nil, postLogoutRedirectURI: Self.redirect, state: Redacted("s"))
        #expect(try await service.endSessionURL(for: request) == nil)
    }

    @Test("a sign-in's own parameters replace the configured ones of the same name, each sent once")
    func requestParametersWin() async throws {
        let server = try LoopbackHTTPServer(handler: Self.discovery(withEndSession: false))
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "client-1", redirectURI: Self.redirect)
        configuration.prompt = "login"
        configuration.acrValues = "loa2"
        configuration.extraAuthorizationParameters = ["ui_locales": "nl", "domain_hint": "example.com"]
        let service = try HTTPIdentityService(configuration: configuration)
        var request = AuthorizationRequest(
            redirectURI: Self.redirect, scopes: ["openid"], state: "st", nonce: "no", codeVerifier: String(repeating: "a", count: 43))
        request.parameters = AuthorizationParameters(acrValues: ["loa3"], maxAge: 0, prompt: "none", uiLocales: ["en"], extra: ["kc_idp_hint": "saml"])
        let url = try await service.authorizationURL(for: IdentityProvider(identifier: "oidc", name: "OIDC", kind: .browser), request: request)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        func values(_ name: String) -> [String] { items.filter { $0.name == name }.map { $0.value ?? "" } }
        #expect(values("prompt") == ["none"])
        #expect(values("acr_values") == ["loa3"])
        #expect(values("max_age") == ["0"])
        #expect(values("ui_locales") == ["en"])
        #expect(values("kc_idp_hint") == ["saml"])
        #expect(values("domain_hint") == ["example.com"])
    }
}
