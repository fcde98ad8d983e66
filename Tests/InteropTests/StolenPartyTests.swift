import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@testable import IdentityFlowTesting
import Statechart

/// The attack table of `docs/pin-proof.md`: each stolen party (the device's storage, a copied
/// access token, an implicit token, the server's tables, a recorded request) against the
/// reference server and against the fixture over HTTP, with the outcome each must have. The same
/// plays run against both, through ``IdentityService`` only.
struct StolenPartyPlays {
    let service: any IdentityService
    let victim: UserClient
    let profile: UserProfile
    let pin: String
    /// Everything the device stored, as a thief copying the store gets it.
    let copy: [String: Data]

    /// Registers a victim with `pin` on `service` through `register`, and copies its storage.
    static func stage(
        _ service: any IdentityService, pin: String,
        register: (UserClient) async throws -> UserProfile
    ) async throws -> StolenPartyPlays {
        let storage = InMemoryStorage()
        let victim = UserClient(configuration: .testing(), service: service, storage: storage)
        try await victim.start()
        let profile = try await register(victim)
        var copy: [String: Data] = [:]
        for key in try storage.keys() { copy[key] = try storage.data(forKey: key) }
        return StolenPartyPlays(service: service, victim: victim, profile: profile, pin: pin, copy: copy)
    }

    // MARK: - What the thief reads from the copy

    private var storedProfile: [String: Any] {
        get throws {
            let item = try #require(copy.first { $0.key.hasPrefix("identityflow.profile.") }?.value)
            return try #require(try JSONSerialization.jsonObject(with: item) as? [String: Any])
        }
    }

