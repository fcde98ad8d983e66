import Foundation
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// A storage that notes every write and removal, in order, as `set <key>` / `remove <key>`.
private final class OperationLogStorage: SecureStorage {
    private let inner = InMemoryStorage()
    private let log = Locked<[String]>([])

    /// The writes and removals since the last ``clear()``.
    var operations: [String] { log.current }
    func clear() { log.withLock { $0 = [] } }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try inner.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        log.withLock { $0.append("set \(key)") }
        try inner.setData(data, forKey: key)
    }
    func removeData(forKey key: String) throws(IdentityFlowError) {
        log.withLock { $0.append("remove \(key)") }
        try inner.removeData(forKey: key)
    }
    func keys() throws(IdentityFlowError) -> [String] { try inner.keys() }
}

@Suite("The resume record: one record for the next launch, whatever the number of profiles")
struct ResumeRecordTests {
    private static func client(
        _ server: ReferenceIdentityService, _ storage: any SecureStorage, _ authenticators: AuthenticatorPlacement = .server
    ) async throws -> (UserClient, LaunchReport) {
        var configuration = ClientConfiguration.testing()
        configuration.launchPolicy = .resumeLastUser
        configuration.authenticators = authenticators
        let client = UserClient(configuration: configuration, service: server, storage: storage)
        return (client, try await client.start())
    }

    private static func register(_ client: UserClient, _ server: ReferenceIdentityService) async throws -> UserProfile {
        try await client.registerUser(
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        ).profile
    }

    @Test(
        "a login among five profiles writes the one resume record and touches no other profile's item", arguments: [AuthenticatorPlacement.server, .device()])
    func loginWritesOneRecord(authenticators: AuthenticatorPlacement) async throws {
        let server = ReferenceIdentityService()
        let storage = OperationLogStorage()
        let (client, _) = try await Self.client(server, storage, authenticators)
        var profiles: [UserProfile] = []
        for _ in 0..<5 {
            profiles.append(try await Self.register(client, server))
            try await client.logout()
        }
        storage.clear()
        _ = try await client.authenticateUser(profiles[2], responder: ScriptedResponder([.pin(.respond("24680"))]))
        let others = profiles.filter { $0 != profiles[2] }.map(\.profileId)
        #expect(storage.operations.filter { $0.contains("resume") } == ["set identityflow.resume"])
        #expect(storage.operations.allSatisfy { operation in !others.contains { operation.hasSuffix("." + $0) } })
    }

    @Test("the last of two logins resumes; deregistering the other profile leaves its record")
    func lastLoginResumes() async throws {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()
        let (client, _) = try await Self.client(server, storage)
        let first = try await Self.register(client, server)
        let second = try await Self.register(client, server)
        // Not logged in: removed here, the server not told (10003).
        await #expect(throws: IdentityFlowError.self) { try await client.deregister(first) }
        let (again, report) = try await Self.client(server, storage)
        #expect(report.resumedProfile == second)
        #expect(again.authenticatedUserProfile == second)
    }

    @Test("a resume item of the one-item-per-profile layout becomes the record at launch and resumes its profile")
    func legacyItemMigrates() async throws {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()
        let (client, _) = try await Self.client(server, storage)
        let profile = try await Self.register(client, server)
        let other = try await Self.register(client, server)
        try await client.logout()
        // What the earlier layout left: an item per profile kept, the record not yet written.
        try storage.removeData(forKey: "identityflow.resume")
        try storage.setData(Data([0]), forKey: "identityflow.resume." + profile.profileId)
        let (again, report) = try await Self.client(server, storage)
        #expect(report.resumedProfile == profile)
        #expect(report.profiles == [profile, other])
        #expect(again.authenticatedUserProfile == profile)
        #expect(try storage.keys().filter { $0.hasPrefix("identityflow.resume") } == ["identityflow.resume"])
    }

    @Test("a record naming no stored profile resumes nothing and is removed")
    func recordOfUnknownProfile() async throws {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()
        try ProfileStore(storage: storage, logger: .disabled).saveResumeRecord(Redacted([0]), for: UserProfile(profileId: "gone"))
        let (_, report) = try await Self.client(server, storage)
        #expect(report.resumedProfile == nil)
        #expect(try storage.data(forKey: "identityflow.resume") == nil)
    }

    @Test("FileStorage: removing a key that is not stored syncs nothing; removing a stored one syncs the directory once")
    func removingNothingSyncsNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-tests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let syncs = Locked(0)
        let storage = try FileStorage(directory: directory, syncDirectory: { _ in syncs.withLock { $0 += 1 } })
        try storage.removeData(forKey: "absent")
        #expect(syncs.current == 0)
        try storage.setData(Data([1]), forKey: "present")
        try storage.removeData(forKey: "present")
        #expect(syncs.current == 2)
        #expect(try storage.keys().isEmpty)
    }
}
