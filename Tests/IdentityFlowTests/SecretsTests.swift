import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// Runs every flow with known secrets and looks for them in everything a developer could see.
@Suite("No secret reaches a log")
struct SecretsTests {
    /// Collects what a host sees: challenges (described and dumped) and results.
    final class Observer: Sendable {
        let seen = Locked<[String]>([])
        func note(_ value: Any) {
            var dumped = ""
            dump(value, to: &dumped)
            seen.withLock { $0 += [String(describing: value), String(reflecting: value), dumped] }
        }
    }

    @Test("PINs, codes, tokens, state, nonce and custom data never appear in transitions, transcripts, errors, logs or dumps")
    func secretsStayHidden() async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
        server.addCustomProvider(id: "custom", steps: .twoStep) { _, data in data == "retry-please" ? .status(4001) : .status(2000, data: "ok") }
        let logs = LogCapture()
        let storage = InMemoryStorage()
        let client = UserClient(
            configuration: .testing(now: date.now, logger: logs.logger), service: server, storage: storage, transport: ReferenceResourceServer(trusting: server)
        )
        let transitions = TransitionCollector(log: client.transitionLog)
        let observer = Observer()
        try await client.start()

        var secrets = ["24680", "31415", "11122", "11223", "custom-secret-data", "retry-please"]
        let browserSecrets = Locked<[String]>([])
        let responder = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    observer.note(challenge)
                    let query = URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                    let redirect = try server.logIn(at: challenge.url)
                    let answer = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
                    browserSecrets.withLock {
                        $0 += (query + answer).filter { ["state", "nonce", "code_challenge", "code"].contains($0.name) }.compactMap(\.value)
                    }
                    return redirect
                }),
            .createPin(.respond("11122")),
            .createPin(.respond("24680"), expecting: .pinShouldNotUseSimilarDigits),
        ])
        let first = try await client.registerUser(responder: responder)
        try responder.verify()
        secrets += browserSecrets.current
        let custom = ScriptedResponder([
            .customRegistrationInit(.respond("custom-secret-data")),
            .customRegistrationFinish(.respond("retry-please")),
            .customRegistrationFinish(.respond("custom-secret-data"), expecting: .customRegistrationFailure),
            .createPin(.respond("24680")),
        ])
        _ = try await client.registerUser(.provider(IdentityProvider(identifier: "custom", name: "custom", kind: .custom(.twoStep))), responder: custom)
        try custom.verify()

        let login = ScriptedResponder([.pin(.respond("11223")), .pin(.respond("24680"), expecting: .invalidPin)])
        let result = try await client.authenticateUser(first.profile, responder: login)
        try login.verify()
        observer.note(result)
        try await client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("31415"))]))
        try await client.registerBiometricAuthenticator(for: first.profile, responder: ScriptedResponder([.pin(.respond("31415"))]))
        date.advance(by: 61)
        _ = try await client.authenticatedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        try await client.logout()
        server.inject(.networkError, into: .deregister)
        do { try await client.deregister(first.profile) } catch { observer.note(error) }

        for key in try storage.keys() {
            let stored = try #require(try storage.data(forKey: key))
            secrets += Self.tokenValues(in: stored)
        }
        secrets += server.issuedTokensForTesting
        #expect(secrets.count > 10)

        var visible = transitions.all.map(\.description) + responder.events + custom.events + login.events + logs.messages + observer.seen.current
        for record in transitions.all { observer.note(record) }
        visible += observer.seen.current
        let state = RegistrationMachine.State.enrolling(
            .init(
                state: .awaitingPin(
                    .init(
                        tokens: TokenSet(accessToken: "at-known", refreshToken: "rt-known", idToken: "id-known"),
                        info: CustomInfo(status: 2000, data: "custom-known")))))
        var dumped = ""
        dump(state, to: &dumped)
        visible += [String(describing: state), dumped]
        secrets += ["at-known", "rt-known", "id-known", "custom-known"]
        visible += Self.registrationSessionViews(session: "session-known", data: "custom-known")
        secrets += ["session-known"]

        for secret in Set(secrets) where !secret.isEmpty {
            let leaks = visible.filter { $0.contains(secret) }
            #expect(leaks.isEmpty, "secret \(secret.prefix(3))… leaked in: \(leaks.first ?? "")")
        }
    }

    @Test("The registration session is redacted in every value that holds it")
    func registrationSessionIsRedacted() {
        let views = Self.registrationSessionViews(session: "session-known", data: "custom-known")
        #expect(views.count == 15)
        for view in views {
            #expect(!view.contains("session-known"), "registration session leaked in: \(view)")
            #expect(!view.contains("custom-known"), "custom data leaked in: \(view)")
        }
        #expect(String(describing: RegistrationMachine.CustomSession(id: nil)) == "CustomSession(id: nil)")
    }

    @Test("Provider logout's request and challenge, and authorization parameters, show no ID token, state, login hint or parameter value")
    func providerLogoutAndParametersAreRedacted() throws {
        struct Sender: ProviderLogoutChallengeSender {
            func respond(with redirectURL: URL, to challenge: ProviderLogoutChallenge) -> Bool { false }
            func cancel(_ challenge: ProviderLogoutChallenge) -> Bool { false }
        }
        let request = EndSessionRequest(
            idTokenHint: Redacted("id-token-known"), postLogoutRedirectURI: URL(string: "app://cb")!, state: Redacted("state-known"))
        let challenge = ProviderLogoutChallenge(
            userProfile: UserProfile(profileId: "P"), url: URL(string: "https://id.example/logout?id_token_hint=id-token-known&state=state-known")!,
            postLogoutRedirectURI: URL(string: "app://cb")!, sender: Sender())
        let parameters = AuthorizationParameters(loginHint: "alice@example.com", extra: ["kc_idp_hint": "idp-known"])
        var authorization = AuthorizationRequest(
            redirectURI: URL(string: "app://cb")!, scopes: ["openid"], state: "s", nonce: "n", codeVerifier: String(repeating: "v", count: 43))
        authorization.parameters = parameters
        for value in [request as Any, challenge, parameters, authorization, Challenge.providerLogout(challenge)] {
            var dumped = ""
            dump(value, to: &dumped)
            for view in [String(describing: value), String(reflecting: value), dumped] {
                for secret in ["id-token-known", "state-known", "alice@example.com", "idp-known"] {
                    #expect(!view.contains(secret), "\(secret) leaked in: \(view)")
                }
            }
        }
    }

    @Test("A service configuration shows no login hint or request object, and ID token claims show no claim but sub and iss")
    func configurationAndClaimsAreRedacted() throws {
        var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "app", redirectURI: URL(string: "app://cb")!)
        configuration.loginHint = "alice@example.com"
        configuration.requestObject = "eyJhbGciOiJSUzI1NiJ9.request-object-known.c2ln"
        configuration.idTokenHint = Redacted("id-token-hint-known")
        let info = try IdTokenInfo(claims: [
            "sub": .string("user-1"), "iss": .string("https://id.example"), "aud": .string("app"), "exp": .number(2_000_000_000),
            "iat": .number(1_700_000_000), "nonce": .string("nonce-known"), "email": .string("alice-claim@example.com"),
            "name": .string("Alice Known"), "phone_number": .string("+31 6 1234 5678"),
        ])
        for value in [configuration as Any, info] {
            var dumped = ""
            dump(value, to: &dumped)
            for view in [String(describing: value), String(reflecting: value), dumped] {
                for secret in [
                    "alice@example.com", "request-object-known", "id-token-hint-known", "nonce-known", "alice-claim@example.com",
                    "Alice Known", "1234 5678",
                ] {
                    #expect(!view.contains(secret), "\(secret) leaked in: \(view)")
                }
            }
        }
        #expect(String(describing: info).contains("user-1"), "the subject still identifies the token")
    }

    @Test("The client secret never reaches a description, dump, error or log; the host's header values neither")
    func clientSecretIsRedacted() async throws {
        let secret = "client-secret-known"
        for authentication in [ClientAuthentication.clientSecretBasic(Redacted(secret)), .clientSecretPost(Redacted(secret))] {
            var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "app", redirectURI: URL(string: "app://cb")!)
            configuration.clientAuthentication = authentication
            configuration.transportOptions.headers = ["X-Api-Key": "header-value-known"]
            for value in [configuration as Any, authentication] {
                var dumped = ""
                dump(value, to: &dumped)
                for view in [String(describing: value), String(reflecting: value), dumped] {
                    #expect(!view.contains(secret), "the secret leaked in: \(view)")
                    #expect(!view.contains("header-value-known"), "a header value leaked in: \(view)")
                }
            }
            #expect(String(describing: configuration).contains(authentication.methodName))
        }
        // The refused answer of a provider that does not take the method, and the log of a flow's
        // errors, carry no secret either.
        let logged = Locked<[String]>([])
        let requests = try await ClientAuthenticationTests.withProvider(
            tokenMethods: ["client_secret_post"], authentication: .clientSecretBasic(Redacted(secret))
        ) { service in
            do throws(IdentityFlowError) {
                _ = try await service.refresh(Redacted("refresh-1"))
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                logged.withLock { $0 += [String(describing: error), String(reflecting: error), error.message, dumped] }
            }
        }
        #expect(requests.isEmpty)
        #expect(logged.current.count == 4)
        for view in logged.current { #expect(!view.contains(secret), "the secret leaked in: \(view)") }
    }

    /// Description, debug description and dump of each value that holds a registration session.
    static func registrationSessionViews(session: String, data: String) -> [String] {
        let answer = CustomRegistrationAnswer(
            info: CustomInfo(status: 2000, data: data), session: session, tokens: TokenSet(accessToken: "at-known", refreshToken: nil, idToken: nil))
        let values: [Any] = [
            answer,
            RegistrationMachine.CustomSession(id: session),
            RegistrationMachine.State.signingIn(.custom(.init(state: .sendingCustomFinishData(.init(id: session))))),
            RegistrationMachine.Event.customAnswerReceived(answer),
            RegistrationMachine.Effect.sendCustomData(.finish, session: Redacted(session), data: Redacted(data)),
        ]
        return values.flatMap { value -> [String] in
            var dumped = ""
            dump(value, to: &dumped)
            return [String(describing: value), String(reflecting: value), dumped]
        }
    }

    /// The token strings in a stored profile's JSON.
    static func tokenValues(in data: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tokens = object["tokens"] as? [String: Any]
        else { return [] }
        return ["accessToken", "refreshToken", "idToken"].compactMap { tokens[$0] as? String }
    }
}