    /// The device secret in the copied profile (stored in base64).
    var copiedDeviceSecret: [UInt8] {
        get throws {
            let encoded = try #require(try storedProfile["deviceSecret"] as? String)
            return Array(try #require(Data(base64Encoded: encoded)))
        }
    }

    /// The refresh token in the copied profile.
    var copiedRefreshToken: Redacted<String> {
        get throws { Redacted(try #require((try storedProfile["tokens"] as? [String: Any])?["refreshToken"] as? String)) }
    }

    /// The storage copied during the session (server mode): once the app, ended by the system
    /// without a logout, launches again, the copy's refresh token is refused (the launch revoked
    /// it) and the storage holds it no more.
    func copiedSessionAfterRelaunch() async throws {
        let storage = InMemoryStorage()
        for (key, data) in copy { try storage.setData(data, forKey: key) }
        try await UserClient(configuration: .testing(), service: service, storage: storage).start()
        let refreshToken = try copiedRefreshToken
        await #expect(throws: IdentityFlowError.self) { _ = try await service.refresh(refreshToken) }
        let stored = try storage.keys().compactMap { try storage.data(forKey: $0) }.map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(!stored.contains(refreshToken.value))
    }

    /// The access token in the copied profile.
    var copiedAccessToken: Redacted<String> {
        get throws { Redacted(try #require((try storedProfile["tokens"] as? [String: Any])?["accessToken"] as? String)) }
    }

    // MARK: - Helpers

    /// A proof by `key` over a fresh nonce, as the thief can make it with any key it has.
    func proof(by key: DeviceKey, label: String, subject: [UInt8] = []) async throws -> PinKeyAuthorization {
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        return PinKeyAuthorization(nonce: nonce, proof: key.sign(PinProof.message(label, profile: profile, nonce: nonce, subject: subject)))
    }

    /// The victim's real PIN key, as the victim's device derives it (for the recorded requests).
    func victimPinKey() async throws -> DeviceKey {
        let challenge = try await service.pinLoginChallenge(for: profile)
        return try PinProof.pinKey(
            pin: Redacted(pin), salt: challenge.salt, iterations: challenge.iterations,
            deviceSecret: Redacted(try copiedDeviceSecret), profile: profile)
    }

    /// The server's failure count for the profile.
    func failureCount() async throws -> Int { try await service.pinLoginChallenge(for: profile).failureCount }

    /// The victim's device logs in with the right PIN: the counter is reset and the profile still
    /// works. At the protocol level, so that the session the thief copied stays live for the next
    /// play (the client would revoke the set a login replaces); the new set is revoked.
    func victimLogsIn() async throws {
        let key = try await victimPinKey()
        let challenge = try await service.pinLoginChallenge(for: profile)
        let proof = Redacted(key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce)))
        guard case .accepted(let tokens) = try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce) else {
            Issue.record("the victim's own PIN was refused")
            return
        }
        try await service.revoke(tokens)
        #expect(try await failureCount() == 0)
    }

    /// `body` is refused with `code`, and the profile is still the victim's (it logs in).
    func refused(
        _ code: ErrorCode, _ what: Comment, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws(IdentityFlowError) -> Void
    ) async throws {
        do {
            try await body()
            Issue.record("\(what): accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(what): \(error)", sourceLocation: sourceLocation)
        }
        #expect(try await service.profileExists(profile), "\(what) removed the profile", sourceLocation: sourceLocation)
        try await victimLogsIn()
    }

    static let attackerKey = DeviceKey(keyMaterial: Array(repeating: 0x5A, count: DeviceKey.keyMaterialLength))
    static let attackerProfile = UserProfile(profileId: "attacker-\(UUID().uuidString.prefix(8))")

    /// A first PIN enrolment of a profile of the thief's, with its own PIN key.
    func enrolAttackerProfile(with token: Redacted<String>) async throws(IdentityFlowError) {
        let enrolment = PinEnrolment(
            profile: Self.attackerProfile, salt: Array(repeating: 1, count: 16), iterations: 100_000,
            publicKey: Self.attackerKey.publicKey)
        _ = try await service.enrolPin(enrolment, accessToken: token)
    }

    // MARK: - The plays

    /// A copy of the device's storage: the device secret and the session's tokens.
    func deviceStorage(implicitScope: String) async throws {
        let deviceSecret = Redacted(try copiedDeviceSecret)
        let token = try copiedAccessToken
        // The copied session token belongs to a sign-in bound to the victim's profile.
        try await refused(.accessTokenNotAllowed, "storage: enrol a new profile with the copied token") { () throws(IdentityFlowError) in
            try await enrolAttackerProfile(with: token)
        }
        // The keys it can derive from the device secret prove nothing the server asks for a change.
        let implicitKey = DeviceKeyProof.key(.implicitAuthentication, deviceSecret: deviceSecret, profile: profile)
        let mobileKey = DeviceKeyProof.key(.mobileAuthentication, deviceSecret: deviceSecret, profile: profile)
        let replaceMobile = try await proof(by: mobileKey, label: PinProof.Purpose.mobileAuthEnrolment.rawValue, subject: Self.attackerKey.publicKey)
        try await refused(.invalidPin, "storage: register its own mobile authentication key") { () throws(IdentityFlowError) in
            try await service.enrolMobileAuthentication(publicKey: Self.attackerKey.publicKey, for: profile, authorization: replaceMobile, accessToken: token)
        }
        let deregistration = try await proof(by: implicitKey, label: PinProof.Purpose.deregistration.rawValue)
        try await refused(.invalidPin, "storage: deregister the profile") { () throws(IdentityFlowError) in
            try await service.deregister(profile, authorization: deregistration)
        }
        let revocation = try await proof(by: mobileKey, label: PinProof.Purpose.biometricRevocation.rawValue)
        try await refused(.invalidPin, "storage: revoke the biometric key") { () throws(IdentityFlowError) in
            try await service.revokeBiometricKey(for: profile, authorization: revocation)
        }
        // The implicit token it can mint (the documented limit of a storage copy) opens nothing.
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        let signed = implicitKey.sign(
            DeviceKeyProof.message(.implicitToken, profile: profile, nonce: nonce, subject: DeviceKeyProof.scopeSubject([implicitScope])))
        let implicit = try await service.implicitAccessToken(
            scopes: [implicitScope], for: profile, authorization: PinKeyAuthorization(nonce: nonce, proof: signed))
        try await implicitToken(implicit.accessToken)
    }

    /// An implicit authentication token: refused by every extension endpoint.
    func implicitToken(_ token: Redacted<String>) async throws {
        try await refused(.accessTokenNotAllowed, "implicit token: enrol a new profile") { () throws(IdentityFlowError) in
            try await enrolAttackerProfile(with: token)
        }
        let forged = PinKeyAuthorization(nonce: Array(repeating: 3, count: 32), proof: Self.attackerKey.sign([1]))
        try await refused(.accessTokenNotAllowed, "implicit token: register a mobile authentication key") { () throws(IdentityFlowError) in
            try await service.enrolMobileAuthentication(publicKey: Self.attackerKey.publicKey, for: profile, authorization: forged, accessToken: token)
        }
        try await refused(.accessTokenNotAllowed, "implicit token: register an implicit key") { () throws(IdentityFlowError) in
            try await service.enrolImplicitAuthentication(publicKey: Self.attackerKey.publicKey, for: profile, authorization: forged, accessToken: token)
        }
        try await refused(.accessTokenNotAllowed, "implicit token: register a biometric key") { () throws(IdentityFlowError) in
            try await service.enrolBiometricKey(Self.attackerKey.publicKey, for: profile, authorization: forged, accessToken: token)
        }
    }

    /// A copied access token of the victim's session (and nothing else).
    func copiedAccessToken(_ token: Redacted<String>) async throws {
        try await refused(.accessTokenNotAllowed, "token: enrol a new profile") { () throws(IdentityFlowError) in
            try await enrolAttackerProfile(with: token)
        }
        let mobile = try await proof(by: Self.attackerKey, label: PinProof.Purpose.mobileAuthEnrolment.rawValue, subject: Self.attackerKey.publicKey)
        try await refused(.invalidPin, "token: register its own mobile authentication key") { () throws(IdentityFlowError) in
            try await service.enrolMobileAuthentication(publicKey: Self.attackerKey.publicKey, for: profile, authorization: mobile, accessToken: token)
        }
        let change = try await proof(by: Self.attackerKey, label: PinProof.Purpose.change.rawValue, subject: Self.attackerKey.publicKey)
        try await refused(.invalidPin, "token: change the PIN") { () throws(IdentityFlowError) in
            _ = try await service.enrolPin(
                PinEnrolment(
                    profile: profile, salt: Array(repeating: 2, count: 16), iterations: 100_000,
                    publicKey: Self.attackerKey.publicKey, authorization: change), accessToken: token)
        }
    }

    /// The server's tables: the salt, the iterations and public keys. Even with the right PIN, a
    /// key derived without the device secret proves nothing.
    func serverTables() async throws {
        let challenge = try await service.pinLoginChallenge(for: profile)
        let guessedSecret = Redacted(Array(repeating: UInt8(7), count: PinProof.deviceSecretLength))
        let key = try PinProof.pinKey(pin: Redacted(pin), salt: challenge.salt, iterations: challenge.iterations, deviceSecret: guessedSecret, profile: profile)
        let verdict = try await service.verifyPinProof(
            Redacted(key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce))),
            for: profile, nonce: challenge.nonce)
        guard case .rejected = verdict else { Issue.record("the tables and the PIN logged in: \(verdict)"); return }
        try await victimLogsIn()
    }

