import Foundation
import Testing
import IdentityFlowTesting
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Several browser identity providers over HTTP: the chosen one reaches the authorization request
/// through the configured hint parameter, and the list may come from the configuration.
@Suite("Identity providers: hint parameter and configured list")
struct IdentityProviderHintTests {
    static let redirect = URL(string: "identityflow://callback")!
    static let google = IdentityProvider(identifier: "google", name: "Google", kind: .browser)
    static let microsoft = IdentityProvider(identifier: "microsoft", name: "Microsoft", kind: .browser)

    static func query(_ url: URL, _ name: String) -> [String] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter { $0.name == name }.compactMap(\.value)
    }

    /// A stub provider: discovery only, every request recorded.
    static func provider() throws -> LoopbackHTTPServer {
        // A stock provider: anything but its OpenID Connect endpoints is a bare 404.
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in .close }, extra: { _ in .json(404, "{}") })
        return try LoopbackHTTPServer(handler: provider.handler)
    }

    static func configuration(_ server: LoopbackHTTPServer, hint: String? = "kc_idp_hint", providers: [IdentityProvider]? = nil)
        -> HTTPServiceConfiguration
    {
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "client-1", redirectURI: redirect)
        configuration.identityProviderHintParameter = hint
        configuration.identityProviders = providers
        return configuration
    }

    @Test(
        "the chosen browser provider's identifier reaches the authorization URL as the configured hint parameter, once",
        arguments: ["kc_idp_hint", "idp", "identity_provider"])
    func hintReachesAuthorizationURL(_ parameter: String) async throws {
        let server = try Self.provider()
        defer { server.stop() }
        let service = try HTTPIdentityService(configuration: Self.configuration(server, hint: parameter))
        for provider in [Self.google, Self.microsoft] {
            let url = try await service.authorizationURL(for: provider, request: HTTPTestSupport.request)
            #expect(Self.query(url, parameter) == [provider.identifier])
            #expect(Self.query(url, "state") == ["state-1"] && Self.query(url, "client_id") == ["client-1"])
        }
    }

    @Test("without a hint parameter none is sent; a credentials provider continuing in the browser carries none")
    func noHint() async throws {
        let server = try Self.provider()
        defer { server.stop() }
        let plain = try await HTTPIdentityService(configuration: Self.configuration(server, hint: nil))
            .authorizationURL(for: Self.google, request: HTTPTestSupport.request)
        #expect(Self.query(plain, "kc_idp_hint").isEmpty)
        #expect(!plain.absoluteString.contains("google"))
        let credentials = try await HTTPIdentityService(configuration: Self.configuration(server))
            .authorizationURL(for: IdentityProvider(identifier: "password", name: "Password", kind: .credentials), request: HTTPTestSupport.request)
        #expect(Self.query(credentials, "kc_idp_hint").isEmpty)
    }

    @Test("an extra parameter of the same name does not replace the hint")
    func extraParameterDoesNotReplaceHint() async throws {
        let server = try Self.provider()
        defer { server.stop() }
        var configuration = Self.configuration(server)
        configuration.extraAuthorizationParameters = ["kc_idp_hint": "attacker", "ui_locales": "nl"]
        let url = try await HTTPIdentityService(configuration: configuration).authorizationURL(for: Self.google, request: HTTPTestSupport.request)
        #expect(Self.query(url, "kc_idp_hint") == ["google"])
        #expect(Self.query(url, "ui_locales") == ["nl"])
    }

    @Test("a configured list answers identityProviders() without asking the server's extension endpoint")
    func configuredListAsksNothing() async throws {
        let server = try Self.provider()
        defer { server.stop() }
        let service = try HTTPIdentityService(configuration: Self.configuration(server, providers: [Self.google, Self.microsoft]))
        #expect(try await service.identityProviders() == [Self.google, Self.microsoft])
        #expect(server.requests.isEmpty, "\(server.requests.map(\.path))")
        // Without the list, a stock provider has no endpoint to ask: 11020.
        let asking = try HTTPIdentityService(configuration: Self.configuration(server))
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in _ = try await asking.identityProviders() }
        #expect(server.requests.contains { $0.path == "/identityflow/identity-providers" })
    }

    @Test("registration with nil picks the first configured browser provider, and its hint reaches the browser challenge")
    func registrationUsesConfiguredList() async throws {
        let server = try Self.provider()
        defer { server.stop() }
        let service = try HTTPIdentityService(configuration: Self.configuration(server, providers: [Self.microsoft, Self.google]))
        var clientConfiguration = ClientConfiguration(redirectURI: Self.redirect)
        clientConfiguration.callbackExecutor = .immediate
        let client = UserClient(configuration: clientConfiguration, service: service, storage: InMemoryStorage())
        try await client.start()
        #expect(try await client.identityProviders() == [Self.microsoft, Self.google])
        for (chosen, expected) in [(nil, Self.microsoft), (Optional(Self.google), Self.google)] {
            let seen = Locked<[IdentityProvider]>([])
            let result = await Result { () async throws(IdentityFlowError) in
                try await client.registerUser(chosen.map { RegistrationRequest.provider($0).stateless() } ?? .stateless) { challenge in
                    guard case .browserRegistration(let browser) = challenge else { return }
                    seen.withLock { $0.append(browser.identityProvider) }
                    #expect(Self.query(browser.url, "kc_idp_hint") == [expected.identifier])
                    browser.sender.cancel(browser)
                }
            }
            #expect(result.failure?.code == .actionCancelled)
            #expect(seen.current == [expected])
        }
        #expect(!server.requests.contains { $0.path.hasPrefix("/identityflow") }, "no extension endpoint was asked")
    }

    @Test("a hint parameter IdentityFlow sets itself, an empty or malformed one, an empty list or a repeated identifier is a configuration problem")
    func problems() throws {
        var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "c", redirectURI: Self.redirect)
        #expect(configuration.problem == nil)
        for bad in ["state", "redirect_uri", "prompt", "", "kc idp", "a&b", "a=b"] {
            configuration.identityProviderHintParameter = bad
            #expect(configuration.problem?.code == .configurationInvalid, "\(bad)")
        }
        configuration.identityProviderHintParameter = "kc_idp_hint"
        #expect(configuration.problem == nil)
        configuration.identityProviders = []
        #expect(configuration.problem?.code == .configurationInvalid)
        configuration.identityProviders = [Self.google, IdentityProvider(identifier: "google", name: "Google again", kind: .browser)]
        #expect(configuration.problem?.message.contains("twice") == true)
        configuration.identityProviders = [Self.google]
        #expect(configuration.problem == nil)
    }

    @Test("the configuration file names the hint parameter and the provider list; wrong shapes are refused")
    func configurationFile() throws {
        let file: [String: Any] = [
            "issuer": "https://keycloak.example/realms/app", "client_id": "app", "redirect_uri": "app://callback",
            "identity_provider_hint_parameter": "kc_idp_hint",
            "identity_providers": [
                ["id": "google", "name": "Google"], ["id": "microsoft", "name": "Microsoft", "type": "browser"],
                ["id": "signup", "name": "Sign up", "type": "custom", "steps": 2], ["id": "password", "type": "credentials"],
                ["id": "social", "type": "token_exchange"],
            ],
        ]
        let configuration = try HTTPServiceConfiguration(data: try JSONSerialization.data(withJSONObject: file))
        #expect(configuration.identityProviderHintParameter == "kc_idp_hint")
        #expect(
            configuration.identityProviders == [
                Self.google, Self.microsoft, IdentityProvider(identifier: "signup", name: "Sign up", kind: .custom(.twoStep)),
                IdentityProvider(identifier: "password", name: "password", kind: .credentials),
                IdentityProvider(identifier: "social", name: "social", kind: .tokenExchange),
            ])
        #expect(configuration.problem == nil)
        #expect(configuration.description.contains("identityProviderHintParameter: kc_idp_hint"))
        let base: [String: Any] = ["issuer": "https://id.example", "client_id": "c", "redirect_uri": "x://y"]
        let wrong: [(String, Any)] = [
            ("identity_provider_hint_parameter", 3), ("identity_providers", "google"), ("identity_providers", [["name": "No id"]]),
            ("identity_providers", [["id": "x", "type": "custom"]]), ("identity_providers", [["id": "x", "type": "saml"]]),
            ("app_login_fallback", "play_store"),
        ]
        for (key, value) in wrong {
            let data = try JSONSerialization.data(withJSONObject: base.merging([key: value]) { $1 })
            #expect(throws: IdentityFlowError.self, "\(key): \(value)") { try HTTPServiceConfiguration(data: data) }
        }
    }
}
