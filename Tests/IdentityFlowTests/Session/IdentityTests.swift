import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Who the user is (the ID token's claims, userinfo) and fresh tokens for the host's own stacks.
@Suite("Identity and fresh tokens")
struct IdentityTests {
    struct Setup {
        let date = ManualDate()
        let server: ReferenceIdentityService
        let service: HookedService
        let client: UserClient
        let result: RegistrationResult
        var profile: UserProfile { result.profile }

        init() async throws {
            server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
            service = HookedService(server)
            client = UserClient(configuration: .testing(now: date.now), service: service, storage: InMemoryStorage())
            try await client.start()
            result = try await client.registerUser(
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url, as: "alice") }), .createPin(.respond("24680")),
                ]))
        }

        var refreshCalls: Int { server.calls.filter { $0 == .refresh }.count }
    }

    @Test("the registered user's ID token claims are public: the standard ones typed, the rest by name")
    func claimsOfTheRegisteredUser() async throws {
        let setup = try await Setup()
        let claims = try #require(setup.client.identityClaims)
        #expect(setup.result.identityClaims == claims, "the registration's result carries them too")
        #expect(claims.subject == "alice")
        #expect(claims.issuer == ReferenceIdentityService.issuer)
        #expect(claims.audiences == [ReferenceIdentityService.clientID])
        #expect(claims.email == "alice@example.com")
        #expect(claims.preferredUsername == "alice")
        #expect(claims["email"]?.stringValue == "alice@example.com")
        #expect(claims.authenticationTime != nil)
        #expect(setup.client.identityClaims(of: setup.profile) == claims)
        #expect(setup.client.accessTokenExpiresAt == setup.date.now().addingTimeInterval(60))
    }

    @Test("the claims' description, debug description and dump show no claim value")
    func claimsAreRedacted() async throws {
        let setup = try await Setup()
        let claims = try #require(setup.client.identityClaims)
        var dumped = ""
        dump(claims, to: &dumped)
        for text in [claims.description, claims.debugDescription, String(describing: claims), dumped] {
            #expect(!text.contains("alice"), "\(text)")
        }
        let info = try await setup.client.userInfo()
        dumped = ""
        dump(info, to: &dumped)
        for text in [info.description, String(reflecting: info), dumped] { #expect(!text.contains("alice"), "\(text)") }
    }

    @Test("claims made by a host's test double need the registered claims")
    func publicInitializer() throws {
        let claims = try IdentityClaims(claims: [
            "sub": .string("u1"), "iss": .string("https://idp.example"), "aud": .array([.string("app")]), "exp": .number(2_000_000_000),
            "iat": .number(1_900_000_000), "acr": .string("urn:mfa"), "amr": .array([.string("pwd"), .string("otp")]), "tid": .string("t1"),
            "email_verified": .bool(true),
        ])
        #expect(claims.authenticationContextClass == "urn:mfa")
        #expect(claims.authenticationMethods == ["pwd", "otp"])
        #expect(claims.tenantID == "t1")
        #expect(claims.emailVerified == true)
        #expect(throws: IdentityFlowError.self) { try IdentityClaims(claims: ["sub": .string("u1")]) }
        #expect(throws: IdentityFlowError.self) { try UserInfo(claims: ["email": .string("x@example.com")]) }
    }

    @Test("the standard claims read their OpenID Connect names; a claim of another type reads as absent")
    func standardClaims() throws {
        let registered: [String: IdentityClaims.Value] = [
            "sub": .string("u1"), "iss": .string("https://idp.example"), "aud": .array([.string("app")]), "exp": .number(2_000_000_000),
            "iat": .number(1_900_000_000),
        ]
        let claims = try IdentityClaims(
            claims: registered.merging([
                "name": .string("Ada Lovelace"), "given_name": .string("Ada"), "family_name": .string("Lovelace"),
                "preferred_username": .string("ada"), "email": .string("ada@example.com"), "email_verified": .bool(false),
                "phone_number": .string("+31 20 123 4567"), "phone_number_verified": .bool(true), "locale": .string("en-GB"),
                "picture": .string("https://example.com/ada.png"),
            ]) { first, _ in first })
        #expect(claims.name == "Ada Lovelace")
        #expect(claims.givenName == "Ada")
        #expect(claims.familyName == "Lovelace")
        #expect(claims.preferredUsername == "ada")
        #expect(claims.email == "ada@example.com")
        #expect(claims.emailVerified == false)
        #expect(claims.phoneNumber == "+31 20 123 4567")
        #expect(claims.phoneNumberVerified == true)
        #expect(claims.locale == "en-GB")
        #expect(claims.picture == URL(string: "https://example.com/ada.png"))
        let mistyped = try IdentityClaims(
            claims: registered.merging(["family_name": .number(7), "phone_number_verified": .string("yes")]) { first, _ in first })
        #expect(mistyped.familyName == nil)
        #expect(mistyped.phoneNumberVerified == nil)
        #expect(mistyped.phoneNumber == nil)
    }

    @Test("no session, no claims; userInfo and freshAccessToken say nobody is logged in")
    func nobodyLoggedIn() async throws {
        let setup = try await Setup()
        try await setup.client.logout()
        #expect(setup.client.identityClaims == nil)
        #expect(setup.client.accessTokenExpiresAt == nil)
        #expect(setup.client.identityClaims(of: setup.profile)?.subject == "alice")
        #expect(await Self.code(of: { () throws(IdentityFlowError) in try await setup.client.userInfo() }) == .userNotAuthenticated)
        #expect(await Self.code(of: { () throws(IdentityFlowError) in try await setup.client.freshAccessToken() }) == .userNotAuthenticated)
    }

    @Test("userInfo answers for the ID token's subject")
    func userInfo() async throws {
        let setup = try await Setup()
        let info = try await setup.client.userInfo()
        #expect(info.subject == "alice")
        #expect(info.email == "alice@example.com")
        #expect(info.name == "Alice")
    }

    @Test("a refused access token is refreshed once and userinfo asked again")
    func userInfoRefreshesARefusedToken() async throws {
        let setup = try await Setup()
        setup.server.revokeAllAccessTokens()
        let info = try await setup.client.userInfo()
        #expect(info.subject == "alice")
        #expect(setup.refreshCalls == 1)
    }

    @Test("a userinfo answer about another subject is refused, whatever the service checked")
    func userInfoOfAnotherSubject() async throws {
        let setup = try await Setup()
        setup.service.userInfoAnswer.withLock { $0 = try? UserInfo(claims: ["sub": .string("mallory"), "email": .string("m@example.com")]) }
        let error = await #expect(throws: IdentityFlowError.self) { try await setup.client.userInfo() }
        #expect(error?.code == .invalidServerResponse)
    }

    @Test("a valid access token is handed out as it is; one closer to expiry than asked is refreshed first")
    func freshAccessToken() async throws {
        let setup = try await Setup()
        let first = try await setup.client.freshAccessToken(minimumValidity: 30)
        #expect(setup.refreshCalls == 0)
        let second = try await setup.client.freshAccessToken(minimumValidity: 120)
        #expect(setup.refreshCalls == 1)
        #expect(first != second)
        #expect(setup.server.acceptsAccessToken(second.value))
        #expect(setup.client.accessTokenExpiresAt == setup.date.now().addingTimeInterval(60))
    }

    @Test("a refresh is reported as SessionEvent.tokensRefreshed with the profile")
    func tokensRefreshedIsReported() async throws {
        let setup = try await Setup()
        var events = setup.client.sessionEvents().makeAsyncIterator()
        setup.date.advance(by: 61)
        _ = try await setup.client.freshAccessToken()
        #expect(await events.next() == .tokensRefreshed(setup.profile))
    }

    @Test("concurrent callers share one refresh")
    func refreshesAreCoalesced() async throws {
        let setup = try await Setup()
        setup.date.advance(by: 61)
        async let a = setup.client.freshAccessToken()
        async let b = setup.client.freshAccessToken()
        async let c = setup.client.freshAccessToken()
        let tokens = try await [a, b, c]
        #expect(Set(tokens.map(\.value)).count == 1)
        #expect(setup.refreshCalls == 1)
    }

    @Test("a refused refresh logs the user out and says so")
    func refusedRefresh() async throws {
        let setup = try await Setup()
        var events = setup.client.sessionEvents().makeAsyncIterator()
        setup.server.revokeAllRefreshTokens()
        setup.date.advance(by: 61)
        #expect(await Self.code(of: { () throws(IdentityFlowError) in try await setup.client.freshAccessToken() }) == .userNotAuthenticated)
        #expect(setup.client.authenticatedUserProfile == nil)
        guard case .loggedOut(let profile, _) = await events.next() else {
            Issue.record("expected loggedOut")
            return
        }
        #expect(profile == setup.profile)
    }

    /// The code a call fails with, or `nil` when it succeeds.
    static func code<T>(of call: () async throws(IdentityFlowError) -> T) async -> ErrorCode? {
        do throws(IdentityFlowError) {
            _ = try await call()
            return nil
        } catch { return error.code }
    }
}
