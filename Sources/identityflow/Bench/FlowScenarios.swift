import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// (d) and (f): whole registrations (browser identity provider, then create PIN) through
/// `UserClient` against an in-process reference server with no latency.
enum FlowScenarios {
    /// The API a registration goes through.
    enum API: String, Sendable {
        case async = "async API"
        case delegateImmediate = "delegate API, .immediate callbacks"
        case delegateMainActor = "delegate API, .mainActor callbacks"
    }

    /// µs per registration, `streams` independent streams at once (each its own server and
    /// client, registering one user after another), measured as wall time over all flows.
    static func registrations(_ settings: BenchSettings, api: API, streams: Int = 1, flowsPerStream base: Int = 2_000, pinKeyIterations: Int? = nil)
        async throws -> Stats
    {
        let flows = settings.count(base)
        let iterations = pinKeyIterations ?? settings.pinKeyIterations
        return try await Harness.measure(settings) {
            var clients: [BenchClient] = []
            for _ in 0..<streams {
                clients.append(try await BenchClient.make(executor: api == .delegateMainActor ? .mainActor : .immediate, pinKeyIterations: iterations))
            }
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for bench in clients {
                    group.addTask { try await stream(bench, flows: flows, api: api) }
                }
                try await group.waitForAll()
            }
            return Harness.nanoseconds(start.duration(to: .now), per: flows * streams) / 1000
        }
    }

    private static func stream(_ bench: BenchClient, flows: Int, api: API) async throws {
        let responder = BenchHost(server: bench.server)
        for _ in 0..<flows {
            let registered: Bool
            switch api {
            case .async:
                registered = (try? await bench.client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: responder)) != nil
            case .delegateImmediate, .delegateMainActor:
                registered = await BenchHost(server: bench.server).register(on: bench.client)
            }
            guard registered else { throw BenchFailure(description: "a registration failed") }
        }
    }
}
