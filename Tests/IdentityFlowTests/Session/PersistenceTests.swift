import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

@Suite("Persistence and launch")
struct PersistenceTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-tests-\(UUID().uuidString)")
    }

    static func client(_ server: ReferenceIdentityService, _ directory: URL) throws -> UserClient {
        UserClient(configuration: .testing(), service: server, storage: try FileStorage(directory: directory))
    }

    /// Registers a profile with PIN 24680 through a first client over `directory`.
    static func registeredProfile(_ server: ReferenceIdentityService, _ directory: URL) async throws -> (UserClient, UserProfile) {
        let client = try Self.client(server, directory)
        try await client.start()
        let profile = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ])
        ).profile
        return (client, profile)
    }

    @Test("profiles, tokens and biometrics survive a restart over the same file store")
    func survivesRestart() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ReferenceIdentityService()
        let (first, profile) = try await Self.registeredProfile(server, directory)
        try await first.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))

        let second = try Self.client(server, directory)
        let report = try await second.start()
        #expect(report == LaunchReport(profiles: [profile], removedProfiles: [], reconciled: true))
        #expect(second.userProfiles == [profile])
        #expect(second.authenticatedUserProfile == nil)
        #expect(second.registeredAuthenticators(for: profile) == [.pin, .biometric])
        let login = ScriptedResponder([.biometric(.respond(.confirmed))])
        #expect(try await second.authenticateUser(profile, responder: login).profile == profile)
    }

    @Test("profiles the server no longer knows are removed at launch and reported")
    func reconcilesWithServer() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ReferenceIdentityService()
        let (_, profile) = try await Self.registeredProfile(server, directory)
        server.removeProfile(profile)

        let second = try Self.client(server, directory)
        let events = second.sessionEvents()
        let report = try await second.start()
        #expect(report.removedProfiles == [profile])
        #expect(second.userProfiles.isEmpty)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .profileRemovedAtLaunch(profile))
        let third = try Self.client(server, directory)
        #expect(try await third.start().profiles.isEmpty)
    }

    @Test("without the server at launch every stored profile is kept and the report says so")
    func unreachableServerAtLaunch() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ReferenceIdentityService()
        _ = try await Self.registeredProfile(server, directory)
        server.inject(.networkError, into: .profileExists)
        let second = try Self.client(server, directory)
        let report = try await second.start()
        #expect(report.reconciled == false)
        #expect(report.profiles.count == 1)
        await #expect { try await second.start() } throws: { ($0 as? IdentityFlowError)?.code == .actionAlreadyInProgress }
    }

    @Test(
        "an unclear answer about a stored profile at launch keeps every profile, says so, and logs why",
        arguments: [ServiceFault.malformedAnswer, .serverError])
    func unclearAnswerAtLaunch(_ fault: ServiceFault) async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ReferenceIdentityService()
        let (_, profile) = try await Self.registeredProfile(server, directory)
        server.inject(fault, into: .profileExists)
        let log = LogCapture()
        var configuration = ClientConfiguration.testing()
        configuration.logger = log.logger
        let second = UserClient(configuration: configuration, service: server, storage: try FileStorage(directory: directory))
        let report = try await second.start()
        #expect(report.reconciled == false)
        #expect(report.profiles == [profile])
        #expect(report.removedProfiles.isEmpty)
        #expect(log.all.contains { $0.level == .warning && $0.message.contains("kept unchecked") })
    }

    @Test("the file store writes atomically with owner-only permissions and leaves no temporary file")
    func fileStoreIsSafe() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try FileStorage(directory: directory)
        try storage.setData(Data("one".utf8), forKey: "a/key with spaces")
        try storage.setData(Data("two".utf8), forKey: "a/key with spaces")
        #expect(try storage.data(forKey: "a/key with spaces") == Data("two".utf8))
        #expect(try storage.keys() == ["a/key with spaces"])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1)
        let fileMode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(files[0]).path)[.posixPermissions] as? Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(directoryMode == 0o700)
        try storage.removeData(forKey: "a/key with spaces")
        try storage.removeData(forKey: "never there")
        #expect(try storage.keys().isEmpty)
    }

    @Test("a store that cannot be created fails with dataStorageNotAvailable")
    func unusableDirectory() throws {
        let file = Self.temporaryDirectory()
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect { try FileStorage(directory: file.appendingPathComponent("inside")) } throws: { ($0 as? IdentityFlowError)?.code == .dataStorageNotAvailable }
    }
}
