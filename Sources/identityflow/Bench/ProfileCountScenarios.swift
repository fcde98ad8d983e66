import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting
import Statechart

/// (n) What a PIN login and a registration cost with 1, 100 and 1,000 stored profiles on
/// `FileStorage` (on disk, so every `fsync` counts), under both launch policies: neither may grow
/// with the number of profiles (issue 38: `resumeLastUser` once cleared a resume item per profile
/// on every session start).
enum ProfileCountScenarios {
    /// The row ids, for `--only n`.
    static let rowIDs: Set<String> = Set(
        [LaunchPolicy.requireAuthentication, .resumeLastUser].flatMap { policy in
            [1, 100, 1_000].flatMap { count in ["login", "registration"].map { id($0, count, policy) } }
        }
    ).union(["n-launch-server", "n-launch-device"])

    /// Answers a PIN challenge with the registered PIN.
    private struct PinHost: ChallengeResponder {
        func receive(_ challenge: Challenge) async {
            guard case .pin(let pin) = challenge else {
                challenge.cancel()
                return
            }
            pin.sender.respond(with: "24680", to: pin)
        }
    }

    private static func id(_ flow: String, _ count: Int, _ policy: LaunchPolicy) -> String {
        "n-\(flow)-\(count)\(policy == .resumeLastUser ? "-resume" : "")"
    }

    /// The rows `only` lets through. The stored profiles are real registrations (the reference
    /// server knows them, so `start()` keeps them), registered in memory and copied to the store.
    static func rows(_ settings: BenchSettings, only: Set<String>?) async throws -> [BenchRow] {
        guard only.map({ !$0.isDisjoint(with: rowIDs) }) ?? true else { return [] }
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent(".build/bench-profiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ReferenceIdentityService()
        var seedingConfiguration = ClientConfiguration.testing()
        seedingConfiguration.pinKeyIterations = settings.pinKeyIterations
        let memory = InMemoryStorage()
        let seeding = UserClient(configuration: seedingConfiguration, service: server, storage: memory)
        try await seeding.start()
        let storage = try FileStorage(directory: directory)
        var stored = 0
        var rows: [BenchRow] = []
        // Only the counts a requested row needs: seeding 1,000 profiles writes 1,000 files with fsync.
        let wanted = [1, 100, 1_000].filter { nominal in
            only.map { only in
                ["login", "registration"].contains { flow in
                    [LaunchPolicy.requireAuthentication, .resumeLastUser].contains { only.contains(id(flow, nominal, $0)) }
                }
            }
                ?? true
        }
        for nominal in wanted {
            let count = settings.count(nominal)
            while stored < count {
                guard (try? await seeding.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: BenchHost(server: server))) != nil
                else { throw BenchFailure(description: "a profile for the profile-count rows could not be registered") }
                stored += 1
            }
            for key in try memory.keys() where key.hasPrefix("identityflow.profile.") {
                if try storage.data(forKey: key) == nil, let data = try memory.data(forKey: key) { try storage.setData(data, forKey: key) }
            }
            for policy in [LaunchPolicy.requireAuthentication, .resumeLastUser] {
                rows += try await measure(settings, only: only, nominal: nominal, count: count, policy: policy, server: server, storage: storage)
            }
        }
        return rows
    }