    /// The device's storage and the server's tables together: an offline search over candidate
    /// PINs finds the right one (its cost per guess is in `docs/pin-proof.md`).
    func storageAndTables(salt: [UInt8], iterations: Int, publicKey: [UInt8]) throws {
        let deviceSecret = Redacted(try copiedDeviceSecret)
        let found = try ["11111", "24680", pin, "97531"].first { guess in
            try PinProof.pinKey(pin: Redacted(guess), salt: salt, iterations: iterations, deviceSecret: deviceSecret, profile: profile).publicKey == publicKey
        }
        #expect(found == pin)
    }

    /// Recorded requests of the victim's device: a login and a credential change, replayed.
    func recordedRequests() async throws {
        let key = try await victimPinKey()
        let login = try await service.pinLoginChallenge(for: profile)
        let loginProof = Redacted(key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: login.nonce)))
        guard case .accepted(let tokens) = try await service.verifyPinProof(loginProof, for: profile, nonce: login.nonce) else {
            Issue.record("the victim's own login was refused")
            return
        }
        try await refused(.requestInvalid, "replayed login") { () throws(IdentityFlowError) in
            _ = try await service.verifyPinProof(loginProof, for: profile, nonce: login.nonce)
        }
        let mobileKey = DeviceKeyProof.key(.mobileAuthentication, deviceSecret: Redacted(try copiedDeviceSecret), profile: profile)
        let enrolment = try await proof(by: key, label: PinProof.Purpose.mobileAuthEnrolment.rawValue, subject: mobileKey.publicKey)
        try await service.enrolMobileAuthentication(publicKey: mobileKey.publicKey, for: profile, authorization: enrolment, accessToken: tokens.accessToken)
        try await refused(.requestInvalid, "replayed key registration, for the attacker's key") { () throws(IdentityFlowError) in
            try await service.enrolMobileAuthentication(
                publicKey: Self.attackerKey.publicKey, for: profile, authorization: enrolment, accessToken: tokens.accessToken)
        }
        try? await service.revoke(tokens)
    }
}

