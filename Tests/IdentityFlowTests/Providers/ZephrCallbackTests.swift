import Foundation
import Testing
import IdentityFlowTesting
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Zephr's callbacks as Zephr documents them: `?action=login&status=success&tracking_id=…&session_id=…`
/// for an existing user, `?action=register&status=partial&state_key=…&identifier=…` for a new one,
/// `?status=failure&message=…`; none carries `state`.
@Suite("Zephr's callbacks as Zephr sends them")
struct ZephrCallbackTests {
    static let request = AuthorizationRequest(
        redirectURI: URL(string: "app://callback")!, scopes: ["openid"], state: "s-1", nonce: "n", codeVerifier: String(repeating: "v", count: 43))

    static func check(_ url: String) -> BrowserRedirect { BrowserRedirect.check(URL(string: url)!, against: request) }

    @Test("without state: success with a session_id is a session, partial a partial registration, failure a refusal")
    func callbacksWithoutState() {
        #expect(Self.check("app://callback?action=login&status=success&tracking_id=1234&session_id=5678") == .session(id: Redacted("5678")))
        #expect(
            Self.check("app://callback?action=register&status=partial&state_key=1234&identifier=user@example.com")
                == .partial(stateKey: Redacted("1234"), identifier: "user@example.com"))
        #expect(Self.check("app://callback?status=failure&message=Denied") == .denied(error: "failure", description: "Denied"))
        #expect(Self.check("app://callback?status=success&session_id=5678").guardName == "session")
    }

    @Test(
        "what stays strict: a state, when present, must be ours; a callback that is not Zephr's needs the state; the redirect URI must match; success needs a session or a code"
    )
    func strictness() {
        #expect(Self.check("app://callback?status=success&session_id=5678&state=other") == .stateMismatch)
        #expect(Self.check("app://callback?status=success&session_id=5678&state=s-1") == .session(id: Redacted("5678")))
        #expect(Self.check("app://callback?code=C") == .stateMismatch, "an OAuth code without state is refused as ever")
        #expect(Self.check("app://callback?error=access_denied") == .stateMismatch)
        #expect(Self.check("app://callback?status=pending&session_id=5678") == .stateMismatch)
        #expect(Self.check("evil://callback?status=success&session_id=5678") == .redirectMismatch)
        #expect(Self.check("app://callback?status=success") == .malformed)
        #expect(Self.check("app://callback?status=success&session_id=") == .malformed)
        #expect(Self.check("app://callback?status=partial&identifier=x") == .malformed)
    }

    @Test("handleRedirect routes a stateless Zephr callback at the redirect URI to the waiting registration, and nothing else without state")
    func belongs() {
        let redirect = URL(string: "app://callback")!
        func belongs(_ url: String) -> Bool { BrowserRedirect.belongs(URL(string: url)!, state: "s-1", redirectURI: redirect) }
        #expect(belongs("app://callback?action=login&status=success&session_id=5678"))
        #expect(belongs("app://callback/?status=partial&state_key=K&identifier=x"))
        #expect(belongs("app://callback?status=failure&message=m"))
        #expect(!belongs("other://callback?status=success&session_id=5678"), "another redirect URI")
        #expect(!belongs("app://callback?code=C"), "not a provider callback")
        #expect(!belongs("app://callback?status=success&session_id=5678&state=other"), "a state that is not ours")
    }

    static func register(_ harness: Harness, consent: ReferenceIdentityService.Consent, viaHandleRedirect: Bool = false, stateless: Bool = false)
        async -> (Result<RegistrationResult, IdentityFlowError>, [URL])
    {
        let server = harness.server, client = harness.client
        let callbacks = Locked<[URL]>([])
        let answer: @Sendable (Challenge) async -> Void = { challenge in
            switch challenge {
            case .browserRegistration(let browser):
                guard let callback = try? server.logIn(at: browser.url, consent: consent) else {
                    browser.sender.cancel(browser)
                    return
                }
                callbacks.withLock { $0.append(callback) }
                if viaHandleRedirect {
                    #expect(client.handleRedirect(callback), "the waiting registration takes the stateless callback")
                    #expect(!client.handleRedirect(callback), "only once")
                } else {
                    browser.sender.respond(with: callback, to: browser)
                }
            case .partialRegistration(let partial): partial.sender.respond(with: ["email": "ada@example.com"], to: partial)
            case .createPin(let create): create.sender.respond(with: "24680", to: create)
            default: challenge.cancel()
            }
        }
        let result = await Result { () async throws(IdentityFlowError) in
            try await client.registerUser(stateless ? .stateless : .default, answering: answer)
        }
        return (result, callbacks.current)
    }

    @Test(
        "status=success&session_id (an existing user's login) registers: the session is exchanged with the PKCE verifier, then create PIN",
        arguments: [false, true])
    func sessionLogin(viaHandleRedirect: Bool) async throws {
        let harness = try await Harness.make()
        let (result, callbacks) = await Self.register(harness, consent: .session, viaHandleRedirect: viaHandleRedirect)
        let profile = try result.get().profile
        let items = URLComponents(url: try #require(callbacks.first), resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []
        #expect(items == ["action", "status", "tracking_id", "session_id"], "the callback is Zephr's: no state, no code")
        #expect(harness.client.userProfiles == [profile] && harness.client.authenticatedUserProfile == profile)
        #expect(harness.server.enrolledProfiles == [profile])
        #expect(harness.transitions.all.contains { $0.transition.guardName == "session" && $0.transition.target == "exchangingCode" })
    }

    @Test("the session id never reaches a log, the transition log or an effect's description")
    func sessionIdRedacted() async throws {
        let harness = try await Harness.make()
        let (result, callbacks) = await Self.register(harness, consent: .session)
        _ = try result.get()
        let callback = try #require(callbacks.first)
        let session = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "session_id" }?.value)
        let printed = harness.logs.messages + harness.transitions.all.map { "\($0)" + $0.effects.joined() }
        #expect(!printed.isEmpty)
        #expect(!printed.contains { $0.contains(session) }, "\(printed.filter { $0.contains(session) })")
        #expect(harness.transitions.all.contains { $0.effects.contains { $0.contains("exchangeSession") } })
    }

    @Test("after process death, handleRedirect claims a Zephr callback for the checkpointed registration, which resumes with it", arguments: [true, false])
    func resumeWithZephrCallback(session: Bool) async throws {
        let server = ReferenceIdentityService()
        let killed = try await DurableRegistrationTests.killedWhileInBrowser(server: server)
        let client = DurableRegistrationTests.client(on: killed.storage, server: server)
        try await client.start()
        let callback = try server.logIn(at: killed.browserURL, consent: session ? .session : .partial(identifier: "ada@example.com"))
        #expect(!callback.absoluteString.contains("state="))
        #expect(!client.handleRedirect(URL(string: "other://callback?status=success&session_id=x")!), "another redirect URI is no one's")
        #expect(client.handleRedirect(callback))
        let result = try await client.registerUser(.resume) { challenge in
            switch challenge {
            case .partialRegistration(let partial): partial.sender.respond(with: ["email": "ada@example.com"], to: partial)
            default: await DurableRegistrationTests.createPin(challenge)
            }
        }
        #expect(client.userProfiles == [result.profile])
        #expect(try killed.storage.data(forKey: DurableRegistrationTests.checkpointKey) == nil)
    }

    @Test("a stateless registration with a Zephr session stores nothing and asks no PIN")
    func statelessSession() async throws {
        let harness = try await Harness.make()
        let (result, _) = await Self.register(harness, consent: .session, stateless: true)
        #expect(try result.get().profile.isStateless)
        #expect(try harness.storage.keys().isEmpty)
    }

    @Test("status=partial without state (as Zephr sends it) asks for the attributes and registers, also through handleRedirect")
    func partialWithoutState() async throws {
        for viaHandleRedirect in [false, true] {
            let harness = try await Harness.make()
            let (result, callbacks) = await Self.register(harness, consent: .partial(identifier: "ada@example.com"), viaHandleRedirect: viaHandleRedirect)
            #expect(try harness.client.userProfiles == [result.get().profile])
            #expect(callbacks.first.map { !$0.absoluteString.contains("state=") } == true)
        }
    }

    @Test("a session opened for another sign-in (an injected callback) is refused with 10024 and leaves nothing behind")
    func injectedSession() async throws {
        let harness = try await Harness.make()
        let server = harness.server
        // The attacker's own sign-in, with a request (PKCE challenge) of their own.
        let theirs = try AuthorizationRequest(redirectURI: ClientConfiguration.testing().redirectURI, scopes: ["openid"])
        let injected = try server.logIn(
            at: try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: theirs), consent: .session)
        let result = await Result { () async throws(IdentityFlowError) in
            try await harness.client.registerUser { challenge in
                guard case .browserRegistration(let browser) = challenge else {
                    challenge.cancel()
                    return
                }
                browser.sender.respond(with: injected, to: browser)
            }
        }
        #expect(result.failure?.code == .externalIdentityProviderFailure, "\(String(describing: result.failure))")
        #expect(harness.client.userProfiles.isEmpty && harness.server.activeAccessTokenCount == 0)
        #expect(try harness.storage.keys().isEmpty)
    }
}

