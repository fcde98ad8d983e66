import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// (c): a challenge round trip through the engine, and the two hand-written floors.
///
/// The engine's round trip is a create-PIN challenge answered with a PIN the policy refuses: the
/// host answers through the sender, the machine checks the PIN, moves on (back to `awaitingPin`,
/// guard `policyViolated`) and emits the next challenge. No server call is involved.
enum RoundTripScenarios {
    /// µs per engine round trip, through the delegate API with `.immediate` callbacks or through
    /// the async API's responder.
    static func engine(_ settings: BenchSettings, delegate: Bool) async throws -> Stats {
        let rounds = settings.count(20_000)
        return try await Harness.measure(settings) {
            let bench = try await BenchClient.make(pinKeyIterations: settings.pinKeyIterations)
            let host = BenchHost(server: bench.server, rejectedPins: rounds)
            let registered: Bool
            if delegate {
                registered = await host.register(on: bench.client)
            } else {
                registered = (try? await bench.client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: host)) != nil
            }
            guard registered, let elapsed = host.pinRoundTrips else { throw BenchFailure(description: "the round-trip registration failed") }
            return Harness.nanoseconds(elapsed, per: rounds) / 1000
        }
    }

    /// µs per round trip: a lock-protected slot hands the challenge to a host task, which resumes
    /// the flow actor's continuation.
    static func floorLockAndContinuation(_ settings: BenchSettings) async -> Stats {
        let rounds = settings.count(50_000)
        return await Harness.measure(settings) {
            let slot = FloorChallengeSlot()
            let flow = FloorFlow()
            let host = Task { while let challenge = await slot.next() { challenge.respond(1) } }
            let perRound = await Harness.time(operations: rounds) { await flow.run(rounds: rounds, slot: slot) }
            await host.value
            return perRound / 1000
        }
    }

    /// µs per round trip: an `AsyncStream` hands the challenge to a host task, which resumes the
    /// flow actor's continuation.
    static func floorAsyncStream(_ settings: BenchSettings) async -> Stats {
        let rounds = settings.count(50_000)
        return await Harness.measure(settings) {
            let (stream, continuation) = AsyncStream<FloorChallenge>.makeStream()
            let flow = FloorFlow()
            let host = Task { for await challenge in stream { challenge.respond(1) } }
            let perRound = await Harness.time(operations: rounds) { await flow.run(rounds: rounds, stream: continuation) }
            await host.value
            return perRound / 1000
        }
    }
}
