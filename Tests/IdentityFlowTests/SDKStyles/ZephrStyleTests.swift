import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// Zephr's partial registration on the engine: the provider's callback asks for missing
/// attributes; refusals bring the challenge back; success registers; the rest ends the flow.
@Suite("Zephr style: partial registration")
struct ZephrStyleTests {
    func register(_ harness: Harness, stateless: Bool = false, _ steps: [ScriptStep]) async -> (
        Result<RegistrationResult, IdentityFlowError>, ScriptedResponder
    ) {
        let server = harness.server
        let responder = ScriptedResponder(
            [.browserRegistration(.respondWith { try server.logIn(at: $0.url, consent: .partial(identifier: "ada@example.com")) })] + steps)
        let result = await Result { () async throws(IdentityFlowError) in
            stateless ? try await harness.client.registerUser(.stateless, responder: responder) : try await harness.client.registerUser(responder: responder)
        }
        return (result, responder)
    }

    @Test("partial, then each refusal brings the challenge back with its error, then success registers")
    func refusalsThenSuccess() async throws {
        let harness = try await Harness.make()
        let (result, responder) = await register(
            harness,
            [
                .partialRegistration(
                    .respondWith { challenge in
                        #expect(challenge.identifier == "ada@example.com")
                        return ["name": "Ada"]
                    }),
                .partialRegistration(.respond(["email": "alice@example.com"]), expecting: .registrationDataInvalid),
                .partialRegistration(.respond(["email": "ada@blocked.example"]), expecting: .userAlreadyExists),
                .partialRegistration(.respond(["email": "ada@example.com"]), expecting: .emailDomainBlocked),
                .createPin(.respond("24680")),
            ])
        try responder.verify()
        let profile = try result.get().profile
        #expect(harness.client.userProfiles == [profile])
        #expect(harness.server.users.contains("ada"))
    }

    @Test("a stateless partial registration stores nothing and asks no PIN")
    func stateless() async throws {
        let harness = try await Harness.make()
        let (result, responder) = await register(harness, stateless: true, [.partialRegistration(.respond(["email": "ada@example.com"]))])
        try responder.verify()
        #expect(try result.get().profile.isStateless)
        #expect(try harness.storage.keys().isEmpty)
    }

    @Test("cancel, drop and an expired state key end the flow, leaving nothing behind")
    func endings() async throws {
        for (step, code) in [(ScriptStep.partialRegistration(.cancel), ErrorCode.actionCancelled), (.partialRegistration(.drop), .actionCancelled)] {
            let harness = try await Harness.make()
            let (result, _) = await register(harness, [step])
            #expect(result.failure?.code == code)
            #expect(harness.client.userProfiles.isEmpty && harness.server.activeAccessTokenCount == 0)
        }
        let harness = try await Harness.make()
        let server = harness.server
        let (result, _) = await register(
            harness,
            [
                .partialRegistration(
                    .respondWith { _ in
                        server.expirePartialRegistrations()
                        return ["email": "ada@example.com"]
                    })
            ])
        #expect(result.failure?.code == .partialRegistrationExpired)
        #expect(harness.client.userProfiles.isEmpty && harness.server.activeAccessTokenCount == 0)
    }

    @Test("status=failure ends the flow with the provider's message; a partial callback without state_key is malformed")
    func failureCallback() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    let state = URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
                    return URL(string: "identityflow-test://callback?action=login&status=failure&message=Account%20locked&state=\(state)")!
                })
        ])
        let failed = await Result { () async throws(IdentityFlowError) in try await harness.client.registerUser(responder: responder) }
        #expect(failed.failure?.code == .externalIdentityProviderFailure)
        #expect(failed.failure?.message.contains("Account locked") == true)
        let malformed = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    let state = URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
                    return URL(string: "identityflow-test://callback?status=partial&identifier=x&state=\(state)")!
                })
        ])
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.registerUser(responder: malformed) }
        #expect(result.failure?.code == .invalidServerResponse)
    }

    @Test("the delegate API: a delegate without the partial callback cancels it")
    func delegateDefaultCancels() async throws {
        struct Minimal: RegistrationDelegate {
            let server: ReferenceIdentityService
            let outcome: @Sendable (IdentityFlowError?) -> Void
            func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
                challenge.sender.respond(
                    with: (try? server.logIn(at: challenge.url, consent: .partial(identifier: "x@example.com"))) ?? challenge.url, to: challenge)
            }
            func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
                challenge.sender.respond(with: "24680", to: challenge)
            }
            func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) { outcome(nil) }
            func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) { outcome(error) }
        }
        let harness = try await Harness.make()
        let error: IdentityFlowError? = await withCheckedContinuation { continuation in
            harness.client.registerUser(delegate: Minimal(server: harness.server) { continuation.resume(returning: $0) })
        }
        #expect(error?.code == .actionCancelled)
    }
}

/// The partial registration endpoint's answers map to outcomes and codes.
@Suite("Zephr style: partial registration over HTTP")
struct PartialRegistrationWireTests {
    @Test("200 registers; 409, 403 and 400 are refusals; 410 is 11024; a bare 404 is 11020")
    func mapping() async throws {
        let replies: [(LoopbackHTTPServer.Reply, String)] = [
            (.json(200, object: ["access_token": "at", "token_type": "Bearer", "expires_in": 300, "refresh_token": "rt"]), "registered"),
            (.json(409, object: ["error": "user_already_exists", "error_description": "exists"]), "userAlreadyExists"),
            (.json(403, object: ["error": "email_domain_blocked", "error_description": "blocked"]), "emailDomainBlocked"),
            (.json(400, object: ["error": "invalid_attributes", "error_description": "bad"]), "badRequest"),
            (.json(410, object: ["error": "state_expired", "error_description": "gone"]), "11024"),
            (.json(404, "{}"), "11020"),
        ]
        let request = AuthorizationRequest(
            redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"], state: "s", nonce: "n",
            codeVerifier: String(repeating: "v", count: 43))
        for (reply, expected) in replies {
            let bodies = Locked<[String]>([])
            let server = try LoopbackHTTPServer { incoming in
                bodies.withLock { $0.append(String(decoding: incoming.body, as: UTF8.self)) }
                return reply
            }
            defer { server.stop() }
            var configuration = HTTPServiceConfiguration(issuer: server.baseURL, clientID: "c", redirectURI: URL(string: "identityflow://callback")!)
            configuration.extensionBaseURL = server.baseURL.appendingPathComponent("identityflow")
            let service = try HTTPIdentityService(configuration: configuration)
            let outcome: String
            do {
                switch try await service.completePartialRegistration(
                    stateKey: Redacted("K"), attributes: Redacted(["email": "ada@example.com"]), request: request)
                {
                case .registered: outcome = "registered"
                case .refused(let refusal): outcome = refusal.rawValue
                }
            } catch { outcome = String(error.code.rawValue) }
            #expect(outcome == expected)
            let sent = bodies.current.first ?? ""
            #expect(sent.contains("\"state_key\":\"K\"") && sent.contains("ada@example.com") && sent.contains("code_verifier"), "\(sent)")
        }
    }
}