    /// `start()` per stored profile with 1,000 profiles on `FileStorage`, in server and device
    /// mode: a launch may be linear in the profiles, and a device-mode profile (its vault) should
    /// cost no more than twice a server-mode one.
    static func launchRows(_ settings: BenchSettings, only: Set<String>?) async throws -> [BenchRow] {
        var rows: [BenchRow] = []
        for (id, placement) in [("n-launch-server", AuthenticatorPlacement.server), ("n-launch-device", .device())] where only?.contains(id) ?? true {
            let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                .appendingPathComponent(".build/bench-launch-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = ReferenceIdentityService()
            var configuration = ClientConfiguration.testing()
            configuration.pinKeyIterations = settings.pinKeyIterations
            configuration.acceptedPinKeyIterations = 1...max(settings.pinKeyIterations, 1_000_000)
            configuration.authenticators = placement
            let memory = InMemoryStorage()
            let seeding = UserClient(configuration: configuration, service: server, storage: memory)
            try await seeding.start()
            let count = settings.count(1_000)
            for _ in 0..<count {
                guard (try? await seeding.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: BenchHost(server: server))) != nil
                else { throw BenchFailure(description: "a profile for the launch rows could not be registered") }
            }
            let storage = try FileStorage(directory: directory)
            for key in try memory.keys() where key.hasPrefix("identityflow.profile.") {
                if let data = try memory.data(forKey: key) { try storage.setData(data, forKey: key) }
            }
            let stats = try await Harness.measure(settings) {
                let client = UserClient(configuration: configuration, service: server, storage: storage)
                let start = ContinuousClock.now
                let report = try await client.start()
                let elapsed = start.duration(to: .now)
                guard report.profiles.count == count, report.damagedProfiles.isEmpty else {
                    throw BenchFailure(description: "the launch rows' store holds \(report.profiles.count) usable profiles, not \(count)")
                }
                return Harness.nanoseconds(elapsed, per: count) / 1000
            }
            let mode = placement == .server ? "server" : "device"
            rows.append(BenchRow(id, "start() per stored profile, FileStorage, \(count) profiles, \(mode) mode", unit: "µs", stats))
        }
        if let server = rows.first(where: { $0.id == "n-launch-server" }), let index = rows.firstIndex(where: { $0.id == "n-launch-device" }) {
            rows[index] = rows[index].against(server, atMost: 2)
        }
        return rows
    }

    private static func measure(
        _ settings: BenchSettings, only: Set<String>?, nominal: Int, count: Int, policy: LaunchPolicy, server: ReferenceIdentityService, storage: FileStorage
    ) async throws -> [BenchRow] {
        var configuration = ClientConfiguration.testing()
        configuration.pinKeyIterations = settings.pinKeyIterations
        configuration.launchPolicy = policy
        let client = UserClient(configuration: configuration, service: server, storage: storage)
        let report = try await client.start()
        guard report.profiles.count == count, let profile = report.profiles.min(by: { $0.profileId < $1.profileId }) else {
            throw BenchFailure(description: "the profile-count rows' store holds \(report.profiles.count) profiles, not \(count)")
        }
        if report.resumedProfile != nil { try await client.logout() }
        let policyName = policy == .resumeLastUser ? "resumeLastUser" : "requireAuthentication"
        var rows: [BenchRow] = []
        let loginID = id("login", nominal, policy)
        if only?.contains(loginID) ?? true {
            let logins = settings.count(20)
            let stats = try await Harness.measure(settings) {
                var total = Duration.zero
                for _ in 0..<logins {
                    let start = ContinuousClock.now
                    _ = try await client.authenticateUser(profile, authenticator: .pin, responder: PinHost())
                    total += start.duration(to: .now)
                    try await client.logout()
                }
                return Harness.nanoseconds(total, per: logins) / 1000
            }
            rows.append(BenchRow(loginID, "PIN login, FileStorage, \(count) profiles, \(policyName)", unit: "µs", stats))
        }
        let registrationID = id("registration", nominal, policy)
        if only?.contains(registrationID) ?? true {
            let registrations = settings.count(10)
            let stats = try await Harness.measure(settings) {
                var total = Duration.zero
                for _ in 0..<registrations {
                    let start = ContinuousClock.now
                    let registered = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: BenchHost(server: server))
                    total += start.duration(to: .now)
                    try await client.deregister(registered.profile)
                }
                return Harness.nanoseconds(total, per: registrations) / 1000
            }
            rows.append(BenchRow(registrationID, "registration, FileStorage, \(count) profiles, \(policyName)", unit: "µs", stats))
        }
        return rows
    }
}
