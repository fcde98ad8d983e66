import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

/// A provider the interop matrix runs against: the django-oauth-toolkit fixture
/// (`IDENTITYFLOW_OIDC_ISSUER`, `Tests/Fixtures/oidc`), django-oidc-provider with its stock
/// discovery (`IDENTITYFLOW_OIDC_ISSUER_2`, `Tests/Fixtures/oidc-provider`), django-allauth's
/// identity provider, stock, its issuer the site's root (`IDENTITYFLOW_OIDC_ISSUER_3`,
/// `Tests/Fixtures/oidc-allauth`) and Canaille, stock, on Flask and Authlib
/// (`IDENTITYFLOW_OIDC_ISSUER_4`, `Tests/Fixtures/oidc-canaille`), each when its variable is set.
struct InteropProvider: Sendable, CustomTestStringConvertible {
    let name: String
    let issuer: URL
    let fixture: String
    /// Whether the provider offers this public client RFC 7009 revocation.
    let revocation: Revocation
    /// Whether it serves IdentityFlow's extension API (only the django-oauth-toolkit fixture does).
    var servesExtensionAPI = false
    /// Whether it issues one user the same access token for exchanges within one second and
    /// fails the second (Canaille): ``HeadlessBrowser`` then hands back redirects on a fresh second.
    var issuesOneTokenPerSecond = false
    /// Clients registered for ID tokens signed with another algorithm than the provider's default
    /// (`id_token_signed_response_alg`), by algorithm.
    var algorithmClients: [String: String] = [:]

    var testDescription: String { name }

    /// Every provider's clients registered for another algorithm, as (provider, algorithm) pairs.
    static var algorithmCases: [(InteropProvider, String)] {
        all.flatMap { provider in provider.algorithmClients.keys.sorted().map { (provider, $0) } }
    }

    enum Revocation: Sendable {
        /// Offered to public clients.
        case offered
        /// No revocation endpoint (django-oidc-provider).
        case absent
        /// Offered only to clients with a secret (Canaille: `client_secret_basic` only).
        case confidentialClientsOnly
    }

    static let all: [InteropProvider] = {
        let environment = ProcessInfo.processInfo.environment
        func issuer(_ name: String) -> URL? { environment[name].flatMap { $0.isEmpty ? nil : URL(string: $0) } }
        return [
            issuer("IDENTITYFLOW_OIDC_ISSUER").map {
                InteropProvider(name: "django-oauth-toolkit", issuer: $0, fixture: "oidc", revocation: .offered, servesExtensionAPI: true)
            },
            issuer("IDENTITYFLOW_OIDC_ISSUER_2").map {
                InteropProvider(name: "django-oidc-provider", issuer: $0, fixture: "oidc-provider", revocation: .absent)
            },
            issuer("IDENTITYFLOW_OIDC_ISSUER_3").map { InteropProvider(name: "django-allauth", issuer: $0, fixture: "oidc-allauth", revocation: .offered) },
            issuer("IDENTITYFLOW_OIDC_ISSUER_4").map {
                InteropProvider(
                    name: "Canaille", issuer: $0, fixture: "oidc-canaille", revocation: .confidentialClientsOnly,
                    issuesOneTokenPerSecond: true,
                    algorithmClients: ["PS256": "identityflow-tests-ps256", "ES384": "identityflow-tests-es384"])
            },
        ].compactMap { $0 }
    }()

    func service(issuer configured: URL? = nil, prompt: String? = nil, clientID: String = InteropEnvironment.clientID) throws -> HTTPIdentityService {
        var configuration = HTTPServiceConfiguration(
            issuer: configured ?? issuer, discoveryURL: issuer.appendingPathComponent(".well-known/openid-configuration"),
            clientID: clientID, redirectURI: InteropEnvironment.redirectURI, scopes: ["openid", "profile", "email"])
        configuration.prompt = prompt
        return try HTTPIdentityService(configuration: configuration)
    }

    /// Signs alice in with the headless browser and returns the request and the redirect.
    func signIn(_ service: HTTPIdentityService, allow: Bool = true) async throws -> (AuthorizationRequest, URL) {
        let request = try InteropEnvironment.request()
        let url = try await service.authorizationURL(for: InteropEnvironment.browserProvider, request: request)
        return (request, try await HeadlessBrowser().authorize(url, allow: allow))
    }

    /// The authorization code of a consented sign-in, its `iss` checked.
    func code(_ service: HTTPIdentityService) async throws -> (AuthorizationRequest, Redacted<String>) {
        let (request, redirect) = try await signIn(service)
        guard case .authorized(let code, let issuer) = BrowserRedirect.check(redirect, against: request) else {
            throw HeadlessBrowser.Failure(description: "the redirect carried no code")
        }
        try await service.checkAuthorizationResponseIssuer(issuer)
        return (request, code)
    }

