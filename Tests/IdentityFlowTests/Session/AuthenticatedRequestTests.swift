import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

@Suite("Authenticated requests")
struct AuthenticatedRequestTests {
    struct Setup {
        let date = ManualDate()
        let server: ReferenceIdentityService
        let resource: ReferenceResourceServer
        let client: UserClient

        init() async throws {
            server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
            resource = ReferenceResourceServer(trusting: server)
            client = UserClient(configuration: .testing(now: date.now), service: server, storage: InMemoryStorage(), transport: resource)
            try await client.start()
            _ = try await client.registerUser(
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
                ]))
        }

        var refreshCalls: Int { server.calls.filter { $0 == .refresh }.count }
    }

    static let request = URLRequest(url: URL(string: "https://api.example/me")!)

    @Test("sends the access token; isValidAccessToken follows the expiry")
    func sendsToken() async throws {
        let setup = try await Setup()
        #expect(setup.client.isValidAccessToken)
        let (data, response) = try await setup.client.authenticatedRequest(Self.request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "ok")
        setup.date.advance(by: 61)
        #expect(!setup.client.isValidAccessToken)
        #expect(setup.refreshCalls == 0)
    }

    @Test("an expired token is refreshed before sending")
    func refreshesExpiredToken() async throws {
        let setup = try await Setup()
        setup.date.advance(by: 61)
        let (_, response) = try await setup.client.authenticatedRequest(Self.request)
        #expect(response.statusCode == 200)
        #expect(setup.refreshCalls == 1)
        #expect(setup.client.isValidAccessToken)
    }

    @Test("a 401 refreshes once and retries once")
    func refreshesOn401() async throws {
        let setup = try await Setup()
        setup.server.revokeAllAccessTokens()
        let (_, response) = try await setup.client.authenticatedRequest(Self.request)
        #expect(response.statusCode == 200)
        #expect(setup.refreshCalls == 1)
        #expect(setup.resource.refusedCount == 1)
    }

    @Test("100 concurrent requests around an expiry make exactly one refresh call")
    func oneRefreshForConcurrentRequests() async throws {
        let setup = try await Setup()
        setup.date.advance(by: 61)
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask { (try? await setup.client.authenticatedRequest(Self.request).1.statusCode) ?? -1 }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(setup.refreshCalls == 1)
    }

    @Test("a refused refresh logs the user out and says so")
    func refusedRefreshLogsOut() async throws {
        let setup = try await Setup()
        let profile = try #require(setup.client.authenticatedUserProfile)
        let events = setup.client.sessionEvents()
        setup.server.revokeAllRefreshTokens()
        setup.date.advance(by: 61)
        let result = await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(Self.request) }
        #expect(result.failure?.code == .userNotAuthenticated)
        #expect(setup.client.authenticatedUserProfile == nil)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .loggedOut(profile, reason: .externalIdentityProviderFailure))
    }

    @Test("a network error during refresh keeps the session")
    func networkErrorKeepsSession() async throws {
        let setup = try await Setup()
        setup.server.inject(.networkError, into: .refresh)
        setup.date.advance(by: 61)
        let result = await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(Self.request) }
        #expect(result.failure?.code == .networkConnectivityFailure)
        #expect(setup.client.authenticatedUserProfile != nil)
        #expect(try await setup.client.authenticatedRequest(Self.request).1.statusCode == 200)
    }

    @Test("without a logged-in user requests fail with userNotAuthenticated")
    func needsUser() async throws {
        let setup = try await Setup()
        try await setup.client.logout()
        let result = await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(Self.request) }
        #expect(result.failure?.code == .userNotAuthenticated)
    }
}
