import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// Device-mode authenticators against the reference server used as a stock OpenID Connect
/// provider: every flow of the lifecycle, and not one extension endpoint called.
@Suite("Device-mode authenticators")
struct DeviceModeTests {
    /// The calls a stock provider answers; any other is an extension endpoint.
    static let providerCalls: Set<ServiceCall> = [.authorizationURL, .exchangeCode, .refresh, .revoke]

    struct Setup {
        let date = ManualDate()
        let server: ReferenceIdentityService
        let storage: any SecureStorage
        let client: UserClient
        let resource: ReferenceResourceServer

        init(
            policy: LaunchPolicy = .requireAuthentication, maxPinFailures: Int = 3, server: ReferenceIdentityService? = nil,
            storage: any SecureStorage = InMemoryStorage(), hardware: (any HardwareKey)? = nil,
            service: ((ReferenceIdentityService) -> any IdentityService)? = nil,
            logger: IdentityFlowLogger = .disabled
        ) async throws {
            let server = server ?? ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
            self.server = server
            self.storage = storage
            resource = ReferenceResourceServer(trusting: server)
            var configuration = ClientConfiguration.testing(now: date.now, logger: logger)
            configuration.authenticators = .device(maxPinFailures: maxPinFailures)
            configuration.launchPolicy = policy
            configuration.hardwareKey = hardware
            client = UserClient(configuration: configuration, service: service?(server) ?? server, storage: storage, transport: resource)
            try await client.start()
        }

        /// A second client on the same server and storage: the app launched again.
        func relaunched(policy: LaunchPolicy = .requireAuthentication, maxPinFailures: Int = 3, hardware: (any HardwareKey)? = nil) async throws
            -> (Setup, LaunchReport)
        {
            var configuration = ClientConfiguration.testing(now: date.now)
            configuration.authenticators = .device(maxPinFailures: maxPinFailures)
            configuration.launchPolicy = policy
            configuration.hardwareKey = hardware
            let client = UserClient(configuration: configuration, service: server, storage: storage, transport: resource)
            let report = try await client.start()
            return (Setup(date: date, server: server, storage: storage, client: client, resource: resource), report)
        }

        private init(date: ManualDate, server: ReferenceIdentityService, storage: any SecureStorage, client: UserClient, resource: ReferenceResourceServer) {
            self.server = server
            self.storage = storage
            self.client = client
            self.resource = resource
            _ = date
        }