/// `POST /registration/session` over HTTP.
@Suite("Zephr session exchange over HTTP")
struct SessionExchangeWireTests {
    @Test("200 is a token response; 410 is 10024 with the server's error; a bare 404 is 11020; the body binds the session to the verifier")
    func mapping() async throws {
        let replies: [(LoopbackHTTPServer.Reply, String)] = [
            (.json(200, object: ["access_token": "at", "token_type": "Bearer", "expires_in": 300, "refresh_token": "rt"]), "tokens"),
            (.json(410, object: ["error": "session_expired", "error_description": "gone"]), "10024 session_expired"),
            (.json(404, "{}"), "11020 -"),
        ]
        for (reply, expected) in replies {
            let requests = Locked<[LoopbackHTTPServer.Request]>([])
            let server = try LoopbackHTTPServer { incoming in
                requests.withLock { $0.append(incoming) }
                return reply
            }
            defer { server.stop() }
            var configuration = HTTPServiceConfiguration(issuer: server.baseURL, clientID: "c", redirectURI: URL(string: "app://callback")!)
            configuration.extensionBaseURL = server.baseURL.appendingPathComponent("identityflow")
            let service = try HTTPIdentityService(configuration: configuration)
            let outcome: String
            do {
                let tokens = try await service.exchangeSession(Redacted("5678"), request: ZephrCallbackTests.request)
                outcome = tokens.accessToken.value == "at" ? "tokens" : "?"
            } catch { outcome = "\(error.code.rawValue) \(error.oauthError ?? "-")" }
            #expect(outcome == expected)
            let sent = try #require(requests.current.first)
            #expect(sent.method == "POST" && sent.path == "/identityflow/registration/session")
            let body = try #require(try JSONSerialization.jsonObject(with: sent.body) as? [String: String])
            #expect(body == ["session_id": "5678", "code_verifier": String(repeating: "v", count: 43), "redirect_uri": "app://callback"])
        }
    }

    @Test("a service without sessions refuses them with 11020 (the protocol's default)")
    func defaultRefuses() async {
        let service = RecordingService(ReferenceIdentityService())
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            _ = try await service.exchangeSession(Redacted("5678"), request: ZephrCallbackTests.request)
        }
    }

}
