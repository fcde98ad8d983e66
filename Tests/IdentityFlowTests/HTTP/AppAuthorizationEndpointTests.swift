import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The identity app's endpoint (configured `app_authorization_endpoint`, or the `protocol_ios` of
/// Grab's `client_public_info_endpoint`) carries state, nonce and the PKCE challenge like the
/// browser endpoint, so it is checked like every other endpoint: `https`, or `http` to a loopback
/// host; a custom scheme only when the host lists it in code (``HTTPServiceConfiguration/appAuthorizationSchemes``).
@Suite("App authorization endpoint: checked like every endpoint")
struct AppAuthorizationEndpointTests {
    static let redirect = URL(string: "identityflow://callback")!
    static let browser = IdentityProvider(identifier: "oidc", name: "OIDC", kind: .browser)
    static let refused = [
        "http://attacker.example/authorize", "javascript:alert(document.cookie)//", "file:///etc/passwd",
        "data:text/html;base64,PHNjcmlwdD4=", "grabconnect2://authorize",
    ]

    private static func service(
        discovering endpoint: String?, configured: URL? = nil, schemes: Set<String> = [],
        _ body: (HTTPIdentityService) async throws -> Void
    ) async throws {
        let server = try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            var document: [String: Any] = [
                "issuer": "https://issuer.test", "authorization_endpoint": "\(origin)/o/authorize/",
                "token_endpoint": "\(origin)/o/token/",
            ]
            if let endpoint {
                if request.path == "/grabid/v1/oauth2/clients/client-1/public" {
                    let entry = try? JSONSerialization.data(withJSONObject: ["protocol_ios": endpoint, "protocol_pax_ios": "grab://"])
                    return .json(200, object: ["custom_protocols": [String(decoding: entry ?? Data(), as: UTF8.self)]])
                }
                document["client_public_info_endpoint"] = "\(origin)/grabid/v1/oauth2/clients/{client_id}/public"
            }
            return .json(200, object: document)
        }
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: Self.redirect)
        configuration.appAuthorizationEndpoint = configured
        configuration.appAuthorizationSchemes = schemes
        try await body(try HTTPIdentityService(configuration: configuration))
    }

    @Test("a discovered endpoint that is not https or loopback http never gets the request", arguments: refused)
    func discoveredEndpointRefused(_ endpoint: String) async throws {
        try await Self.service(discovering: endpoint) { service in
            let error = await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await service.appAuthorizationURL(for: Self.browser, request: HTTPTestSupport.request)
            }
            #expect(error?.message.contains("app_authorization_endpoint") == true, "\(String(describing: error))")
        }
    }

    @Test("a configured endpoint (code or file) that is not https or loopback http is a configuration problem", arguments: refused)
    func configuredEndpointRefused(_ endpoint: String) throws {
        var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "c", redirectURI: Self.redirect)
        configuration.appAuthorizationEndpoint = URL(string: endpoint)
        #expect(configuration.problem?.code == .configurationInvalid)
        let file = try JSONSerialization.data(withJSONObject: [
            "issuer": "https://id.example", "client_id": "c", "redirect_uri": "x://y",
            "app_authorization_endpoint": endpoint,
        ])
        let loaded = try HTTPServiceConfiguration(data: file)
        #expect(loaded.problem?.code == .configurationInvalid, "a file cannot allow a custom scheme")
    }

    @Test("https and loopback http endpoints pass, discovered or configured")
    func secureEndpointsPass() async throws {
        for endpoint in ["https://app.example/authorize", "http://127.0.0.1:9/authorize"] {
            try await Self.service(discovering: endpoint) { service in
                let app = try await service.appAuthorizationURL(for: Self.browser, request: HTTPTestSupport.request)
                #expect(app?.absoluteString.hasPrefix(endpoint + "?") == true)
            }
        }
    }

    @Test("a custom scheme the host lists in code is taken; javascript, data, file and http cannot be listed")
    func customSchemeInCode() async throws {
        try await Self.service(discovering: "grabconnect2://authorize", schemes: ["grabconnect2"]) { service in
            let app = try await service.appAuthorizationURL(for: Self.browser, request: HTTPTestSupport.request)
            #expect(app?.absoluteString.hasPrefix("grabconnect2://authorize?") == true)
        }
        try await Self.service(discovering: nil, configured: URL(string: "GrabConnect2://authorize"), schemes: ["grabconnect2"]) { service in
            let app = try await service.appAuthorizationURL(for: Self.browser, request: HTTPTestSupport.request)
            #expect(app?.scheme == "GrabConnect2" || app?.scheme == "grabconnect2")
        }
        for scheme in ["javascript", "data", "file", "http", "https", "JavaScript", "vbscript", "blob", "about", ""] {
            var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "c", redirectURI: Self.redirect)
            configuration.appAuthorizationSchemes = [scheme]
            #expect(configuration.problem?.code == .configurationInvalid, "\(scheme)")
        }
    }
}
