import Foundation
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// Removing biometrics and the end of a resumable session rotate the vault without the PIN
/// (issue 36): a new vault key, wrapped for the PIN slot (ECDH with the public key the PIN key
/// derives), so an old copy's biometric item or resume item opens nothing sealed after.
@Suite("Device vault: rotation without the PIN")
struct VaultRotationWithoutPinTests {
    typealias Setup = DeviceModeTests.Setup

    static func item(_ copy: [String: Data], _ prefix: String, _ profile: UserProfile) throws -> Redacted<[UInt8]> {
        Redacted(Array(try #require(copy[prefix + profile.profileId])))
    }

    /// The resume key in a copy's resume record, which must name `profile`.
    static func resumeKey(_ copy: [String: Data], _ profile: UserProfile) throws -> Redacted<[UInt8]> {
        let data = try #require(copy["identityflow.resume"])
        let record = try #require(ResumeRecord(decoding: data))
        #expect(record.profileId == profile.profileId)
        return Redacted(record.key)
    }

    @Test("removing biometrics: an old copy's biometric item and resume item open nothing sealed after; the session, resume and PIN go on")
    func biometricRemovalRotates() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let before = try VaultRotationTests.copy(setup)
        try setup.client.deregisterBiometricAuthenticator(for: profile)
        let after = try VaultRotationTests.copy(setup)
        let oldVault = try #require(try VaultRotationTests.stored(before, profile).vault)
        let newVault = try #require(try VaultRotationTests.stored(after, profile).vault)
        let oldBiometric = try Self.item(before, "identityflow.biometric-key.", profile)
        let oldKey = try #require(oldVault.key(unwrapping: oldVault.biometricWrap, with: oldBiometric, purpose: "biometric", profile: profile))
        #expect(throws: IdentityFlowError.self) { _ = try newVault.tokens(key: oldKey, profile: profile) }
        #expect(newVault.biometricWrap == nil)
        #expect(after["identityflow.biometric-key." + profile.profileId] == nil)
        let oldResume = try Self.resumeKey(before, profile)
        #expect(newVault.key(unwrapping: newVault.resumeWrap, with: oldResume, purpose: "resume", profile: profile) == nil)
        // The session reseals refreshed tokens under the new key; the new resume item resumes it.
        setup.date.advance(by: 120)
        _ = try await setup.client.authenticatedRequest(DeviceModeTests.api)
        let (resumed, report) = try await setup.relaunched(policy: .resumeLastUser)
        #expect(report.resumedProfile == profile)
        #expect(report.damagedProfiles.isEmpty)
        try await resumed.client.logout()
        _ = try await resumed.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("24680"))]))
        _ = try await resumed.client.authenticatedRequest(DeviceModeTests.api)
    }

    @Test("the end of a resumable session: an old copy's resume item and biometric item open nothing sealed after; the PIN and biometrics log in")
    func sessionEndRotates() async throws {
        let setup = try await Setup(policy: .resumeLastUser)
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let before = try VaultRotationTests.copy(setup)
        try await setup.client.logout()
        let after = try VaultRotationTests.copy(setup)
        let oldVault = try #require(try VaultRotationTests.stored(before, profile).vault)
        let newVault = try #require(try VaultRotationTests.stored(after, profile).vault)
        let oldResume = try Self.resumeKey(before, profile)
        let oldKey = try #require(oldVault.key(unwrapping: oldVault.resumeWrap, with: oldResume, purpose: "resume", profile: profile))
        #expect(throws: IdentityFlowError.self) { _ = try newVault.tokens(key: oldKey, profile: profile) }
        #expect(newVault.resumeWrap == nil)
        let oldBiometric = try Self.item(before, "identityflow.biometric-key.", profile)
        #expect(newVault.key(unwrapping: newVault.biometricWrap, with: oldBiometric, purpose: "biometric", profile: profile) == nil)
        // The old profile item written back is damage; the current one opens with biometrics and the PIN.
        let (again, report) = try await setup.relaunched()
        #expect(report.damagedProfiles.isEmpty)
        try await again.logIn(profile, [.biometric(.respond(.confirmed))])
        try await again.client.logout()
        _ = try await again.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("24680"))]))
        _ = try await again.client.authenticatedRequest(DeviceModeTests.api)
        let key = "identityflow.profile." + profile.profileId
        try setup.storage.setData(try #require(before[key]), forKey: key)
        let (restored, restoredReport) = try await setup.relaunched()
        #expect(restoredReport.damagedProfiles == [profile])
        let attempts: [(Authenticator, ScriptStep)] = [(.biometric, .biometric(.respond(.confirmed))), (.pin, .pin(.respond("24680")))]
        for (authenticator, step) in attempts {
            let error = await #expect(throws: IdentityFlowError.self) {
                _ = try await restored.client.authenticateUser(profile, authenticator: authenticator, responder: ScriptedResponder([step]))
            }
            #expect(error?.code == .sealedDataInvalid)
        }
    }

    @Test("a vault written before the PIN slot stays readable, stores its slot at the next PIN login, and rotates from then on")
    func vaultWithoutSlot() async throws {
        let setup = try await Setup()
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try await setup.client.logout()
        // The vault as written before: no slot key, the binding without it ("binding-v2").
        try VaultCounterTests.tamper(setup, profile, rebinding: true) { $0.pinSlotKey = nil }
        #expect(try VaultRotationTests.stored(VaultRotationTests.copy(setup), profile).vault?.pinSlotKey == nil)
        let (again, report) = try await setup.relaunched()
        #expect(report.damagedProfiles.isEmpty)
        _ = try await again.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let before = try VaultRotationTests.copy(setup)
        #expect(try VaultRotationTests.stored(before, profile).vault?.pinSlotKey != nil)
        try again.client.deregisterBiometricAuthenticator(for: profile)
        let oldVault = try #require(try VaultRotationTests.stored(before, profile).vault)
        let newVault = try #require(try VaultRotationTests.stored(VaultRotationTests.copy(setup), profile).vault)
        let oldBiometric = try Self.item(before, "identityflow.biometric-key.", profile)
        let oldKey = try #require(oldVault.key(unwrapping: oldVault.biometricWrap, with: oldBiometric, purpose: "biometric", profile: profile))
        #expect(throws: IdentityFlowError.self) { _ = try newVault.tokens(key: oldKey, profile: profile) }
        try await again.client.logout()
        _ = try await again.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("24680"))]))
    }

    @Test(
        "killed at random moments while removing biometrics and ending resumable sessions over and over, the vault always opens with the PIN",
        .enabled(if: CrashWriter.binary != nil, "identityflow-crash-writer was not built beside the tests"), .timeLimit(.minutes(10)))
    func killedDuringRotation() async throws {
        let accepted = ClientConfiguration.testing().acceptedPinKeyIterations
        var checked = 0, slotted = 0
        for run in 1...30 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-rotation-without-pin-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (lines, killed) = try await CrashWriter.run(
                directory: directory, arguments: ["rotate-without-pin", directory.path], killAfterLines: Int.random(in: 2...12))
            #expect(killed, "run \(run): the writer ended by itself: \(lines.suffix(3))")
            guard lines.contains("pin 24680") else { continue }
            let storage = try FileStorage(directory: directory)
            let key = try #require(try storage.keys().first { $0.hasPrefix("identityflow.profile.") })
            let stored = try JSONDecoder().decode(StoredProfile.self, from: try #require(try storage.data(forKey: key)))
            let vault = try #require(stored.vault)
            #expect(vault.damage(deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: accepted, maxPinFailures: 3) == nil)
            let record = try storage.data(forKey: "identityflow.vault-generation." + stored.profile.profileId)
            let recorded = record.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
            #expect((vault.generation ?? 0) >= (recorded ?? 0), "run \(run)")
            let deviceSecret = try #require(stored.deviceSecret)
            let vaultKey = try #require(try vault.key(pin: Redacted("24680"), pinSecret: deviceSecret, profile: stored.profile), "run \(run)")
            #expect((try? vault.tokens(key: vaultKey, profile: stored.profile)) != nil, "run \(run): the tokens do not open")
            if vault.pinSlotWrap != nil { slotted += 1 }
            checked += 1
        }
        #expect(checked > 0)
        #expect(slotted > 0, "no run was killed after a rotation without the PIN")
    }
}
