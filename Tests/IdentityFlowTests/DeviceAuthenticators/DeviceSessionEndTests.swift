import Foundation
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// What a session end does in device mode (`docs/device-authenticators.md`, "What a session end
/// does"): logout, provider logout, a refused refresh, lockout and deregistration, and what the
/// next PIN login does after each. The reference server refuses an empty token at revocation, as
/// RFC 7009 providers do.
@Suite("Device mode: session ends")
struct DeviceSessionEndTests {
    typealias Setup = DeviceModeTests.Setup
    static let api = DeviceModeTests.api

    /// The log records of a client, kept for the test to read.
    final class LogRecords: Sendable {
        let records = Locked<[IdentityFlowLogger.Record]>([])
        var logger: IdentityFlowLogger { IdentityFlowLogger(minimumLevel: .debug) { [records] record in records.withLock { $0.append(record) } } }
        /// The warnings and errors, in order.
        var warnings: [String] { records.current.filter { $0.level >= .warning }.map(\.message) }
        /// Every message at `level`, in order.
        func messages(at level: IdentityFlowLogger.Level) -> [String] { records.current.filter { $0.level == level }.map(\.message) }
    }

    @Test("launch, PIN login, deregister: the refresh token and the last access token are revoked, no empty token is sent, no 10003")
    func deregisterAfterPinLogin() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.logout()
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        try await setup.client.deregister(profile)
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(setup.server.activeAccessTokenCount == 0)
        #expect(try setup.storage.keys().isEmpty)
    }

    @Test("the first refresh after a PIN login sends no empty revocation and logs no warning")
    func firstRefreshAfterPinLoginIsQuiet() async throws {
        let log = LogRecords()
        let setup = try await Setup(logger: log.logger)
        let profile = try await setup.register()
        try await setup.client.logout()
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
        #expect(log.warnings.isEmpty)
    }

    // MARK: - What each session end leaves

    /// Answers the provider logout's challenge as the browser would.
    static func providerLogout(_ setup: Setup) async throws {
        let server = setup.server
        _ = try await setup.client.providerLogout { challenge in
            guard case .providerLogout(let logout) = challenge else {
                challenge.cancel()
                return
            }
            _ = logout.sender.respond(with: try! server.logOut(at: logout.url), to: logout)
        }
    }

    /// The error of a PIN login with the right PIN.
    static func pinLoginError(_ setup: Setup, _ profile: UserProfile) async -> IdentityFlowError? {
        do {
            try await setup.logIn(profile, [.pin(.respond("24680"))])
            return nil
        } catch { return error as? IdentityFlowError }
    }

    @Test("a logout keeps the sign-in: the next PIN login opens a session that calls the API")
    func logoutKeepsSignIn() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.logout()
        #expect(await Self.pinLoginError(setup, profile) == nil)
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
    }

    @Test("a provider logout ends the sign-in: revoked at the provider; the next PIN login fails with 11042 before any API call and removes the profile")
    func providerLogoutEndsSignIn() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await Self.providerLogout(setup)
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(setup.client.userProfiles.contains(profile), "listed until the next login says why it cannot")
        let calls = setup.server.calls.count
        let error = await Self.pinLoginError(setup, profile)
        #expect(error?.code == .signInEnded)
        #expect(error?.userProfile == profile)
        #expect(setup.server.calls.count == calls, "nothing is sent to the provider")
        #expect(setup.client.authenticatedUserProfile == nil)
        #expect(!setup.client.userProfiles.contains(profile))
        #expect(try setup.storage.keys().isEmpty)
    }

    @Test("a refresh the provider refuses (invalid_grant) ends the sign-in: the next PIN login fails with 11042 and removes the profile")
    func refusedRefreshEndsSignIn() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        setup.server.revokeAllRefreshTokens()
        setup.date.advance(by: 120)
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticatedRequest(Self.api) }
        #expect(setup.client.authenticatedUserProfile == nil)
        #expect(await Self.pinLoginError(setup, profile)?.code == .signInEnded)
        #expect(!setup.client.userProfiles.contains(profile))
    }

    @Test("a refresh that fails for another reason (a malformed answer) keeps the sealed sign-in for the next login")
    func otherRefreshFailureKeepsSignIn() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        setup.server.inject(.malformedAnswer, into: .refresh)
        setup.date.advance(by: 120)
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticatedRequest(Self.api) }
        #expect(setup.client.authenticatedUserProfile == nil)
        #expect(await Self.pinLoginError(setup, profile) == nil)
    }

    @Test("a lockout at login removes the profile; a lockout with the session open revokes it")
    func lockoutRemovesProfile() async throws {
        let setup = try await Setup(maxPinFailures: 1)
        let profile = try await setup.register()
        try await setup.client.logout()
        await #expect(throws: IdentityFlowError.self) { try await setup.logIn(profile, [.pin(.respond("11111"))]) }
        #expect(!setup.client.userProfiles.contains(profile))
        #expect(try setup.storage.keys().isEmpty)
    }

    @Test("identityClaims(of:) is the last ID token's claims also when the profile is logged out, also after a relaunch")
    func claimsWhileLoggedOut() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        let subject = try #require(setup.client.identityClaims?.subject)
        try await setup.client.logout()
        #expect(setup.client.identityClaims(of: profile)?.subject == subject)
        let (again, _) = try await setup.relaunched()
        #expect(again.client.identityClaims(of: profile)?.subject == subject)
    }

    // MARK: - A session end landing while a refresh is on its way

    /// A device-mode client whose service runs `hook` once, right after the provider answered a
    /// refresh (the rotation done there) and before the client stores the answer.
    static func racing(_ hook: @escaping @Sendable (Setup, UserProfile) async -> Void) async throws -> (Setup, UserProfile) {
        let hooked = Locked<HookedService?>(nil)
        let setup = try await Setup(service: { server in
            let service = HookedService(server)
            hooked.withLock { $0 = service }
            return service
        })
        let profile = try await setup.register()
        try #require(hooked.current).after("refresh") { await hook(setup, profile) }
        setup.date.advance(by: 120)
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.freshAccessToken() }
        return (setup, profile)
    }

    @Test("a logout landing during a refresh: the rotated refresh token goes to the vault, the next PIN login calls the API")
    func logoutDuringRefresh() async throws {
        let (setup, profile) = try await Self.racing { setup, _ in try? await setup.client.logout() }
        #expect(setup.client.authenticatedUserProfile == nil)
        #expect(await Self.pinLoginError(setup, profile) == nil)
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
    }

    @Test("a provider logout landing during a refresh: the rotated tokens are revoked, none stays live")
    func providerLogoutDuringRefresh() async throws {
        let (setup, profile) = try await Self.racing { setup, _ in try? await Self.providerLogout(setup) }
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(await Self.pinLoginError(setup, profile)?.code == .signInEnded)
    }

    @Test("a deregistration landing during a refresh: the rotated tokens are revoked, none stays live")
    func deregistrationDuringRefresh() async throws {
        let (setup, profile) = try await Self.racing { setup, profile in try? await setup.client.deregister(profile) }
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(!setup.client.userProfiles.contains(profile))
    }
}
