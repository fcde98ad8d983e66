import ChildProcessSupport
import Foundation
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// A PIN change rotates the vault (issue 36): a new vault key, a new device secret, a new
/// biometric key, no resume item; what opened the vault before (its PIN wrap with the old PIN,
/// its biometric key, its resume key) opens nothing sealed after; a kill at any step of the
/// rotation leaves a vault that the current PIN opens.
@Suite("Device vault: rotation at a PIN change")
struct VaultRotationTests {
    typealias Setup = DeviceModeTests.Setup

    static func stored(_ storage: [String: Data], _ profile: UserProfile) throws -> StoredProfile {
        try JSONDecoder().decode(StoredProfile.self, from: try #require(storage["identityflow.profile." + profile.profileId]))
    }

    static func copy(_ setup: Setup) throws -> [String: Data] {
        Dictionary(uniqueKeysWithValues: try setup.storage.keys().map { ($0, try #require(try setup.storage.data(forKey: $0))) })
    }

    @Test("after a PIN change, an old copy's PIN wrap (with the old PIN), biometric key and resume key open nothing sealed after it")
    func pinChangeRotates() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let before = try Self.copy(setup)
        _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        let after = try Self.copy(setup)
        let old = try Self.stored(before, profile), new = try Self.stored(after, profile)
        let oldVault = try #require(old.vault), newVault = try #require(new.vault)
        #expect(old.deviceSecret != new.deviceSecret)
        // The old copy and its PIN (found offline) give the old vault key: it opens nothing new.
        let oldSecret = try #require(old.deviceSecret), newSecret = try #require(new.deviceSecret)
        let oldKey = try #require(try oldVault.key(pin: Redacted("24680"), pinSecret: oldSecret, profile: profile))
        #expect(throws: IdentityFlowError.self) { _ = try newVault.tokens(key: oldKey, profile: profile) }
        #expect(try newVault.key(pin: Redacted("24680"), pinSecret: newSecret, profile: profile) == nil)
        // The old biometric and resume keys open no wrap of the new vault.
        let oldBiometric = Redacted(Array(try #require(before["identityflow.biometric-key." + profile.profileId])))
        let oldRecordData = try #require(before["identityflow.resume"])
        let oldRecord = try #require(ResumeRecord(decoding: oldRecordData))
        #expect(oldRecord.profileId == profile.profileId)
        let oldResume = Redacted(oldRecord.key)
        #expect(newVault.key(unwrapping: newVault.biometricWrap, with: oldBiometric, purpose: "biometric", profile: profile) == nil)
        #expect(newVault.key(unwrapping: newVault.resumeWrap, with: oldResume, purpose: "resume", profile: profile) == nil)
        // The new PIN, the new biometric key and the new resume item open it.
        let (resumed, report) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(report.resumedProfile == profile)
        try await resumed.client.logout()
        try await resumed.logIn(profile, [.biometric(.respond(.confirmed))])
        try await resumed.client.logout()
        _ = try await resumed.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("80426"))]))
        _ = try await resumed.client.authenticatedRequest(DeviceModeTests.api)
    }

    @Test("an old profile item written back after a PIN change is damage (11041), never a login with the old PIN, and named at launch")
    func oldProfileItemWrittenBack() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        let before = try Self.copy(setup)
        _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        try await setup.client.logout()
        // Only the profile item goes back: its own device secret, vault and binding, all whole.
        let key = "identityflow.profile." + profile.profileId
        try setup.storage.setData(try #require(before[key]), forKey: key)
        let (again, report) = try await setup.relaunched()
        #expect(report.damagedProfiles == [profile])
        for pin in ["24680", "80426"] {
            let error = await #expect(throws: IdentityFlowError.self) { try await again.logIn(profile, [.pin(.respond(pin))]) }
            #expect(error?.code == .sealedDataInvalid, "\(pin)")
        }
        #expect(again.client.authenticatedUserProfile == nil)
        #expect(again.client.userProfiles.contains(profile))
    }

    @Test(
        "killed at random moments while changing the PIN over and over, the vault always opens with the PIN of its last write",
        .enabled(if: CrashWriter.binary != nil, "identityflow-crash-writer was not built beside the tests"), .timeLimit(.minutes(10)))
    func killedDuringRotation() async throws {
        let accepted = ClientConfiguration.testing().acceptedPinKeyIterations
        var checked = 0
        for run in 1...30 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-rotation-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (lines, killed) = try await CrashWriter.run(
                directory: directory, arguments: ["change-pin", directory.path], killAfterLines: Int.random(in: 2...12))
            #expect(killed, "run \(run): the writer ended by itself: \(lines.suffix(3))")
            // "pin P" after each completed change; the first names the registration's PIN.
            let pins = lines.compactMap { $0.hasPrefix("pin ") ? String($0.dropFirst(4)) : nil }
            guard let last = pins.last else { continue }
            let storage = try FileStorage(directory: directory)
            let key = try #require(try storage.keys().first { $0.hasPrefix("identityflow.profile.") })
            let stored = try JSONDecoder().decode(StoredProfile.self, from: try #require(try storage.data(forKey: key)))
            let vault = try #require(stored.vault)
            #expect(vault.damage(deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: accepted, maxPinFailures: 3) == nil)
            // Not older than the generation recorded after the last completed write.
            let record = try storage.data(forKey: "identityflow.vault-generation." + stored.profile.profileId)
            let recorded = record.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
            #expect((vault.generation ?? 0) >= (recorded ?? 0), "run \(run)")
            // The last completed change's PIN, or the one of a change the kill interrupted after its write.
            let deviceSecret = try #require(stored.deviceSecret)
            let opened = try ["24680", "80426"].compactMap { pin in
                try vault.key(pin: Redacted(pin), pinSecret: deviceSecret, profile: stored.profile).map { (pin, $0) }
            }
            #expect(opened.count == 1, "run \(run)")
            if let (pin, vaultKey) = opened.first {
                #expect(pin == last || lines.last == "changing", "run \(run): \(pin) opens, \(last) was the last PIN")
                #expect((try? vault.tokens(key: vaultKey, profile: stored.profile)) != nil, "run \(run): the tokens do not open")
            }
            checked += 1
        }
        #expect(checked > 0)
    }
}
