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
        })

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
        for nominal in [1, 100, 1_000] {
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
