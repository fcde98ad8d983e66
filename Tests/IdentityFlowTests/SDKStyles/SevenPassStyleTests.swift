import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// 7Pass's native logins on the engine: login and password (the password grant), social login
/// by token exchange, and the browser continuation after `interaction_required`.
@Suite("7Pass style: credentials, token exchange, interaction_required")
struct SevenPassStyleTests {
    static func harness() async throws -> (Harness, IdentityProvider) {
        let harness = try await Harness.make()
        let provider = harness.server.addCredentialsProvider(id: "seven-pass", name: "7Pass")
        harness.server.setPassword("correct horse", for: "carol")
        return (harness, provider)
    }

    @Test("a wrong password brings the credentials challenge back with 11025; the right one registers")
    func wrongThenRight() async throws {
        let (harness, provider) = try await Self.harness()
        let responder = ScriptedResponder([
            .credentials(.respond((login: "carol", password: "wrong"))),
            .credentials(.respond((login: "carol", password: "correct horse")), expecting: .invalidCredentials),
            .createPin(.respond("24680")),
        ])
        let result = try await harness.client.registerUser(.provider(provider), responder: responder)
        try responder.verify()
        #expect(harness.client.userProfiles == [result.profile])
        #expect(!harness.logs.messages.joined().contains("correct horse"), "the password reached a log")
    }

    @Test("interaction_required continues in the browser with the autologin token, which signs the user in")
    func interactionRequired() async throws {
        let (harness, provider) = try await Self.harness()
        harness.server.requireInteraction(for: "carol")
        let server = harness.server
        let responder = ScriptedResponder([
            .credentials(.respond((login: "carol", password: "correct horse"))),
            .browserRegistration(
                .respondWith { challenge in
                    let autologin = URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "autologin_token" }?.value
                    #expect(autologin?.isEmpty == false)
                    return try server.logIn(at: challenge.url, as: "nobody-typed-this")  // the token decides who signs in
                }),
            .createPin(.respond("24680")),
        ])
        _ = try await harness.client.registerUser(.provider(provider), responder: responder)
        try responder.verify()
    }

    @Test("social login: a known token registers, a refused one fails with 11026 and leaves nothing")
    func tokenExchange() async throws {
        let harness = try await Harness.make()
        harness.server.addExternalToken("ya29.google-token", provider: "google", for: "dave")
        let responder = ScriptedResponder([.createPin(.respond("24680"))])
        let result = try await harness.client.registerUser(.externalToken(ExternalToken(provider: "google", token: "ya29.google-token")), responder: responder)
        try responder.verify()
        #expect(result.identityProvider.kind == .tokenExchange && result.identityProvider.identifier == "google")
        let refused = await Result { () async throws(IdentityFlowError) in
            try await harness.client.registerUser(
                .externalToken(ExternalToken(provider: "facebook", token: "ya29.google-token")), responder: ScriptedResponder([]))
        }
        #expect(refused.failure?.code == .externalTokenRefused)
        #expect(harness.client.userProfiles == [result.profile])
        #expect(!"\(ExternalToken(provider: "google", token: "secret-token"))".contains("secret-token"))
        let stateless = try await harness.client.registerUser(
            .externalToken(ExternalToken(provider: "google", token: "ya29.google-token")).stateless(), responder: ScriptedResponder([]))
        #expect(stateless.profile.isStateless)
    }

    @Test("a token-exchange provider without a token is refused before anything is asked")
    func exchangeProviderNeedsToken() async throws {
        let harness = try await Harness.make()
        let result = await Result { () async throws(IdentityFlowError) in
            try await harness.client.registerUser(
                .provider(IdentityProvider(identifier: "google", name: "Google", kind: .tokenExchange)), responder: ScriptedResponder([]))
        }
        #expect(result.failure?.code == .invalidIdentityProvider)
    }
}

/// The password grant and token exchange at a real token endpoint.
@Suite("7Pass style over HTTP")
struct CredentialsWireTests {
    @Test("the password grant and token exchange post the RFC forms; invalid_grant and interaction_required map to outcomes")
    func mapping() async throws {
        let forms = Locked<[String]>([])
        let answers = Locked<[LoopbackHTTPServer.Reply]>([
            .json(200, object: ["access_token": "at", "token_type": "Bearer", "expires_in": 300]),
            .json(400, object: ["error": "invalid_grant", "error_description": "wrong"]),
            .json(400, object: ["error": "interaction_required", "autologin_token": "al-1"]),
            .json(400, object: ["error": "unsupported_grant_type"]),
        ])
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in "{}" },
            token: { request in
                forms.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
                return answers.withLock { $0.isEmpty ? .close : $0.removeFirst() }
            })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server)
        guard case .granted(let tokens) = try await service.passwordGrant(login: "carol", password: Redacted("pw"), scopes: ["read"]) else {
            Issue.record("the password grant's 200 was not a grant")
            return
        }
        #expect(tokens.accessToken.value == "at" && tokens.scopes == ["read"])
        #expect(try await service.passwordGrant(login: "carol", password: Redacted("pw"), scopes: ["read"]) == .invalid)
        #expect(
            try await service.exchangeExternalToken(ExternalToken(provider: "google", token: "g"), scopes: ["read"])
                == .interactionRequired(autologinToken: Redacted("al-1")))
        await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
            try await service.passwordGrant(login: "carol", password: Redacted("pw"), scopes: ["read"])
        }
        let sent = forms.current
        #expect(sent.first?.contains("grant_type=password") == true && sent.first?.contains("username=carol") == true)
        #expect(sent[2].contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange") && sent[2].contains("subject_issuer=google"))
    }
}

/// 7Pass's `environment` configuration key.
@Suite("7Pass style: configuration environments")
struct SevenPassEnvironmentTests {
    @Test("environment picks the issuer from environments; an unknown name, or one beside issuer, is refused")
    func environments() throws {
        func load(_ object: [String: Any]) throws(IdentityFlowError) -> HTTPServiceConfiguration {
            let data: Data
            do { data = try JSONSerialization.data(withJSONObject: object) } catch { throw IdentityFlowError(.unknown) }
            return try HTTPServiceConfiguration(data: data, name: "7pass.json")
        }
        let base: [String: Any] = [
            "client_id": "app", "redirect_uri": "oauthtest://oauth-callback",
            "environments": ["qa": "https://qa.sso.example", "production": "https://sso.example"],
        ]
        #expect(try load(base.merging(["environment": "qa"]) { $1 }).issuer?.absoluteString == "https://qa.sso.example")
        #expect(try load(base.merging(["environment": "production"]) { $1 }).issuer?.absoluteString == "https://sso.example")
        for bad in [base.merging(["environment": "staging"]) { $1 }, base.merging(["environment": "qa", "issuer": "https://x.example"]) { $1 }] {
            do {
                _ = try load(bad)
                Issue.record("a bad environment was taken")
            } catch { #expect(error.code == .configurationInvalid) }
        }
    }
}