        func register(pin: String = "24680") async throws -> UserProfile {
            try await client.registerUser(
                .provider(ReferenceIdentityService.browserProvider),
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url) }), .createPin(.respond(pin)),
                ])
            ).profile
        }

        func logIn(_ profile: UserProfile, _ steps: [ScriptStep]) async throws {
            let responder = ScriptedResponder(steps)
            _ = try await client.authenticateUser(profile, responder: responder)
            try responder.verify()
        }

        var extensionCalls: [ServiceCall] { server.calls.filter { !DeviceModeTests.providerCalls.contains($0) } }

        /// Every byte the storage holds, as text.
        var storedText: String {
            (try? storage.keys().compactMap { try storage.data(forKey: $0) }.map { String(decoding: $0, as: UTF8.self) }.joined()) ?? ""
        }
    }

    static let api = URLRequest(url: URL(string: "https://api.example/me")!)

    @Test("register, log out, log in with the PIN, call the API: no extension endpoint, no token in clear on the device")
    func lifecycle() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        #expect(setup.client.authenticatedUserProfile == profile)
        let issued = setup.server.issuedTokensForTesting
        #expect(!issued.isEmpty)
        for token in issued { #expect(!setup.storedText.contains(token)) }
        try await setup.client.logout()
        #expect(setup.client.authenticatedUserProfile == nil)
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        #expect(setup.client.authenticatedUserProfile == profile)
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
        for token in setup.server.issuedTokensForTesting { #expect(!setup.storedText.contains(token)) }
        #expect(setup.extensionCalls.isEmpty)
    }

    @Test(
        "a logout keeps the provider session sealed (nothing revoked: RFC 7009 lets a provider revoke the refresh token with its access token); the next login refreshes"
    )
    func logoutKeepsRefreshToken() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.logout()
        #expect(!setup.server.calls.contains(.revoke))
        #expect(setup.server.activeRefreshTokenCount == 1)
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        #expect(!setup.client.isValidAccessToken)
        _ = try await setup.client.authenticatedRequest(Self.api)
        #expect(setup.server.calls.filter { $0 == .refresh }.count == 1)
        #expect(setup.client.isValidAccessToken)
    }

    @Test("a registration that names no provider takes the server's list when it has one (the provider's own sign-in otherwise: interop)")
    func defaultProvider() async throws {
        let setup = try await Setup()
        let server = setup.server
        let result = try await setup.client.registerUser(
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))]))
        #expect(result.identityProvider == ReferenceIdentityService.browserProvider)
        #expect(setup.extensionCalls == [.identityProviders])
    }

    @Test("wrong PINs are counted on the device; at the limit the profile is removed with 9003")
    func lockout() async throws {
        let setup = try await Setup(maxPinFailures: 3)
        let profile = try await setup.register()
        try await setup.client.logout()
        let responder = ScriptedResponder([
            .pin(.respond("11111")), .pin(.respond("22222"), expecting: .invalidPin), .pin(.respond("33333"), expecting: .invalidPin),
        ])
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticateUser(profile, responder: responder) }
        do { _ = try await setup.client.authenticateUser(profile, responder: ScriptedResponder([])) } catch { #expect(error.code == .requestInvalid) }
        #expect(!setup.client.userProfiles.contains(profile))
        #expect(try setup.storage.keys().isEmpty)
        #expect(setup.extensionCalls.isEmpty)
    }

    @Test("the lockout error is userDeregistered and the counters count down")
    func lockoutCode() async throws {
        let setup = try await Setup(maxPinFailures: 2)
        let profile = try await setup.register()
        try await setup.client.logout()
        let seen = Locked<[Int]>([])
        let error = await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.client.authenticateUser(profile) { challenge in
                guard case .pin(let pin) = challenge else {
                    challenge.cancel()
                    return
                }
                seen.withLock { $0.append(pin.counters.remainingFailureCount) }
                pin.sender.respond(with: "13570", to: pin)
            }
        }
        #expect(error?.code == .userDeregistered)
        #expect(seen.current == [2, 1])
    }

    @Test("a failure is stored before the PIN is tried: a kill mid-check uses the attempt")
    func countsBeforeChecking() async throws {
        let storage = RecordingStorage()
        let setup = try await Setup(storage: storage)
        let profile = try await setup.register()
        try await setup.client.logout()
        storage.recorded.withLock { $0 = [] }
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        let counts = storage.recorded.current.compactMap { data -> Int? in
            (try? JSONDecoder().decode(StoredProfile.self, from: data))?.vault?.failureCount
        }
        #expect(counts.prefix(2) == [1, 0])
    }

    @Test("an attempt whose verdict was never stored counts as wrong: a vault left at the limit locks out at the next attempt")
    func interruptedLastAttempt() async throws {
        let setup = try await Setup(maxPinFailures: 2)
        let profile = try await setup.register()
        try await setup.client.logout()
        try setup.client.updateStoredProfile(profile) { stored in
            stored.vault?.failureCount = 2
            let deviceSecret = stored.deviceSecret!
            stored.vault?.bind(deviceSecret: deviceSecret, profile: profile)
        }
        let error = await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        #expect(error?.code == .userDeregistered)
        #expect(!setup.client.userProfiles.contains(profile))
    }

    @Test("a PIN change rewraps the vault: the old PIN no longer opens it, the new one does")
    func changePin() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        try await setup.client.logout()
        try await setup.logIn(profile, [.pin(.respond("24680")), .pin(.respond("80426"), expecting: .invalidPin)])
        #expect(setup.client.authenticatedUserProfile == profile)
        #expect(setup.extensionCalls.isEmpty)
    }

    @Test("wrong current PINs to the limit during a PIN change: the open session is revoked at the provider and the profile removed")
    func lockoutDuringChangeRevokesSession() async throws {
        let setup = try await Setup(maxPinFailures: 2)
        let profile = try await setup.register()
        await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("11111")), .pin(.respond("22222"), expecting: .invalidPin)]))
        }
        #expect(!setup.client.userProfiles.contains(profile))
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(setup.server.activeAccessTokenCount == 0)
    }

    @Test("a PIN change or a login cancelled after the PIN check keeps the profile's sealed sign-in alive")
    func cancelledAfterCheckKeepsSignIn() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.cancel)]))
        }
        try await setup.client.logout()
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        _ = try await setup.client.authenticatedRequest(Self.api)
        #expect(setup.server.activeRefreshTokenCount == 1)
        #expect(setup.client.authenticatedUserProfile == profile)
    }

    @Test("a biometric registration whose key cannot be stored fails and keeps the sealed sign-in")
    func biometricRegistrationFailureKeepsSignIn() async throws {
        let storage = FailingStorage()
        let setup = try await Setup(storage: storage)
        let profile = try await setup.register()
        storage.failWritesOfKeys = "identityflow.biometric-key."
        let error = await #expect(throws: IdentityFlowError.self) {
            try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        #expect(error?.code == .dataStorageNotAvailable)
        storage.failWritesOfKeys = nil
        #expect(!setup.client.registeredAuthenticators(for: profile).contains(.biometric))
        // The PIN check's tokens are the profile's own sign-in: dropping them must not revoke it.
        try await setup.client.logout()
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        setup.date.advance(by: 120)
        _ = try await setup.client.authenticatedRequest(Self.api)
        #expect(setup.server.activeRefreshTokenCount == 1)
    }

    @Test("biometrics: registered with the PIN, a login with the biometric key, removal falls back to the PIN")
    func biometrics() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        #expect(setup.client.registeredAuthenticators(for: profile).contains(.biometric))
        try await setup.client.logout()
        _ = try await setup.client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        #expect(setup.client.authenticatedUserProfile == profile)
        _ = try await setup.client.authenticatedRequest(Self.api)
        try setup.client.deregisterBiometricAuthenticator(for: profile)
        try await setup.client.logout()
        #expect(!setup.client.registeredAuthenticators(for: profile).contains(.biometric))
        try await setup.logIn(profile, [.pin(.respond("24680"))])
        #expect(setup.extensionCalls.isEmpty)
    }

    @Test("a biometric key that does not open the vault falls back to the PIN with 9030")
    func biometricFallback() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try await setup.client.logout()
        try setup.storage.setData(Data(repeating: 7, count: 32), forKey: "identityflow.biometric-key." + profile.profileId)
        try await setup.logIn(profile, [.biometric(.respond(.confirmed)), .pin(.respond("24680"), expecting: .biometricAuthenticatorFailure)])
    }

    @Test("launch with requireAuthentication: nobody is logged in until the PIN")
    func launchRequiresPin() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        let (again, report) = try await setup.relaunched()
        #expect(report.resumedProfile == nil)
        #expect(report.profiles == [profile])
        #expect(again.client.authenticatedUserProfile == nil)
        try await again.logIn(profile, [.pin(.respond("24680"))])
    }

    @Test("launch with resumeLastUser: the last user is back while the provider refreshes; a logout ends that")
    func launchResumes() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        let (again, report) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(report.resumedProfile == profile)
        #expect(again.client.authenticatedUserProfile == profile)
        let (_, response) = try await again.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
        try await again.client.logout()
        let (third, thirdReport) = try await again.relaunched(policy: .resumeLastUser)
        #expect(thirdReport.resumedProfile == nil)
        #expect(third.client.authenticatedUserProfile == nil)
        try await third.logIn(profile, [.pin(.respond("24680"))])
    }

    @Test("launch with resumeLastUser after the provider revoked the session: not resumed, the PIN still opens the profile")
    func launchAfterRevocation() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        setup.server.revokeAllRefreshTokens()
        let (again, report) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(report.resumedProfile == nil)
        #expect(again.client.authenticatedUserProfile == nil)
        #expect(report.profiles == [profile])
    }

    @Test("the provider revoking the session: the next refresh is refused and the session event says loggedOut")
    func providerRevokes() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        let events = setup.client.sessionEvents()
        setup.server.revokeAllRefreshTokens()
        setup.server.revokeAllAccessTokens()
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticatedRequest(Self.api) }
        #expect(setup.client.authenticatedUserProfile == nil)
        var iterator = events.makeAsyncIterator()
        guard case .loggedOut(let loggedOut, _)? = await iterator.next() else { Issue.record("no loggedOut event"); return }
        #expect(loggedOut == profile)
    }

    @Test("resumeLastUser with the provider unreachable at launch: nobody now, the session is kept for the next launch")
    func unreachableAtLaunch() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        setup.server.inject(.networkError, into: .refresh)
        let (offline, offlineReport) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(offlineReport.resumedProfile == nil)
        #expect(offline.client.authenticatedUserProfile == nil)
        let (online, onlineReport) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(onlineReport.resumedProfile == profile)
        #expect(online.client.authenticatedUserProfile == profile)
    }

    @Test("a refused refresh ends the session for the next launch too: resumeLastUser brings nobody back")
    func refusedRefreshEndsResume() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        _ = try await setup.register()
        setup.server.revokeAllRefreshTokens()
        setup.server.revokeAllAccessTokens()
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticatedRequest(Self.api) }
        #expect(try setup.storage.data(forKey: "identityflow.resume") == nil)
        let (again, report) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(report.resumedProfile == nil)
        #expect(again.client.authenticatedUserProfile == nil)
    }

    @Test("resumeLastUser in server mode: the last user is back at launch while the server refreshes; a logout ends that")
    func serverModeResumes() async throws {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()
        func client() async throws -> (UserClient, LaunchReport) {
            var configuration = ClientConfiguration.testing()
            configuration.launchPolicy = .resumeLastUser
            let client = UserClient(configuration: configuration, service: server, storage: storage)
            return (client, try await client.start())
        }
        let (first, _) = try await client()
        let profile = try await first.registerUser(
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        ).profile
        let (second, report) = try await client()
        #expect(report.resumedProfile == profile)
        #expect(second.authenticatedUserProfile == profile)
        #expect(server.calls.filter { $0 == .refresh }.count == 1)
        try await second.logout()
        let (third, thirdReport) = try await client()
        #expect(thirdReport.resumedProfile == nil)
        #expect(third.authenticatedUserProfile == nil)
    }

    @Test("deregistration while logged in revokes the tokens at the provider and wipes the device")
    func deregister() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.deregister(profile)
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(try setup.storage.keys().isEmpty)
        #expect(setup.extensionCalls.isEmpty)
    }

    @Test("deregistration without a session wipes the device and says the tokens stayed sealed (10003 caused by 11030)")
    func deregisterLoggedOut() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.logout()
        do {
            try await setup.client.deregister(profile)
            Issue.record("expected localDeregistration")
        } catch {
            #expect(error.code == .localDeregistration)
            #expect((error.underlying as? IdentityFlowError)?.code == .pinProofRequired)
        }
        #expect(try setup.storage.keys().isEmpty)
    }

    @Test("mobile and implicit authentication need the server: 11040")
    func serverOnlyFeatures() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        let needsServer: @Sendable (any Error) -> Bool = { ($0 as? IdentityFlowError)?.code == .serverAuthenticatorsRequired }
        await #expect { try await setup.client.enrollMobileAuthentication() } throws: { needsServer($0) }
        await #expect { try await setup.client.enrollImplicitAuthentication() } throws: { needsServer($0) }
        // Not 11014 (enrol first): no enrolment could ever come before it in device mode.
        await #expect { try await setup.client.enrollPushMobileAuthentication(deviceToken: Data([1, 2, 3])) } throws: { needsServer($0) }
        await #expect { _ = try await setup.client.pendingMobileAuthRequests() } throws: { needsServer($0) }
        await #expect { _ = try await setup.client.implicitlyAuthenticate(profile, scopes: ["read"]) } throws: { needsServer($0) }
        let push = MobileAuthPush(requestId: "r1", userProfile: profile)
        await #expect { _ = try await setup.client.handleMobileAuthRequest(.push(push), responder: ScriptedResponder([])) } throws: { needsServer($0) }
    }

    @Test("a corrupt, truncated or foreign vault: named at launch, kept, and a login fails with 11041 without counting")
    func damagedVault() async throws {
        for damage in [Damage.flipBit, .truncate, .foreignSecret] {
            let setup = try await Setup()
            let profile = try await setup.register()
            try await setup.client.logout()
            let key = "identityflow.profile." + profile.profileId
            var stored = try JSONDecoder().decode(StoredProfile.self, from: try #require(try setup.storage.data(forKey: key)))
            switch damage {
            case .flipBit: stored.vault?.sealedTokens[20] ^= 1
            case .truncate: stored.vault?.pinWrap.removeLast(5)
            case .foreignSecret: stored.deviceSecret = Redacted([UInt8](repeating: 9, count: 32))
            }
            try setup.storage.setData(try stored.jsonData(), forKey: key)
            let (again, report) = try await setup.relaunched()
            #expect(report.damagedProfiles == [profile], "\(damage)")
            #expect(report.profiles.contains(profile))
            do {
                try await again.logIn(profile, [.pin(.respond("24680"))])
                Issue.record("a damaged vault opened (\(damage))")
            } catch {
                #expect((error as? IdentityFlowError)?.code == .sealedDataInvalid, "\(damage)")
            }
            #expect(again.client.userProfiles.contains(profile))
        }
    }

    enum Damage { case flipBit, truncate, foreignSecret }

    @Test("bound to a hardware key: the PIN opens the vault only with this device's hardware; a copy elsewhere is named damaged, never counted")
    func hardwareBound() async throws {
        let hardware = SoftwareHardwareKey()
        let setup = try await Setup(hardware: hardware)
        let profile = try await setup.register()
        try await setup.client.logout()
        let stored = try JSONDecoder().decode(
            StoredProfile.self, from: try #require(try setup.storage.data(forKey: "identityflow.profile." + profile.profileId)))
        let vault = try #require(stored.vault)
        #expect(vault.hardware != nil)
        // A copy of the storage alone: the right PIN does not open the vault (no offline search).
        let deviceSecret = try #require(stored.deviceSecret)
        #expect(try vault.key(pin: Redacted("24680"), pinSecret: deviceSecret, profile: profile) == nil)
        // This device: it does, through a relaunch.
        let (same, sameReport) = try await setup.relaunched(hardware: hardware)
        #expect(sameReport.damagedProfiles.isEmpty)
        try await same.logIn(profile, [.pin(.respond("24680"))])
        try await same.client.logout()
        // Another device's hardware, or none: damaged at launch, a login fails with 11041 and counts nothing.
        for other in [SoftwareHardwareKey(), nil] as [SoftwareHardwareKey?] {
            let (elsewhere, report) = try await setup.relaunched(hardware: other)
            #expect(report.damagedProfiles == [profile])
            do {
                try await elsewhere.logIn(profile, [.pin(.respond("24680"))])
                Issue.record("a vault bound to another device's hardware opened")
            } catch {
                #expect((error as? IdentityFlowError)?.code == .sealedDataInvalid)
            }
        }
        #expect(try DeviceAuthenticators(dependencies: setup.client.dependencies).vaultCounters(for: profile).previousFailureCount == 0)
    }

    @Test("a restored older copy of the storage brings its counter back (documented): the count lives in the storage")
    func restoredCounter() async throws {
        let setup = try await Setup(maxPinFailures: 3)
        let profile = try await setup.register()
        try await setup.client.logout()
        let key = "identityflow.profile." + profile.profileId
        let snapshot = try #require(try setup.storage.data(forKey: key))
        let responder = ScriptedResponder([.pin(.respond("11111")), .pin(.respond("22222"), expecting: .invalidPin), .pin(.cancel)])
        await #expect(throws: IdentityFlowError.self) { _ = try await setup.client.authenticateUser(profile, responder: responder) }
        #expect(try DeviceAuthenticators(dependencies: setup.client.dependencies).vaultCounters(for: profile).previousFailureCount == 2)
        try setup.storage.setData(snapshot, forKey: key)
        let (again, _) = try await setup.relaunched()
        #expect(try DeviceAuthenticators(dependencies: again.client.dependencies).vaultCounters(for: profile).previousFailureCount == 0)
    }

    @Test("a configuration with maxPinFailures outside 1...10 is refused")
    func configurationBounds() {
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = .device(maxPinFailures: 0)
        #expect(configuration.problem?.code == .configurationInvalid)
        configuration.authenticators = .device(maxPinFailures: 11)
        #expect(configuration.problem?.code == .configurationInvalid)
        configuration.authenticators = .device()
        #expect(configuration.problem == nil)
        #expect(AuthenticatorPlacement.server.description == "server")
    }
}

/// A storage that records every profile written, in order.
final class RecordingStorage: SecureStorage, @unchecked Sendable {
    // Safe: every access to `base` and `recorded` goes through their own locks.
    private let base = InMemoryStorage()
    let recorded = Locked<[Data]>([])

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try base.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        if key.hasPrefix("identityflow.profile.") { recorded.withLock { $0.append(data) } }
        try base.setData(data, forKey: key)
    }
    func removeData(forKey key: String) throws(IdentityFlowError) { try base.removeData(forKey: key) }
    func keys() throws(IdentityFlowError) -> [String] { try base.keys() }
}

/// A hardware key played in software: the secret is an HMAC under a key this "device" keeps in
/// memory, so another instance is another device.
struct SoftwareHardwareKey: HardwareKey {
    let deviceKey = (try? SecureRandom.bytes(count: 32)) ?? []

    func newBinding(for profile: UserProfile) throws(IdentityFlowError) -> HardwareBinding {
        HardwareBinding(keyBlob: (try? SecureRandom.bytes(count: 16)) ?? [], peerPublicKey: Array(profile.profileId.utf8))
    }

    func secret(for binding: HardwareBinding) throws(IdentityFlowError) -> Redacted<[UInt8]> {
        Redacted(Hashing.hmacSHA256(key: deviceKey, message: binding.keyBlob + binding.peerPublicKey))
    }
}