@Suite("Stolen parties against the reference server")
struct StolenPartyReferenceTests {
    static func plays() async throws -> StolenPartyPlays {
        let server = ReferenceIdentityService()
        return try await StolenPartyPlays.stage(server, pin: "73914") { client in
            try await client.registerUser(
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("73914")),
                ])
            ).profile
        }
    }

    @Test("the device's storage: no enrolment, no key change, no deregistration; its implicit token opens nothing")
    func deviceStorage() async throws { try await Self.plays().deviceStorage(implicitScope: "read") }

    @Test("a copied access token: no enrolment of a new profile, no key or PIN change")
    func copiedToken() async throws {
        let plays = try await Self.plays()
        try await plays.copiedAccessToken(try plays.copiedAccessToken)
    }

    @Test("the server's tables, even with the PIN: no login")
    func serverTables() async throws { try await Self.plays().serverTables() }

    @Test("the device's storage copied during a session: its refresh token is refused once the killed app launched again")
    func copiedSession() async throws { try await Self.plays().copiedSessionAfterRelaunch() }

    @Test("recorded requests: a replayed login or key registration is refused (invalid_nonce)")
    func recordedRequests() async throws { try await Self.plays().recordedRequests() }

    @Test("storage and tables together: an offline PIN search finds the PIN (docs/pin-proof.md states its cost)")
    func storageAndTables() async throws {
        let plays = try await Self.plays()
        let server = try #require(plays.service as? ReferenceIdentityService)
        let record = try #require(server.state.withLock { $0.enrolments[plays.profile.profileId] })
        guard case .v2(let publicKey) = record.verifier else { Issue.record("no v2 key"); return }
        try plays.storageAndTables(salt: record.salt, iterations: record.iterations, publicKey: publicKey)
    }
}

extension InteropSuite {
    @Suite("Stolen parties against the fixture over HTTP")
    struct StolenPartyInteropTests {
        static func plays() async throws -> StolenPartyPlays {
            let service = try InteropEnvironment.service()
            return try await StolenPartyPlays.stage(service, pin: "73914") { client in
                try await client.registerUser(
                    .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: InteropResponder(customData: ["me"])
                ).profile
            }
        }

        @Test("the device's storage: no enrolment, no key change, no deregistration; its implicit token opens nothing")
        func deviceStorage() async throws { try await Self.plays().deviceStorage(implicitScope: "read") }

        @Test("a copied access token: no enrolment of a new profile, no key or PIN change")
        func copiedToken() async throws {
            let plays = try await Self.plays()
            try await plays.copiedAccessToken(try plays.copiedAccessToken)
        }

        @Test("the server's tables, even with the PIN: no login")
        func serverTables() async throws { try await Self.plays().serverTables() }

        @Test("the device's storage copied during a session: its refresh token is refused once the killed app launched again")
        func copiedSession() async throws { try await Self.plays().copiedSessionAfterRelaunch() }

        @Test("recorded requests: a replayed login or key registration is refused (invalid_nonce)")
        func recordedRequests() async throws { try await Self.plays().recordedRequests() }

        @Test("storage and tables together: an offline PIN search finds the PIN (the fixture's row, as a leak shows it)")
        func storageAndTables() async throws {
            let plays = try await Self.plays()
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/oidc").path
            let python = try #require(ProcessInfo.processInfo.environment["IDENTITYFLOW_PYTHON"])
            let leak = FileManager.default.temporaryDirectory.appendingPathComponent("pin-row-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: leak) }
            #expect(await InteropProvider.run([python, fixture + "/manage.py", "leak_pin_record", plays.profile.profileId, leak.path]) == 0)
            let row = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: leak)) as? [String: Any])
            let salt = try #require((row["salt"] as? String).flatMap(Base64URL.decode))
            let publicKey = try #require((row["public_key"] as? String).flatMap(Base64URL.decode))
            try plays.storageAndTables(salt: salt, iterations: try #require(row["iterations"] as? Int), publicKey: publicKey)
        }
    }
}
