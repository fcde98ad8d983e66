import Foundation
import Testing
@_spi(Integrator) import IdentityFlowTesting

/// The reference server behaves like a strict OAuth server, so hosts' tests catch real mistakes.
@Suite("ReferenceIdentityService")
struct ReferenceIdentityServiceTests {
    static let redirect = URL(string: "app://callback")!

    /// An authorization request and the code alice's login at its URL produces.
    static func authorized(_ server: ReferenceIdentityService) async throws -> (AuthorizationRequest, Redacted<String>) {
        let request = try AuthorizationRequest(redirectURI: redirect, scopes: ["openid"])
        let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        let redirectURL = try server.logIn(at: url)
        guard case .authorized(let code, _) = BrowserRedirect.check(redirectURL, against: request) else {
            throw IdentityFlowError(.invalidServerResponse, "no code")
        }
        return (request, code)
    }

    @Test("a code is exchanged once, only with the PKCE verifier it was issued for")
    func codeExchange() async throws {
        let server = ReferenceIdentityService()
        let (request, code) = try await Self.authorized(server)
        let impostor = AuthorizationRequest(
            redirectURI: Self.redirect, scopes: [], state: request.state.value, nonce: request.nonce.value, codeVerifier: String(repeating: "x", count: 43))
        await #expect { try await server.exchangeCode(code, request: impostor) } throws: { ($0 as? IdentityFlowError)?.oauthError == "invalid_grant" }
        let (second, secondCode) = try await Self.authorized(server)
        let tokens = try await server.exchangeCode(secondCode, request: second)
        #expect(server.acceptsAccessToken(tokens.accessToken.value))
        await #expect { try await server.exchangeCode(secondCode, request: second) } throws: { ($0 as? IdentityFlowError)?.oauthError == "invalid_grant" }
    }

    @Test("refresh rotates: the old refresh token is refused afterwards")
    func refreshRotates() async throws {
        let server = ReferenceIdentityService()
        let (request, code) = try await Self.authorized(server)
        let tokens = try await server.exchangeCode(code, request: request)
        let refreshToken = try #require(tokens.refreshToken)
        let fresh = try await server.refresh(refreshToken)
        #expect(fresh.refreshToken != tokens.refreshToken)
        await #expect(throws: IdentityFlowError.self) { try await server.refresh(refreshToken) }
    }

    @Test("an injected fault hits exactly the next `times` calls and is recorded in `calls`")
    func faultsAreCounted() async throws {
        let server = ReferenceIdentityService()
        server.inject(.serverError, into: .identityProviders, times: 2)
        for _ in 0..<2 {
            await #expect { try await server.identityProviders() } throws: { ($0 as? IdentityFlowError)?.code == .serverNotReachable }
        }
        #expect(try await server.identityProviders() == [ReferenceIdentityService.browserProvider])
        #expect(server.calls == [.identityProviders, .identityProviders, .identityProviders])
    }

    @Test("the browser refuses URLs it did not produce and unknown users")
    func browserPlaysStrictly() async throws {
        let server = ReferenceIdentityService()
        #expect(throws: IdentityFlowError.self) { try server.logIn(at: URL(string: "https://elsewhere.example/authorize")!) }
        let request = try AuthorizationRequest(redirectURI: Self.redirect, scopes: [])
        let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        #expect(throws: IdentityFlowError.self) { try server.logIn(at: url, as: "mallory") }
        server.addUser("mallory")
        #expect(try server.logIn(at: url, as: "mallory").query?.contains("code=") == true)
    }
}

extension ReferenceIdentityServiceTests {
    @Test("authorization URLs carry every parameter percent-encoded; the redirect keeps the redirect URI's own query and fragment")
    func urlsRoundTrip() async throws {
        let server = ReferenceIdentityService()
        let redirectURI = URL(string: "app://callback/?keep=a%26b#frag")!
        let request = AuthorizationRequest(
            redirectURI: redirectURI, scopes: ["openid", "a&b=c+d"], state: "s &=+/#%é", nonce: "n", codeVerifier: String(repeating: "v", count: 43))
        let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        let items = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.first { $0.name == "redirect_uri" }?.value == redirectURI.absoluteString)
        #expect(items.first { $0.name == "scope" }?.value == "openid a&b=c+d")
        #expect(items.first { $0.name == "state" }?.value == "s &=+/#%é")
        #expect(items.first { $0.name == "code_challenge" }?.value == request.codeChallenge)
        let redirect = try server.logIn(at: url)
        #expect(redirect.absoluteString.hasPrefix("app://callback/?keep=a%26b&code="))
        #expect(redirect.fragment == "frag")
        guard case .authorized(let code, _) = BrowserRedirect.check(redirect, against: request) else {
            Issue.record("the redirect did not carry a code and the state")
            return
        }
        #expect(try await server.exchangeCode(code, request: request).scopes == ["openid", "a&b=c+d"])
        let denied = try server.logIn(at: url, consent: .deny)
        #expect(BrowserRedirect.check(denied, against: request) == .denied(error: "access_denied", description: nil))
    }
}

@Suite("ManualClock")
struct ManualClockTests {
    @Test("a sleeper wakes only when the clock reaches its deadline")
    func wakesAtDeadline() async throws {
        let clock = ManualClock()
        let woke = Task {
            try await clock.sleep(for: .seconds(5)); return clock.now.offset
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        #expect(try await woke.value == .seconds(5))
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a sleeper throws CancellationError and removes it")
    func cancellation() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        #expect(await sleeper.result.failure is CancellationError)
        #expect(clock.sleeperCount == 0)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
