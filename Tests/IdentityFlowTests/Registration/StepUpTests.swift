import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting
import Statechart

/// Per-sign-in authorization parameters and the step-up check of the ID token they ask for.
@Suite("Authorization parameters and step-up")
struct StepUpTests {
    static func register(
        _ harness: Harness, _ parameters: AuthorizationParameters, seen: Locked<URL?> = Locked(nil), stateless: Bool = false
    ) async -> Result<RegistrationResult, IdentityFlowError> {
        let server = harness.server
        do throws(IdentityFlowError) {
            return .success(
                try await harness.client.registerUser(
                    stateless ? RegistrationRequest.provider(nil).stateless().with(parameters) : .provider(nil).with(parameters),
                    responder: ClosureResponder { challenge in
                        switch challenge {
                        case .browserRegistration(let browser):
                            seen.withLock { $0 = browser.url }
                            browser.sender.respond(with: try! server.logIn(at: browser.url), to: browser)
                        case .createPin(let pin): pin.sender.respond(with: "24680", to: pin)
                        default: challenge.cancel()
                        }
                    }))
        } catch { return .failure(error) }
    }

    @Test("the parameters reach the authorization request")
    func parametersAreSent() async throws {
        let harness = try await Harness.make()
        let seen = Locked<URL?>(nil)
        let parameters = AuthorizationParameters(
            acrValues: ["urn:mfa", "urn:pwd"], maxAge: 300, prompt: "login", loginHint: "alice@example.com", uiLocales: ["nl-NL", "en"],
            extra: ["kc_idp_hint": "google"])
        _ = try await Self.register(harness, parameters, seen: seen).get()
        let url = try #require(seen.withLock { $0 })
        let items = Dictionary(
            uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items["acr_values"] == "urn:mfa urn:pwd")
        #expect(items["max_age"] == "300")
        #expect(items["prompt"] == "login")
        #expect(items["login_hint"] == "alice@example.com")
        #expect(items["ui_locales"] == "nl-NL en")
        #expect(items["kc_idp_hint"] == "google")
        #expect(harness.client.identityClaims?.authenticationContextClass == "urn:mfa")
        #expect(!parameters.description.contains("alice") && !parameters.description.contains("google"))
    }

    @Test("a reserved parameter is refused (11061) before anything is sent", arguments: ["state", "nonce", "redirect_uri", "Code_Challenge", "prompt"])
    func reservedParameter(name: String) async throws {
        let harness = try await Harness.make()
        let result = await Self.register(harness, AuthorizationParameters(extra: [name: "x"]))
        #expect(result.failure?.code == .authorizationParameterReserved)
        #expect(!harness.server.calls.contains(.authorizationURL))
    }

    @Test("an acr outside acr_values fails the sign-in (11060): the tokens are revoked, nothing is stored")
    func acrNotSatisfied() async throws {
        let harness = try await Harness.make()
        harness.server.setAuthentication(acr: "urn:pwd")
        let result = await Self.register(harness, AuthorizationParameters(acrValues: ["urn:mfa"]))
        #expect(result.failure?.code == .stepUpNotSatisfied)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.client.authenticatedUserProfile == nil)
        #expect(harness.server.activeAccessTokenCount == 0 && harness.server.activeRefreshTokenCount == 0)
    }

    @Test("no acr at all fails too; with requiresRequestedACR off, any acr is taken")
    func acrPolicy() async throws {
        let missing = try await Harness.make()
        missing.server.setAuthentication(acr: "")
        #expect(await Self.register(missing, AuthorizationParameters(acrValues: ["urn:mfa"])).failure?.code == .stepUpNotSatisfied)
        let lenient = try await Harness.make()
        lenient.server.setAuthentication(acr: "urn:pwd")
        let result = await Self.register(lenient, AuthorizationParameters(acrValues: ["urn:mfa"], requiresRequestedACR: false))
        #expect(result.failure == nil)
        #expect(lenient.client.identityClaims?.authenticationContextClass == "urn:pwd")
    }

