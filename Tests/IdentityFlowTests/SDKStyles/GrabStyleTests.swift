import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Grab ID's behaviours on the engine: app-to-app login and the cached session, and its
/// configuration keys.
@Suite("Grab style: app-to-app login, cached session, configuration keys")
struct GrabStyleTests {
    static let redirect = URL(string: "identityflow://callback")!

    @Test("the browser challenge carries the identity app's URL; the app's redirect answers it")
    func appToAppLogin() async throws {
        let server = ReferenceIdentityService()
        server.offersAppLogin = true
        let harness = try await Harness.make(server: server)
        let responder = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    let app = try #require(challenge.appURL)
                    #expect(app.scheme == "reference-identity-app")
                    #expect(
                        URLComponents(url: app, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
                            == URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value)
                    return try server.logIn(at: app)  // the host found the app installed and opened it
                }),
            .createPin(.respond("24680")),
        ])
        _ = try await harness.client.registerUser(responder: responder)
        try responder.verify()
        server.offersAppLogin = false
        let plain = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    #expect(challenge.appURL == nil)
                    return try server.logIn(at: challenge.url)
                }), .createPin(.respond("24680")),
        ])
        _ = try await harness.client.registerUser(responder: plain)
        try plain.verify()
    }

    @Test("over HTTP the app URL carries the same request; prompt or a hint fall back to the browser silently")
    func appURLOverHTTP() async throws {
        let provider = ScriptedProvider(issuer: "https://issuer.test", jwks: { _ in "{}" }, token: { _ in .close })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: Self.redirect)
        configuration.appAuthorizationEndpoint = URL(string: "grabconnect2://authorize")!
        configuration.appAuthorizationSchemes = ["grabconnect2"]
        configuration.acrValues = "loa2"
        let browser = IdentityProvider(identifier: "oidc", name: "OIDC", kind: .browser)
        let request = AuthorizationRequest(
            redirectURI: Self.redirect, scopes: ["openid"], state: "st", nonce: "no", codeVerifier: String(repeating: "a", count: 43))
        let service = try HTTPIdentityService(configuration: configuration)
        let web = try await service.authorizationURL(for: browser, request: request)
        let app = try #require(try await service.appAuthorizationURL(for: browser, request: request))
        #expect(app.absoluteString.hasPrefix("grabconnect2://authorize?"))
        #expect(URLComponents(url: app, resolvingAgainstBaseURL: false)?.query == URLComponents(url: web, resolvingAgainstBaseURL: false)?.query)
        for hinted in ["prompt", "login_hint", "id_token_hint"] {
            var withHint = configuration
            switch hinted {
            case "prompt": withHint.prompt = "login"
            case "login_hint": withHint.loginHint = "alice"
            default: withHint.idTokenHint = Redacted("old.id.token")
            }
            #expect(try await HTTPIdentityService(configuration: withHint).appAuthorizationURL(for: browser, request: request) == nil, "\(hinted)")
        }
        #expect(try await service.appAuthorizationURL(for: IdentityProvider(identifier: "c", name: "C", kind: .custom(.oneStep)), request: request) == nil)
    }

    @Test("without a configured endpoint, the app Grab's client_public_info_endpoint names is used (its custom scheme listed in code)")
    func appURLFromDiscovery() async throws {
        let server = try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            if request.path == "/grabid/v1/oauth2/clients/client-1/public" {
                return .json(200, #"{"custom_protocols": ["{\"protocol_ios\": \"grabconnect2://authorize\"}"]}"#)
            }
            return .json(
                200,
                object: [
                    "issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/",
                    "token_endpoint": "\(origin)/o/token/",
                    "client_public_info_endpoint": "\(origin)/grabid/v1/oauth2/clients/{client_id}/public",
                ])
        }
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: Self.redirect)
        configuration.appAuthorizationSchemes = ["grabconnect2"]
        let request = AuthorizationRequest(
            redirectURI: Self.redirect, scopes: ["openid"], state: "st", nonce: "no", codeVerifier: String(repeating: "a", count: 43))
        let app = try await HTTPIdentityService(configuration: configuration)
            .appAuthorizationURL(for: IdentityProvider(identifier: "oidc", name: "OIDC", kind: .browser), request: request)
        #expect(app?.absoluteString.hasPrefix("grabconnect2://authorize?") == true)
    }

    @Test("with reusesValidSession, a login of the logged-in profile with a valid token returns at once")
    func cachedSession() async throws {
        let logs = LogCapture()
        var configuration = ClientConfiguration.testing(logger: logs.logger)
        configuration.reusesValidSession = true
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: configuration, service: server, storage: InMemoryStorage())
        try await client.start()
        let profile = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ])
        ).profile
        let calls = server.calls.count
        let responder = ScriptedResponder([])
        let result = try await client.authenticateUser(profile, responder: responder)
        try responder.verify()
        #expect(result.profile == profile)
        #expect(server.calls.count == calls, "the cached session called the server")
        // Without a valid token (revoked and expired), the PIN is asked again.
        try await client.logout()
        let asked = ScriptedResponder([.pin(.respond("24680"))])
        _ = try await client.authenticateUser(profile, responder: asked)
        try asked.verify()
    }

    @Test("without reusesValidSession every login asks, as OneWelcome's does")
    func noCachedSessionByDefault() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        let responder = ScriptedResponder([.pin(.respond("24680"))])
        _ = try await harness.client.authenticateUser(profile, responder: responder)
        try responder.verify()
    }

    @Test("a Grab Info.plist dictionary configures the service; a key named both ways is refused")
    func grabConfigurationKeys() throws {
        let plist: [String: Any] = [
            "ServiceDiscoveryUrl": "https://partner-api.grab.example/grabid/v1/oauth2/.well-known/openid-configuration",
            "ClientId": "partner-app", "RedirectUrl": "partner://callback", "Scope": "openid profile",
            "Hint": "hint.jwt", "IdTokenHint": "old.id.token", "Prompt": "consent", "AcrValues": "service:PASSENGER", "Request": "req.jwt",
            "app_authorization_endpoint": "grabconnect2://authorize",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        let configuration = try HTTPServiceConfiguration(data: data, name: "Info.plist")
        #expect(configuration.discoveryURL?.host == "partner-api.grab.example")
        #expect(configuration.clientID == "partner-app" && configuration.redirectURI.absoluteString == "partner://callback")
        #expect(configuration.scopes == ["openid", "profile"])
        #expect(configuration.loginHint == "hint.jwt" && configuration.idTokenHint?.value == "old.id.token")
        #expect(configuration.prompt == "consent" && configuration.acrValues == "service:PASSENGER" && configuration.requestObject == "req.jwt")
        #expect(configuration.appAuthorizationEndpoint?.scheme == "grabconnect2")
        let both = try JSONSerialization.data(withJSONObject: ["ClientId": "a", "client_id": "b", "redirect_uri": "x://y", "issuer": "https://i.example"])
        do {
            _ = try HTTPServiceConfiguration(data: both)
            Issue.record("a key named both ways was taken")
        } catch { #expect(error.code == .configurationInvalid) }
    }
}
