import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A started client over a fresh reference server, with a log capture and transition records.
struct Harness {
    let server: ReferenceIdentityService
    let client: UserClient
    let logs: LogCapture
    let storage: InMemoryStorage
    let transitions: TransitionCollector

    static func make(
        pinPolicy: PinPolicy = PinPolicy(),
        challengeTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        server: ReferenceIdentityService = ReferenceIdentityService(),
        executor: CallbackExecutor? = nil
    ) async throws -> Harness {
        SuiteCoverage.enabled
        let logs = LogCapture()
        var configuration = ClientConfiguration.testing(pinPolicy: pinPolicy, challengeTimeout: challengeTimeout, clock: clock, logger: logs.logger)
        if let executor { configuration.callbackExecutor = executor }
        let storage = InMemoryStorage()
        let client = UserClient(configuration: configuration, service: server, storage: storage)
        let transitions = TransitionCollector(log: client.transitionLog)
        try await client.start()
        return Harness(server: server, client: client, logs: logs, storage: storage, transitions: transitions)
    }

    /// A one-step custom provider whose finish step answers by data: `status:NNNN` or `expire`, else 2000.
    func customProvider(_ steps: CustomRegistrationSteps = .oneStep, id: String = "custom") -> IdentityProvider {
        server.addCustomProvider(id: id, steps: steps, script: Harness.statusScript)
    }

    static let statusScript: CustomProviderScript = { _, data in
        guard let data else { return .status(2000, data: "ok") }
        if data == "expire" { return .expired }
        if data.hasPrefix("status:"), let status = Int(data.dropFirst("status:".count)) { return .status(status, data: "answer-\(status)") }
        return .status(2000, data: "welcome")
    }

    /// Plays the browser for the reference server.
    func browserLogin(as user: String = "alice") -> ScriptStep {
        .browserRegistration(.respondWith { [server] challenge in try server.logIn(at: challenge.url, as: user) })
    }
}

/// Collects a client's transition records synchronously as they happen.
final class TransitionCollector: Sendable {
    private let records = Locked<[TransitionRecord]>([])
    private let observation: TransitionObservation

    init(log: TransitionLog) {
        let records = self.records
        observation = log.observe { record in records.withLock { $0.append(record) } }
    }

    var all: [TransitionRecord] { records.withLock { $0 } }
}