    @Test("max_age: an auth_time older than max_age plus the leeway fails (11060); within it passes", arguments: [(200.0, true), (330, true), (400, false)])
    func maxAge(age: TimeInterval, passes: Bool) async throws {
        let harness = try await Harness.make()
        harness.server.setAuthentication(acr: nil, age: age)
        let result = await Self.register(harness, AuthorizationParameters(maxAge: 300))
        #expect(result.failure?.code == (passes ? nil : .stepUpNotSatisfied))
        #expect(harness.client.userProfiles.isEmpty == !passes)
    }

    @Test("a stateless registration is checked the same way")
    func stateless() async throws {
        let harness = try await Harness.make()
        harness.server.setAuthentication(acr: "urn:pwd")
        let result = await Self.register(harness, AuthorizationParameters(acrValues: ["urn:mfa"]), stateless: true)
        #expect(result.failure?.code == .stepUpNotSatisfied)
        #expect(harness.client.authenticatedUserProfile == nil)
    }

    @Test("the check as a value: no ID token, no auth_time, a negative max_age")
    func checkAsValue() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(throws: IdentityFlowError.self) { try AuthorizationParameters(maxAge: 60).check(nil, now: now) }
        let claims = try IdentityClaims(claims: [
            "sub": .string("u"), "iss": .string("i"), "aud": .string("a"), "exp": .number(2_000_000_600), "iat": .number(2_000_000_000),
        ])
        let noAuthTime = #expect(throws: IdentityFlowError.self) { try AuthorizationParameters(maxAge: 60).check(claims, now: now) }
        #expect(noAuthTime?.code == .stepUpNotSatisfied)
        try AuthorizationParameters().check(nil, now: now)
        try AuthorizationParameters(acrValues: ["x"], requiresRequestedACR: false).check(nil, now: now)
        #expect(throws: IdentityFlowError.self) { try AuthorizationParameters(maxAge: -1).validate() }
    }

    @Test("the request value carries the parameters; a resume takes none")
    func requestValue() async throws {
        let parameters = AuthorizationParameters(acrValues: ["urn:mfa"], maxAge: 60)
        let request = RegistrationRequest.provider(nil).with(parameters)
        #expect(request.authorizationParameters == parameters)
        #expect(RegistrationRequest(authorizationParameters: parameters) == request)
        #expect(request.description.contains("acr_values") && !request.description.contains("urn:mfa"))
        let harness = try await Harness.make()
        do throws(IdentityFlowError) {
            _ = try await harness.client.registerUser(RegistrationRequest.resume.with(parameters), responder: ClosureResponder { $0.cancel() })
            Issue.record("a resume with parameters started")
        } catch {
            #expect(error.code == .requestInvalid)
        }
    }

    @Test("a checkpointed registration keeps what it checks")
    func checkpointKeepsParameters() throws {
        var request = AuthorizationRequest(
            redirectURI: URL(string: "app://cb")!, scopes: ["openid"], state: "s", nonce: "n", codeVerifier: String(repeating: "v", count: 43))
        request.parameters = AuthorizationParameters(acrValues: ["urn:mfa"], requiresRequestedACR: false, maxAge: 10)
        let checkpoint = RegistrationCheckpoint(
            kind: "registration.browser", profile: UserProfile(profileId: "p"),
            provider: IdentityProvider(identifier: "b", name: "b", kind: .browser), authorization: request,
            authorizationURL: URL(string: "https://idp.example/authorize")!, createdAt: Date(timeIntervalSince1970: 0),
            expiresAt: Date(timeIntervalSince1970: 600))
        let read = try #require(RegistrationCheckpoint(jsonData: try checkpoint.jsonData()))
        #expect(read.authorization.parameters.acrValues == ["urn:mfa"])
        #expect(read.authorization.parameters.requiresRequestedACR == false)
        #expect(read.authorization.parameters.maxAge == 10)
    }
}