    /// Runs the fixture's stop.sh or start.sh (which stop and start the server by pid) and
    /// returns its exit status. Spawned and reaped directly: Foundation's `Process` reports the
    /// end of a script only once every descendant closed what it inherited, and the server that
    /// start.sh leaves running never does.
    func fixtureScript(_ name: String) async -> Int32 {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(fixture)/\(name)").path
        let arguments = ["/bin/bash", script] + (name == "start.sh" ? [String(issuer.port ?? 0)] : [])
        return await Self.run(arguments)
    }

    /// Runs a program to its end, off the cooperative pool; its exit status. Its output is
    /// discarded, except that a failing program's standard error is printed with its command line
    /// (a fixture script's server keeps the descriptors it inherited, so `start.sh` gets
    /// `/dev/null` only).
    static func run(_ arguments: [String]) async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: spawnAndWait(arguments)) }
        }
    }

    private static func spawnAndWait(_ arguments: [String]) -> Int32 {
        let keepsErrors = !arguments.contains { $0.hasSuffix("/start.sh") }
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-child-\(UUID().uuidString).err").path
        defer { try? FileManager.default.removeItem(atPath: errorFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if keepsErrors {
            posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status >> 8) & 0xff
        if exitStatus != 0, keepsErrors, let errors = FileManager.default.contents(atPath: errorFile), !errors.isEmpty {
            print("\(arguments.joined(separator: " ")) exited with \(exitStatus); its standard error:\n\(String(decoding: errors, as: UTF8.self))")
        }
        return exitStatus
    }
}

extension InteropSuite {
    /// The promises that must hold against providers IdentityFlow did not write, per provider.
    @Suite("Interop: the provider matrix", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct ProviderMatrixTests {
        @Test("happy path: PKCE sign-in, iss checked, code exchanged with the ID token validated, userinfo", arguments: InteropProvider.all)
        func happyPath(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let (request, code) = try await provider.code(service)
            let tokens = try await service.exchangeCode(code, request: request)
            let idToken = try #require(tokens.idToken)
            let info = try await service.validateIdToken(idToken, nonce: request.nonce.value)
            #expect(info.issuer == provider.issuer.absoluteString)
            #expect(try await service.userInfo(accessToken: tokens.accessToken, subject: info.subject)["sub"]?.stringValue == info.subject)
        }

        @Test(
            "a client registered for PS256 or ES384 ID tokens: the code exchange validates the signature and its at_hash by that algorithm's hash",
            arguments: InteropProvider.algorithmCases)
        func registeredAlgorithm(_ provider: InteropProvider, _ algorithm: String) async throws {
            let service = try provider.service(clientID: try #require(provider.algorithmClients[algorithm]))
            let (request, code) = try await provider.code(service)
            let tokens = try await service.exchangeCode(code, request: request)
            let idToken = try #require(tokens.idToken)
            let token = try JSONWebToken(compact: idToken.value)
            #expect(token.algorithm == algorithm && token.claims["at_hash"] != nil)
            #expect(try await service.validateIdToken(idToken, nonce: request.nonce.value).issuer == provider.issuer.absoluteString)
        }

        @Test("denied consent (prompt=consent, for providers that remember a consent): the redirect's access_denied is 10024", arguments: InteropProvider.all)
        func deniedConsent(_ provider: InteropProvider) async throws {
            let service = try provider.service(prompt: "consent")
            let (request, redirect) = try await provider.signIn(service, allow: false)
            let answer = BrowserRedirect.check(redirect, against: request)
            let failure = try #require(answer.failure(expecting: InteropEnvironment.redirectURI))
            #expect(failure.code == .externalIdentityProviderFailure)
            #expect(failure.oauthError == "access_denied")
        }

        @Test("a reused code is refused with 10024 invalid_grant", arguments: InteropProvider.all)
        func reusedCode(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let (request, code) = try await provider.code(service)
            _ = try await service.exchangeCode(code, request: request)
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: request)
            }
            #expect(error?.oauthError == "invalid_grant")
        }

        @Test("a wrong PKCE verifier is refused with 10024 invalid_grant", arguments: InteropProvider.all)
        func wrongVerifier(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let (request, code) = try await provider.code(service)
            let impostor = AuthorizationRequest(
                redirectURI: request.redirectURI, scopes: request.scopes, state: request.state.value,
                nonce: request.nonce.value, codeVerifier: String(repeating: "x", count: 43))
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: impostor)
            }
            #expect(error?.oauthError == "invalid_grant")
        }

        @Test("refresh rotates: a new refresh token comes back and the spent one is refused", arguments: InteropProvider.all)
        func refreshRotation(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let (request, code) = try await provider.code(service)
            let tokens = try await service.exchangeCode(code, request: request)
            let spent = try #require(tokens.refreshToken)
            let fresh = try await service.refresh(spent)
            #expect(fresh.refreshToken != nil && fresh.refreshToken != spent)
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.refresh(spent)
            }
            #expect(error?.oauthError == "invalid_grant")
        }

        @Test(
            "revocation: offered, the token is dead at userinfo; absent or only for clients with a secret, revoke says why with 10001",
            arguments: InteropProvider.all)
        func revocation(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let (request, code) = try await provider.code(service)
            let tokens = try await service.exchangeCode(code, request: request)
            let subject = try await service.validateIdToken(try #require(tokens.idToken), nonce: request.nonce.value).subject
            switch provider.revocation {
            case .offered:
                try await service.revoke(tokens)
                await InteropEnvironment.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
                    try await service.userInfo(accessToken: tokens.accessToken, subject: subject)
                }
            case .absent, .confidentialClientsOnly:
                let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try await service.revoke(tokens) }
                #expect(
                    error?.message.contains(provider.revocation == .absent ? "names no revocation_endpoint" : "lets only clients with a secret") == true,
                    "\(String(describing: error))")
            }
        }

        @Test("a device clock two hours ahead: the code exchange fails with 9031, by the Date of the provider's answer", arguments: InteropProvider.all)
        func deviceClockAhead(_ provider: InteropProvider) async throws {
            let honest = try provider.service()
            let (request, code) = try await provider.code(honest)
            let ahead = try HTTPIdentityService(configuration: honest.configuration, now: { Date().addingTimeInterval(7200) })
            let error = await InteropEnvironment.expectError(.invalidDateTime) { () throws(IdentityFlowError) in
                try await ahead.exchangeCode(code, request: request)
            }
            #expect(error?.message.contains("120 minutes ahead of") == true, "\(String(describing: error))")
        }

        @Test("a configured issuer the document does not name: 10001 before anything is sent to the provider's endpoints", arguments: InteropProvider.all)
        func wrongIssuer(_ provider: InteropProvider) async throws {
            let service = try provider.service(issuer: URL(string: "http://127.0.0.1:\(provider.issuer.port ?? 0)/elsewhere")!)
            await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: InteropEnvironment.browserProvider, request: try! InteropEnvironment.request())
            }
        }

        @Test(
            "without the extension API a server-mode registration fails with 11020 before any challenge (the browser never opens), and stores nothing",
            arguments: InteropProvider.all.filter { !$0.servesExtensionAPI })
        func registrationWithoutExtensionAPI(_ provider: InteropProvider) async throws {
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(try provider.service(), storage: storage)
            let listing = InteropResponder()
            await InteropEnvironment.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
                try await client.registerUser(.provider(nil), responder: listing)
            }
            #expect(listing.seen.current.isEmpty)
            let browser = InteropResponder()
            let error = await InteropEnvironment.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
                try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: browser)
            }
            #expect(error?.message.contains("authenticators = .device()") == true, "\(String(describing: error))")
            #expect(browser.seen.current.isEmpty, "the user never signed in to a registration that could not end")
            #expect(client.userProfiles.isEmpty && client.authenticatedUserProfile == nil)
            #expect(try storage.keys().isEmpty)
        }

        @Test(
            "the client end to end: a stateless browser registration, a request with its token, logout (localLogout 10009 where the provider cannot revoke)",
            arguments: InteropProvider.all)
        func statelessClient(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let responder = InteropResponder()
            let result = try await client.registerUser(.provider(InteropEnvironment.browserProvider).stateless(), responder: responder)
            #expect(result.profile.isStateless && client.authenticatedUserProfile == result.profile)
            #expect(responder.seen.current == ["browser"])
            #expect(try storage.keys().isEmpty)
            let userinfo = try #require(try await service.providerMetadata().userinfoEndpoint)
            let (body, response) = try await client.authenticatedRequest(URLRequest(url: userinfo))
            #expect(response.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("\"sub\""))
            if provider.revocation == .offered {
                try await client.logout()
            } else {
                let error = await InteropEnvironment.expectError(.localLogout) { () throws(IdentityFlowError) in try await client.logout() }
                #expect(error?.message.contains("revocation_endpoint") == true, "\(String(describing: error))")
            }
            #expect(client.authenticatedUserProfile == nil)
            await InteropEnvironment.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
                _ = try await client.authenticatedRequest(URLRequest(url: userinfo))
            }
        }

        @Test(
            "the provider stopped mid-flow: the code exchange fails with a network code within its deadline", .timeLimit(.minutes(2)),
            arguments: InteropProvider.all)
        func providerStopped(_ provider: InteropProvider) async throws {
            let service = try HTTPIdentityService(
                configuration: {
                    var configuration = try provider.service().configuration
                    configuration.requestTimeout = 5
                    return configuration
                }())
            let (request, code) = try await provider.code(service)
            #expect(await provider.fixtureScript("stop.sh") == 0)
            do {
                let tokens = try await service.exchangeCode(code, request: request)
                Issue.record("the exchange succeeded against a stopped provider: \(tokens)")
            } catch {
                #expect([ErrorCode.networkConnectivityFailure, .serverNotReachable].contains(error.code), "\(error)")
            }
            #expect(await provider.fixtureScript("start.sh") == 0, "restarted for the suites that follow")
        }
    }
}
