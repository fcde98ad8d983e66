import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A client's flow dependencies built by hand, with no ``UserClient``: a reference server, an
/// in-memory storage, a manual clock and a fixed wall-clock time. Performers built from it run
/// in its flow slot exactly as a client's would.
struct StandaloneFlows {
    let server: ReferenceIdentityService
    let storage: InMemoryStorage
    let clock: ManualClock
    let dependencies: FlowDependencies
    let transitions: TransitionCollector

    /// The wall-clock time the flows see.
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    init(server: ReferenceIdentityService = ReferenceIdentityService()) {
        SuiteCoverage.enabled
        let clock = ManualClock()
        let configuration = ClientConfiguration.testing(clock: clock, now: { StandaloneFlows.now })
        let log = TransitionLog()
        self.server = server
        self.storage = InMemoryStorage()
        self.clock = clock
        self.dependencies = FlowDependencies(configuration: configuration, transitionLog: log, service: server, storage: storage)
        self.transitions = TransitionCollector(log: log)
    }

    /// Reserves the flow slot, runs the performer `make` builds until its terminal outcome and
    /// returns it; every challenge goes to `answer`.
    func run<Flow: FlowPerformer, Start: Sendable, Success: Sendable>(
        answer: @escaping @Sendable (Challenge) -> Void,
        _ make: (FlowID, FlowHost<Start, Success>) -> Flow
    ) async throws -> Result<Success, IdentityFlowError> {
        let slot = try #require(dependencies.environment.reserve())
        return await withCheckedContinuation { (done: CheckedContinuation<Result<Success, IdentityFlowError>, Never>) in
            let host = FlowHost<Start, Success>.delegate(on: .immediate, challenge: answer, finished: { done.resume(returning: $0) })
            let flow = make(slot.id, host)
            let runner = flow.engine.runner
            _ = slot.run(cancel: { runner.post(.cancelRequested) })
            Task { await runner.start(flow, with: flow.startEvent) }
        }
    }

    /// A one-step custom registration of a new profile `profileId` with a provider this server
    /// offers (its status script answers 2000).
    func customRegistration(_ profileId: String) throws -> RegistrationMachine.Context {
        let provider = server.addCustomProvider(id: "custom", steps: .oneStep, script: Harness.statusScript)
        return RegistrationMachine.Context(
            profile: UserProfile(profileId: profileId), provider: provider, authorization: nil, pinPolicy: PinPolicy(),
            deviceSecret: try PinProof.newDeviceSecret())
    }

    /// Answers a custom registration with no data and a create-PIN challenge with `pin`.
    static func registering(pin: String) -> @Sendable (Challenge) -> Void {
        { challenge in
            switch challenge {
            case .customRegistration(let custom): custom.sender.respond(with: nil, to: custom)
            case .createPin(let create): create.sender.respond(with: pin, to: create)
            default: _ = challenge.cancel()
            }
        }
    }
}
