import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// Server mode stores no session that outlives the app's next launch (issue 36): the tokens of a
/// session that ended without a logout (the system killed the app) are revoked at the provider and
/// dropped from the storage by the next `start()`, so a copy of the storage, taken during the
/// session or after the kill, refreshes nothing once the app launched again.
@Suite("Server mode: the session a killed app left behind")
struct LeftSessionTests {
    struct Setup {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()

        func launch(_ policy: LaunchPolicy = .requireAuthentication) async throws -> (UserClient, LaunchReport) {
            var configuration = ClientConfiguration.testing()
            configuration.launchPolicy = policy
            let client = UserClient(configuration: configuration, service: server, storage: storage)
            return (client, try await client.start())
        }

        func register(_ client: UserClient) async throws -> UserProfile {
            try await client.registerUser(
                .provider(ReferenceIdentityService.browserProvider),
                responder: ScriptedResponder([.browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
            ).profile
        }

        /// Every item of the storage, as a thief copies it.
        func copy() throws -> [String: Data] {
            Dictionary(uniqueKeysWithValues: try storage.keys().map { ($0, try #require(try storage.data(forKey: $0))) })
        }

        /// The refresh token a copy holds for `profile`.
        static func refreshToken(in copy: [String: Data], of profile: UserProfile) throws -> Redacted<String> {
            let stored = try JSONDecoder().decode(StoredProfile.self, from: try #require(copy["identityflow.profile." + profile.profileId]))
            return try #require(stored.tokens.refreshToken)
        }

        /// Whether the storage holds any token the server issued.
        var storesAToken: Bool {
            let text = ((try? storage.keys().compactMap { try storage.data(forKey: $0) }) ?? []).map { String(decoding: $0, as: UTF8.self) }.joined()
            return server.issuedTokensForTesting.contains { text.contains($0) }
        }
    }

    @Test("a copy taken during the session refreshes nothing once the app, killed, launched again; the storage holds no token")
    func copyDuringSession() async throws {
        let setup = Setup()
        let (first, _) = try await setup.launch()
        let profile = try await setup.register(first)
        let copy = try setup.copy()
        // The system ends the app: no logout.
        let (_, report) = try await setup.launch()
        #expect(report.profiles == [profile])
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.server.refresh(try Setup.refreshToken(in: copy, of: profile)) }
        #expect(!setup.storesAToken)
    }

    @Test("a copy taken after the kill (a refreshed session) refreshes nothing once the app launched again; the next PIN login works")
    func copyAfterKill() async throws {
        let setup = Setup()
        let (first, _) = try await setup.launch()
        let profile = try await setup.register(first)
        _ = try await first.freshAccessToken(minimumValidity: 1_000_000)
        #expect(setup.server.calls.contains(.refresh))
        // Killed; the storage is copied before the next launch.
        let copy = try setup.copy()
        let (again, _) = try await setup.launch()
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.server.refresh(try Setup.refreshToken(in: copy, of: profile)) }
        #expect(setup.server.activeRefreshTokenCount == 0)
        let revocations = setup.server.calls.filter { $0 == .revoke }.count
        _ = try await again.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        #expect(again.authenticatedUserProfile == profile)
        // The dropped set is not revoked again at the login.
        #expect(setup.server.calls.filter { $0 == .revoke }.count == revocations)
    }

    @Test("the provider unreachable at launch: the left session is kept and revoked at the next launch")
    func unreachableAtLaunch() async throws {
        let setup = Setup()
        let (first, _) = try await setup.launch()
        let profile = try await setup.register(first)
        let copy = try setup.copy()
        setup.server.inject(.networkError, into: .revoke)
        _ = try await setup.launch()
        #expect(setup.storesAToken)
        _ = try await setup.launch()
        #expect(!setup.storesAToken)
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.server.refresh(try Setup.refreshToken(in: copy, of: profile)) }
    }

    @Test("resumeLastUser: the session the launch resumes is kept (the documented trade-off)")
    func resumedSessionKept() async throws {
        let setup = Setup()
        let (first, _) = try await setup.launch(.resumeLastUser)
        let profile = try await setup.register(first)
        // Revoked at launch, the session could not be resumed: its refresh would be refused.
        let (again, report) = try await setup.launch(.resumeLastUser)
        #expect(report.resumedProfile == profile)
        #expect(again.authenticatedUserProfile == profile)
    }
}
