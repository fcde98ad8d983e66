import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// A PIN proof v1 profile, as a v1 client stored it (`Tests/Fixtures/v1-profile`), upgrades to v2
/// at its next PIN login (`docs/pin-proof.md`, "Migration from v1").
@Suite("PIN proof v1 to v2 migration")
struct PinMigrationTests {
    static let profile = UserProfile(profileId: "v1-profile")

    /// A copy of the stored v1 fixture, and a server that holds its v1 enrolment.
    static func v1Client() async throws -> (UserClient, ReferenceIdentityService, URL) {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/v1-profile/storage")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-v1-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: fixture, to: directory)
        let server = ReferenceIdentityService()
        try server.enrolLegacyPin("24680", for: profile)
        let client = UserClient(configuration: .testing(), service: server, storage: try FileStorage(directory: directory))
        let launch = try await client.start()
        #expect(launch.profiles == [profile])
        return (client, server, directory)
    }

    static func storedJSON(_ directory: URL) throws -> [String: Any] {
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".value") })
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(file))) as? [String: Any])
    }

    @Test("a PIN login of the stored v1 profile succeeds and upgrades it: v2 on the server, a device secret on the device, the v1 key gone")
    func upgradesAtLogin() async throws {
        let (client, server, directory) = try await Self.v1Client()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(server.pinProofVersion(of: Self.profile) == 1)
        #expect(client.registeredAuthenticators(for: Self.profile).contains(.biometric), "the v1 biometric registration loads")
        _ = try await client.authenticateUser(Self.profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("24680"))]))
        #expect(server.pinProofVersion(of: Self.profile) == 2)
        let stored = try Self.storedJSON(directory)
        #expect((stored["deviceSecret"] as? String).flatMap { Data(base64Encoded: $0) }?.count == 32, "written in base64")
        #expect(stored["biometricKey"] == nil, "the v1 key (the old verifier) is removed")
        #expect(!client.registeredAuthenticators(for: Self.profile).contains(.biometric), "biometrics must be registered again")
        // From now on it logs in with v2, and a v1 answer from the server would be a downgrade.
        _ = try await client.authenticateUser(Self.profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try server.enrolLegacyPin("24680", for: Self.profile)
        let downgrade = await Result { () async throws(IdentityFlowError) in
            try await client.authenticateUser(Self.profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        #expect(downgrade.failure?.code == .pinParametersRefused)
    }

    @Test("the v1 biometric login works until the upgrade, and a wrong v1 PIN is counted without upgrading")
    func v1BiometricAndWrongPin() async throws {
        let (client, server, directory) = try await Self.v1Client()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await client.authenticateUser(Self.profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        #expect(server.pinProofVersion(of: Self.profile) == 1)
        let wrong = await Result { () async throws(IdentityFlowError) in
            try await client.authenticateUser(Self.profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("13579")), .pin(.cancel)]))
        }
        #expect(wrong.failure?.code == .actionCancelled)
        #expect(server.pinProofVersion(of: Self.profile) == 1)
    }
}
