import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("HTTP service: configuration, authorization URL and error mapping")
struct HTTPServiceMappingTests {
    private static let redirect = URL(string: "identityflow://callback")!

    @Test("the configuration loads from JSON and from a property list")
    func loadsFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let values: [String: Any] = [
            "issuer": "https://id.example.com/o", "client_id": "app", "redirect_uri": "myapp://callback", "scopes": "openid email",
            "prompt": "login", "login_hint": "alice", "acr_values": "loa2", "request": "eyJ.x.y",
            "extra_authorization_parameters": ["ui_locales": "nl"], "clock_skew_seconds": 30, "request_timeout_seconds": 7,
        ]
        let json = directory.appendingPathComponent("c.json")
        try JSONSerialization.data(withJSONObject: values).write(to: json)
        let plist = directory.appendingPathComponent("c.plist")
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: plist)
        for url in [json, plist] {
            let configuration = try HTTPServiceConfiguration(contentsOf: url)
            #expect(configuration.issuer == URL(string: "https://id.example.com/o"))
            #expect(configuration.clientID == "app")
            #expect(configuration.scopes == ["openid", "email"])
            #expect(configuration.prompt == "login")
            #expect(configuration.loginHint == "alice")
            #expect(configuration.acrValues == "loa2")
            #expect(configuration.requestObject == "eyJ.x.y")
            #expect(configuration.extraAuthorizationParameters == ["ui_locales": "nl"])
            #expect(configuration.clockSkew == 30)
            #expect(configuration.requestTimeout == 7)
            #expect(configuration.resolvedExtensionBaseURL == URL(string: "https://id.example.com/identityflow"))
            #expect(configuration.problem == nil)
        }
    }

    @Test("a configuration without client id, or with a mistyped value, is refused with 10001")
    func refusesBadFiles() async {
        for text in [#"{"issuer": "https://a.test", "redirect_uri": "x://y"}"#, #"{"client_id": "a", "redirect_uri": "x://y", "scopes": 3}"#, "not a file"] {
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try HTTPServiceConfiguration(data: Data(text.utf8)) }
        }
    }

    @Test("hostile numbers never trap and never loosen validation: NaN, infinity and 1e300 are refused with 10001")
    func hostileNumbers() async {
        func plist(_ key: String, _ real: String) -> String {
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>issuer</key><string>https://a.test</string><key>client_id</key><string>c</string><key>redirect_uri</key><string>x://y</string><key>"#
                + key + "</key><real>" + real + "</real></dict></plist>"
        }
        let texts = [
            #"{"issuer": "https://a.test", "client_id": "c", "redirect_uri": "x://y", "max_response_body_bytes": 1e300}"#,
            plist("max_response_body_bytes", "nan"), plist("max_response_body_bytes", "inf"),
            #"{"issuer": "https://a.test", "client_id": "c", "redirect_uri": "x://y", "clock_skew_seconds": 1e300}"#,
            plist("clock_skew_seconds", "inf"), plist("clock_skew_seconds", "nan"), plist("clock_skew_seconds", "301"),
            plist("request_timeout_seconds", "inf"),
        ]
        for text in texts {
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                _ = try HTTPIdentityService(configuration: try HTTPServiceConfiguration(data: Data(text.utf8)))
            }
        }
        var fiveMinutes = HTTPServiceConfiguration(issuer: URL(string: "https://a.test")!, clientID: "c", redirectURI: Self.redirect)
        fiveMinutes.clockSkew = 300
        #expect(fiveMinutes.problem == nil)
    }

    @Test("endpoints missing from openid-configuration are taken from the RFC 8414 document of the same issuer, and only of the same issuer")
    func discoveryMerge() async throws {
        for sameIssuer in [true, false] {
            let server = try LoopbackHTTPServer { request in
                let origin = "http://\(request.headers["host"] ?? "")"
                switch request.path {
                case "/o/.well-known/openid-configuration":
                    return .json(
                        200,
                        object: [
                            "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                            "jwks_uri": "\(origin)/o/jwks/", "userinfo_endpoint": "\(origin)/o/userinfo/",
                        ])
                case "/o/.well-known/oauth-authorization-server":
                    return .json(
                        200,
                        object: [
                            "issuer": sameIssuer ? "\(origin)/o" : "\(origin)/other", "authorization_endpoint": "\(origin)/o/authorize/",
                            "token_endpoint": "\(origin)/o/token/", "revocation_endpoint": "\(origin)/o/revoke/",
                        ])
                default: return .json(404, #"{"error": "not_found"}"#)
                }
            }
            defer { server.stop() }
            let service = try HTTPIdentityService(
                configuration: HTTPServiceConfiguration(issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
            let metadata = try await service.providerMetadata()
            #expect((metadata.revocationEndpoint?.absoluteString.hasSuffix("/o/revoke/") ?? false) == sameIssuer)
            #expect(metadata.jwksURI?.absoluteString.hasSuffix("/o/jwks/") == true)
        }
    }

    @Test("discovery falls back to the RFC 8414 document")
    func discoveryFallback() async throws {
        let server = try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "")"
            guard request.path == "/o/.well-known/oauth-authorization-server" else { return .json(404, #"{"error": "not_found"}"#) }
            return .json(200, object: ["issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/"])
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        let metadata = try await service.providerMetadata()
        #expect(metadata.tokenEndpoint.absoluteString.hasSuffix("/o/token/"))
        _ = try await service.providerMetadata()
        // The document lacks revocation, userinfo and JWKS, so the last candidate is asked for them too.
        #expect(
            server.requests.map(\.path) == [
                "/o/.well-known/openid-configuration", "/o/.well-known/oauth-authorization-server",
                "/.well-known/oauth-authorization-server/o",
            ], "cached after the first success")
    }

    @Test("the authorization URL carries PKCE S256, state, nonce, scopes and the optional parameters")
    func authorizationURL() async throws {
        let provider = ScriptedProvider(issuer: "https://issuer.test", jwks: { _ in "{}" }, token: { _ in .close })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: Self.redirect)
        configuration.prompt = "login"
        configuration.loginHint = "alice@example.test"
        configuration.idTokenHint = Redacted("old.id.token")
        configuration.acrValues = "loa2"
        configuration.requestObject = "req.jwt"
        configuration.extraAuthorizationParameters = ["ui_locales": "nl", "state": "attacker"]
        let service = try HTTPIdentityService(configuration: configuration)
        let request = AuthorizationRequest(
            redirectURI: Self.redirect, scopes: ["openid", "email"], state: "st", nonce: "no", codeVerifier: String(repeating: "a", count: 43))
        let url = try await service.authorizationURL(for: IdentityProvider(identifier: "oidc", name: "OIDC", kind: .browser), request: request)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        #expect(url.absoluteString.contains("/o/authorize/?"))
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "client-1")
        #expect(query["redirect_uri"] == "identityflow://callback")
        #expect(query["scope"] == "openid email")
        #expect(query["state"] == "st")
        #expect(query["nonce"] == "no")
        #expect(query["code_challenge"] == request.codeChallenge)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["prompt"] == "login")
        #expect(query["login_hint"] == "alice@example.test")
        #expect(query["id_token_hint"] == "old.id.token")
        #expect(query["acr_values"] == "loa2")
        #expect(query["request"] == "req.jwt")
        #expect(query["ui_locales"] == "nl")
        #expect(items.filter { $0.name == "state" }.count == 1, "extra parameters never replace IdentityFlow's own")
        await HTTPTestSupport.expectError(.invalidIdentityProvider) { () throws(IdentityFlowError) in
            try await service.authorizationURL(for: IdentityProvider(identifier: "c", name: "C", kind: .custom(.oneStep)), request: request)
        }
    }

    struct OAuthCase: Sendable, CustomTestStringConvertible {
        let status: Int
        let error: String
        let code: ErrorCode
        var testDescription: String { "\(status) \(error) → \(code)" }
    }

    @Test(
        "token endpoint errors map to their documented codes, with oauthError set",
        arguments: [
            OAuthCase(status: 400, error: "invalid_grant", code: .externalIdentityProviderFailure),
            OAuthCase(status: 401, error: "invalid_client", code: .configurationInvalid),
            OAuthCase(status: 400, error: "unauthorized_client", code: .configurationInvalid),
            OAuthCase(status: 400, error: "invalid_request", code: .requestInvalid),
            OAuthCase(status: 400, error: "temporarily_unavailable", code: .externalIdentityProviderFailure),
            OAuthCase(status: 429, error: "slow_down", code: .serverNotReachable),
        ])
    func tokenErrors(_ oauth: OAuthCase) async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in "{}" },
            token: { _ in
                .json(oauth.status, #"{"error": "\#(oauth.error)", "error_description": "secret-code-xyz was bad"}"#)
            })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server)
        let exchange = await HTTPTestSupport.expectError(oauth.code) { () throws(IdentityFlowError) in
            try await service.exchangeCode(Redacted("secret-code-xyz"), request: HTTPTestSupport.request)
        }
        #expect(exchange?.oauthError == oauth.error)
        #expect(exchange.map { !$0.description.contains("secret-code-xyz") } == true)
        let refresh = await HTTPTestSupport.expectError(oauth.code) { () throws(IdentityFlowError) in try await service.refresh(Redacted("rt")) }
        #expect(refresh?.oauthError == oauth.error)
    }

    @Test(
        "token responses: expires_in as a number or a string of digits, token_type in any case; anything else is 11001",
        arguments: [
            (#""expires_in": 300, "token_type": "Bearer""#, Optional(300.0)),
            (#""expires_in": "300", "token_type": "bearer""#, 300),
            (#""token_type": "BEARER""#, nil),
            (#""expires_in": "5 minutes", "token_type": "Bearer""#, -1),
            (#""expires_in": "-300", "token_type": "Bearer""#, -1),
            (#""expires_in": "", "token_type": "Bearer""#, -1),
            (#""expires_in": 300, "token_type": "mac""#, -1),
        ])
    func tokenResponseMembers(_ members: String, _ expiresIn: Double?) async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in "{}" }, token: { _ in .json(200, #"{"access_token": "a", "# + members + "}") })
        let server = try LoopbackHTTPServer(maxRequests: 8, handler: provider.handler)
        defer { server.stop() }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let service = try HTTPTestSupport.service(server, now: now)
        if expiresIn == -1 {
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in try await service.refresh(Redacted("rt")) }
            #expect(error?.message.hasPrefix("The token response has no valid") == true, "\(String(describing: error))")
        } else {
            let tokens = try await service.refresh(Redacted("rt"))
            #expect(tokens.expiresAt == expiresIn.map { now.addingTimeInterval($0) })
        }
    }

    @Test(
        "a bare 404 or 405 at an extension endpoint is 11020 naming extensionBaseURL, never a profile that is gone",
        arguments: [
            LoopbackHTTPServer.Reply.response(status: 404, headers: ["Content-Type": "text/html"], body: Data("<h1>Not Found</h1>".utf8)),
            .json(404, #"{"detail": "Not found."}"#),
            .response(status: 405, headers: [:], body: Data()),
        ])
    func extensionAbsent(_ reply: LoopbackHTTPServer.Reply) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { _ in reply }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        let profile = UserProfile(profileId: "p1")
        let enrol = await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            try await service.enrolPin(PinEnrolment(profile: profile, salt: [1], iterations: 1000, publicKey: [2]), accessToken: Redacted("t"))
        }
        #expect(enrol?.message.contains("/identityflow/pin/enrol") == true)
        #expect(enrol?.message.contains("extensionBaseURL") == true)
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in _ = try await service.profileExists(profile) }
        let proof = PinKeyAuthorization(nonce: [1], proof: [2])
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in try await service.deregister(profile, authorization: proof) }
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            try await service.revokeBiometricKey(for: profile, authorization: proof)
        }
    }

    @Test("429 at an extension endpoint is 9001, the PIN check's passing failure, with Retry-After in the message, whatever error it names")
    func rateLimited() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { request in
            request.path == "/identityflow/pin/verify"
                ? .response(status: 429, headers: ["Content-Type": "application/json", "Retry-After": "30"], body: Data(#"{"error": "invalid_request"}"#.utf8))
                : .response(status: 429, headers: [:], body: Data())
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        let profile = UserProfile(profileId: "p1")
        let verify = await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in
            try await service.verifyPinProof(Redacted([UInt8](repeating: 7, count: 32)), for: profile, nonce: [1])
        }
        #expect(verify?.message.contains("HTTP 429") == true && verify?.message.contains("wait 30 s") == true, "\(String(describing: verify))")
        let challenge = await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in
            try await service.pinLoginChallenge(for: profile)
        }
        #expect(challenge?.message.contains("wait") == false)
    }

    @Test("a mobile authentication request's expiry is moved onto the device's clock by the answer's Date", arguments: [true, false])
    func mobileAuthExpiryOnDeviceClock(_ sendsDate: Bool) async throws {
        let serverNow = Date(timeIntervalSince1970: 1_700_000_000)
        let device = serverNow.addingTimeInterval(3600)  // an hour ahead
        let server = try LoopbackHTTPServer(maxRequests: 4) { _ in
            let body =
                #"{"requests": [{"id": "r1", "profile_id": "p1", "message": "Pay?", "type": "confirmation", "expires_at": 1700000300, "nonce": "\#(Base64URL.encode([UInt8](repeating: 5, count: 32)))"}]}"#
            return .response(
                status: 200, headers: ["Content-Type": "application/json"].merging(sendsDate ? ["Date": "Tue, 14 Nov 2023 22:13:20 GMT"] : [:]) { $1 },
                body: Data(body.utf8))
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect), now: { device })
        let requests = try await service.mobileAuthRequests(
            .pending, for: UserProfile(profileId: "p1"),
            authorization: PinKeyAuthorization(nonce: [1], proof: [2]))
        #expect(requests.map(\.expiresAt) == [sendsDate ? device.addingTimeInterval(300) : serverNow.addingTimeInterval(300)])
    }

    @Test("only the server's own answer says a profile is gone: 404 unknown_profile or 410; those count as done for a removal")
    func profileGone() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { request in
            let body = String(decoding: request.body, as: UTF8.self)
            return switch (request.path, body.contains(#""unknown""#), body.contains(#""none""#)) {
            case ("/identityflow/profiles/unknown", _, _), ("/identityflow/deregister", true, _), ("/identityflow/biometric/revoke", true, _):
                .json(404, #"{"error": "unknown_profile", "error_description": "x"}"#)
            case ("/identityflow/biometric/revoke", _, true): .json(404, #"{"error": "authenticator_not_registered", "error_description": "x"}"#)
            default: .json(410, #"{"error": "user_deregistered", "error_description": "x"}"#)
            }
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        #expect(try await !service.profileExists(UserProfile(profileId: "unknown")))
        #expect(try await !service.profileExists(UserProfile(profileId: "deregistered")))
        let proof = PinKeyAuthorization(nonce: [1], proof: [2])
        try await service.deregister(UserProfile(profileId: "unknown"), authorization: proof)
        try await service.deregister(UserProfile(profileId: "deregistered"), authorization: proof)
        try await service.revokeBiometricKey(for: UserProfile(profileId: "unknown"), authorization: proof)
        try await service.revokeBiometricKey(for: UserProfile(profileId: "none"), authorization: proof)
    }

    @Test("extension answers map to their documented outcomes")
    func extensionMapping() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 32) { request in
            switch request.path {
            case "/identityflow/registration/custom/gone/init": .json(410, #"{"error": "registration_expired", "error_description": "x"}"#)
            case "/identityflow/registration/custom/nope/init": .json(404, #"{"error": "unknown_identity_provider", "error_description": "x"}"#)
            case "/identityflow/registration/custom/odd/init": .json(200, #"{"session": "s", "status": 7000, "data": ""}"#)
            case "/identityflow/registration/custom/twice/init": .json(200, #"{"session": "s", "status": 2000, "status": 5000, "data": ""}"#)
            case "/identityflow/registration/custom/ok/complete": .json(200, #"{"status": 2000, "data": "d"}"#)
            case "/identityflow/pin/challenge" where String(decoding: request.body, as: UTF8.self).contains("gone"):
                .json(410, #"{"error": "user_deregistered", "error_description": "x"}"#)
            case "/identityflow/pin/enrol": .json(401, #"{"error": "invalid_token", "error_description": "x"}"#)
            case "/identityflow/pin/verify" where String(decoding: request.body, as: UTF8.self).contains("a-long"):
                .json(401, #"{"error": "invalid_pin", "error_description": "x", "failure_count": 1, "max_failure_count": 3, "remaining_failure_count": 2}"#)
            case "/identityflow/pin/verify": .json(410, #"{"error": "user_deregistered", "error_description": "x"}"#)
            case "/identityflow/profiles/gone":
                request.method == "GET"
                    ? .json(410, #"{"error": "user_deregistered", "error_description": "x"}"#) : .response(status: 204, headers: [:], body: Data())
            default: .json(404, #"{"error": "unknown_profile", "error_description": "x"}"#)
            }
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        func custom(_ id: String) -> IdentityProvider { IdentityProvider(identifier: id, name: id, kind: .custom(.twoStep)) }
        let expired = await HTTPTestSupport.expectError(.customRegistrationExpired) { () throws(IdentityFlowError) in
            try await service.initCustomRegistration(provider: custom("gone"), data: Redacted(nil))
        }
        #expect(expired?.oauthError == "registration_expired")
        await HTTPTestSupport.expectError(.invalidIdentityProvider) { () throws(IdentityFlowError) in
            try await service.initCustomRegistration(provider: custom("nope"), data: Redacted(nil))
        }
        await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            try await service.initCustomRegistration(provider: custom("odd"), data: Redacted(nil))
        }
        await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            try await service.initCustomRegistration(provider: custom("twice"), data: Redacted(nil))
        }
        await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            try await service.completeCustomRegistration(provider: custom("ok"), session: "s", data: Redacted("d"))
        }
        let profile = UserProfile(profileId: "gone")
        let deregistered = await HTTPTestSupport.expectError(.userDeregistered) { () throws(IdentityFlowError) in
            try await service.pinLoginChallenge(for: profile)
        }
        #expect(deregistered?.userProfile == profile)
        await HTTPTestSupport.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
            try await service.enrolPin(PinEnrolment(profile: profile, salt: [1], iterations: 1000, publicKey: [2]), accessToken: Redacted("t"))
        }
        let proof = Redacted([UInt8](repeating: 7, count: 32))
        let rejected = try await service.verifyPinProof(proof, for: UserProfile(profileId: "a-long-profile-id"), nonce: [UInt8](repeating: 1, count: 32))
        #expect(rejected == .rejected(failureCount: 1, maxFailureCount: 3))
        let gone = try await service.verifyPinProof(proof, for: UserProfile(profileId: "p"), nonce: [1])
        #expect(gone == .deregistered)
        let exists = try await service.profileExists(profile)
        #expect(!exists)
        let otherExists = try await service.profileExists(UserProfile(profileId: "other"))
        #expect(!otherExists)
        try await service.deregister(profile, authorization: PinKeyAuthorization(nonce: [1], proof: [2]))
        await HTTPTestSupport.expectError(.userDeregistered) { () throws(IdentityFlowError) in
            try await service.pinLoginChallenge(for: UserProfile(profileId: "unknown"))
        }
    }

    @Test(
        "invalid_client at revocation: a provider that names only secret-based methods is said to refuse public clients; otherwise the generic 10001",
        arguments: [(["client_secret_basic"], true), (["client_secret_basic", "none"], false), (nil, false)] as [([String]?, Bool)])
    func revocationRefusedToPublicClients(methods: [String]?, explained: Bool) async throws {
        let server = try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                var document: [String: Any] = [
                    "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/",
                    "token_endpoint": "\(origin)/o/token/", "revocation_endpoint": "\(origin)/o/revoke/",
                ]
                document["revocation_endpoint_auth_methods_supported"] = methods
                return .json(200, object: document)
            default:
                return .json(401, #"{"error": "invalid_client", "error_description": "The client cannot authenticate with methods: ['client_secret_basic']"}"#)
            }
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: Self.redirect))
        let error = await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
            try await service.revoke(TokenSet(accessToken: "a", refreshToken: "r"))
        }
        #expect(error?.oauthError == "invalid_client")
        #expect(error?.message.contains("lets only clients with a secret revoke tokens") == explained, "\(String(describing: error))")
    }
}
