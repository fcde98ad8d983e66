import ChildProcessSupport
import Foundation
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// The device's PIN counter (`docs/device-authenticators.md`): bound by the vault's integrity,
/// bounded by `maxPinFailures`, counted without loss by several clients and several processes on
/// one storage, reset by a biometric login, and a vault at the limit opens for nothing.
@Suite("Device vault: the PIN counter")
struct VaultCounterTests {
    typealias Setup = DeviceModeTests.Setup

    /// The profile as stored, changed by `change` and written back as an attacker (or a bug) would.
    static func tamper(_ setup: Setup, _ profile: UserProfile, rebinding: Bool, _ change: (inout DeviceVault) -> Void) throws {
        let key = "identityflow.profile." + profile.profileId
        var stored = try JSONDecoder().decode(StoredProfile.self, from: try #require(try setup.storage.data(forKey: key)))
        var vault = try #require(stored.vault)
        change(&vault)
        stored.vault = vault
        let deviceSecret = try #require(stored.deviceSecret)
        if rebinding { stored.vault?.bind(deviceSecret: deviceSecret, profile: profile) }
        try setup.storage.setData(try stored.jsonData(), forKey: key)
    }

    static func count(_ setup: Setup, _ profile: UserProfile) throws -> Int {
        try DeviceAuthenticators(dependencies: setup.client.dependencies).vaultCounters(for: profile).previousFailureCount
    }

    @Test(
        "a count outside 0...maxPinFailures, or one the vault does not bind, is damage (11041), never a login, and named at launch",
        arguments: [(-1, true), (-1_000, true), (4, true), (1, false), (0, false)])
    func countOutsideIntegrity(count: Int, rebinding: Bool) async throws {
        let setup = try await Setup(maxPinFailures: 3)
        let profile = try await setup.register()
        try await setup.client.logout()
        // A count of 0 written over a count of 2 without the binding: the reset a storage write would buy.
        try Self.tamper(setup, profile, rebinding: true) { $0.failureCount = 2 }
        try Self.tamper(setup, profile, rebinding: rebinding) { $0.failureCount = count }
        let (again, report) = try await setup.relaunched()
        #expect(report.damagedProfiles == [profile])
        let error = await #expect(throws: IdentityFlowError.self) { try await again.logIn(profile, [.pin(.respond("24680"))]) }
        #expect(error?.code == .sealedDataInvalid)
        #expect(again.client.authenticatedUserProfile == nil)
        #expect(again.client.userProfiles.contains(profile))
    }

    @Test("eight clients on one storage, one wrong PIN each at once: the count is eight")
    func severalClients() async throws {
        let setup = try await Setup(maxPinFailures: 10, storage: InMemoryStorage())
        let profile = try await setup.register()
        try await setup.client.logout()
        var clients: [Setup] = []
        // Every client loads the profile (count 0) before any guess.
        for _ in 0..<8 { clients.append(try await setup.relaunched(maxPinFailures: 10).0) }
        await withTaskGroup(of: Void.self) { group in
            for client in clients {
                group.addTask {
                    _ = try? await client.client.authenticateUser(
                        profile, responder: ScriptedResponder([.pin(.respond("11111")), .pin(.cancel, expecting: .invalidPin)]))
                }
            }
        }
        #expect(try Self.count(try await setup.relaunched(maxPinFailures: 10).0, profile) == 8)
    }

    @Test(
        "four processes on one FileStorage, two wrong PINs each: the count is eight",
        .enabled(if: CrashWriter.binary != nil, "identityflow-crash-writer was not built beside the tests"))
    func severalProcesses() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-counter-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let setup = try await Setup(maxPinFailures: 10, storage: try FileStorage(directory: directory))
        let profile = try await setup.register()
        try await setup.client.logout()
        var guessers: [GuessingProcess] = []
        for _ in 0..<4 { guessers.append(try GuessingProcess(directory: directory, profile: profile, pin: "11111", guesses: 2, maxPinFailures: 10)) }
        // Each has loaded the profile (count 0) before any of them guesses.
        for guesser in guessers { #expect(await guesser.waitForLine() == "ready") }
        for guesser in guessers { guesser.go() }
        for guesser in guessers { #expect(await guesser.waitForLine() == "done") }
        #expect(try Self.count(try await setup.relaunched(maxPinFailures: 10).0, profile) == 8)
    }

    @Test("a biometric login resets the count, as a right PIN does")
    func biometricLoginResets() async throws {
        let setup = try await Setup(maxPinFailures: 3)
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try await setup.client.logout()
        await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.client.authenticateUser(
                profile, authenticator: .pin,
                responder: ScriptedResponder([.pin(.respond("11111")), .pin(.respond("22222"), expecting: .invalidPin), .pin(.cancel)]))
        }
        #expect(try Self.count(setup, profile) == 2)
        try await setup.logIn(profile, [.biometric(.respond(.confirmed))])
        #expect(try Self.count(setup, profile) == 0)
    }

    @Test("a vault at the limit opens for nothing: neither the biometric key nor the resume item, and the profile goes")
    func vaultAtLimitOpensForNothing() async throws {
        let setup = try await Setup(policy: .resumeLastUser, maxPinFailures: 3)
        let profile = try await setup.register()
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        // The last attempt was counted and its verdict never stored (a kill).
        try Self.tamper(setup, profile, rebinding: true) { $0.failureCount = 3 }
        let (resumed, report) = try await setup.relaunched(policy: .resumeLastUser, maxPinFailures: 3)
        #expect(report.resumedProfile == nil)
        #expect(resumed.client.authenticatedUserProfile == nil)
        let error = await #expect(throws: IdentityFlowError.self) {
            _ = try await resumed.client.authenticateUser(
                profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        }
        #expect(error?.code == .userDeregistered)
        #expect(!resumed.client.userProfiles.contains(profile))
    }
}

/// An `identityflow-crash-writer guess` process: it starts a client, says `ready`, guesses on
/// `go`, and says `done`.
final class GuessingProcess: @unchecked Sendable {
    // Safe: `reader` is used by one waiting thread at a time (each wait awaits the last), and
    // `process` and `input` are only read after `init`.
    private let process = Process()
    private let input = Pipe()
    private let reader: PipeReader
    private var linesSeen = 0

    init(directory: URL, profile: UserProfile, pin: String, guesses: Int, maxPinFailures: Int) throws {
        let output = Pipe()
        process.executableURL = CrashWriter.binary
        process.arguments = ["guess", directory.path, profile.profileId, pin, String(guesses), String(maxPinFailures)]
        process.standardOutput = output
        process.standardInput = input
        reader = PipeReader(descriptor: output.fileHandleForReading.fileDescriptor)
        try process.run()
    }

    /// The next line the process prints, or `nil` when it ended first.
    func waitForLine() async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                while self.reader.lineCount <= self.linesSeen {
                    if !self.reader.readChunk(waitingUpTo: 100) && !self.process.isRunning && self.reader.reachedEnd { break }
                }
                let lines = String(decoding: self.reader.output, as: UTF8.self).split(separator: "\n").map(String.init)
                let line = lines.count > self.linesSeen ? lines[self.linesSeen] : nil
                self.linesSeen += 1
                continuation.resume(returning: line)
            }
        }
    }

    /// Lets the process guess.
    func go() { input.fileHandleForWriting.write(Data("go\n".utf8)) }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
