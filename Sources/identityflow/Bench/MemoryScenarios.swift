import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting
import Statechart

/// (e): resident bytes per registration suspended on its browser challenge, with many flows
/// waiting at once (each on its own client, created before the first reading), and the floor: a
/// task suspended on a continuation.
enum MemoryScenarios {
    /// Bytes per suspended flow, or `nil` when the resident size cannot be read.
    /// - Parameter delegate: Start the flows through the delegate API (no task waits per flow)
    ///   instead of the async API (one task per flow waits for the result).
    static func suspendedFlow(_ settings: BenchSettings, delegate: Bool = false) async throws -> Stats? {
        guard ResidentMemory.bytes() != nil else { return nil }
        let count = settings.suspendedFlows
        return try await Harness.measure(settings) {
            let server = ReferenceIdentityService()
            var clients: [UserClient] = []
            clients.reserveCapacity(count)
            for _ in 0..<count { clients.append(try await BenchClient.make(pinKeyIterations: settings.pinKeyIterations, server: server).client) }
            let holder = ChallengeHolder(expected: count)
            ResidentMemory.trim()
            let before = ResidentMemory.bytes() ?? 0
            var during = 0
            await withTaskGroup(of: Void.self) { group in
                for client in clients {
                    if delegate {
                        client.registerUser(.provider(ReferenceIdentityService.browserProvider), delegate: holder)
                    } else {
                        group.addTask { _ = try? await client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: holder) }
                    }
                }
                await holder.allArrived()
                ResidentMemory.trim()
                during = ResidentMemory.bytes() ?? 0
                holder.cancelAll()
            }
            await holder.allFinished()
            return Double(during - before) / Double(count)
        }
    }

    /// Bytes per started, idle `UserClient` (what each flow of ``suspendedFlow(_:)`` stands on).
    static func idleClient(_ settings: BenchSettings) async throws -> Stats? {
        guard ResidentMemory.bytes() != nil else { return nil }
        let count = settings.suspendedFlows
        return try await Harness.measure(settings) {
            let server = ReferenceIdentityService()
            ResidentMemory.trim()
            let before = ResidentMemory.bytes() ?? 0
            var clients: [UserClient] = []
            clients.reserveCapacity(count)
            for _ in 0..<count { clients.append(try await BenchClient.make(pinKeyIterations: settings.pinKeyIterations, server: server).client) }
            ResidentMemory.trim()
            let during = ResidentMemory.bytes() ?? 0
            blackHole(clients)
            return Double(during - before) / Double(count)
        }
    }

    /// Bytes per task suspended on a continuation, in a task group like the flows above.
    static func floorSuspendedTask(_ settings: BenchSettings) async -> Stats? {
        guard ResidentMemory.bytes() != nil else { return nil }
        let count = settings.suspendedFlows
        return await Harness.measure(settings) {
            let parked = Locked<[CheckedContinuation<Void, Never>]>([])
            let arrived = ChallengeHolder(expected: count)
            ResidentMemory.trim()
            let before = ResidentMemory.bytes() ?? 0
            var during = 0
            parked.withLock { $0.reserveCapacity(count) }
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<count {
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            parked.withLock { $0.append(continuation) }
                            arrived.arrive()
                        }
                    }
                }
                await arrived.allArrived()
                ResidentMemory.trim()
                during = ResidentMemory.bytes() ?? 0
                for continuation in parked.withLock({ $0 }) { continuation.resume() }
            }
            return Double(during - before) / Double(count)
        }
    }
}

/// Keeps every challenge it receives, unanswered, and tells when the expected number arrived.
final class ChallengeHolder: ChallengeResponder {
    fileprivate struct State: Sendable {
        var arrived = 0
        var finished = 0
        var held: [Challenge] = []
        var waiter: CheckedContinuation<Void, Never>?
        var finishWaiter: CheckedContinuation<Void, Never>?
    }

    private let expected: Int
    fileprivate let state = Locked(State())

    init(expected: Int) { self.expected = expected }

    func receive(_ challenge: Challenge) async {
        state.withLock { $0.held.append(challenge) }
        arrive()
    }

    /// Counts one arrival.
    func arrive() {
        let waiter = state.withLock { state in
            state.arrived += 1
            guard state.arrived == expected else { return nil as CheckedContinuation<Void, Never>? }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once `expected` arrivals were counted.
    func allArrived() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.arrived >= expected { return true }
                state.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Returns once `expected` flows reported their end through the delegate API (at once when
    /// they ran through the async API, whose tasks the caller's group awaits).
    func allFinished() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.finished == 0 || state.finished >= expected { return true }
                state.finishWaiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func finish() {
        let waiter = state.withLock { state in
            state.finished += 1
            guard state.finished == expected else { return nil as CheckedContinuation<Void, Never>? }
            defer { state.finishWaiter = nil }
            return state.finishWaiter
        }
        waiter?.resume()
    }

    /// Cancels every held challenge, ending its flow.
    func cancelAll() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for challenge in held { challenge.cancel() }
    }
}

extension ChallengeHolder: RegistrationDelegate {
    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {}

    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        state.withLock { $0.held.append(.browserRegistration(challenge)) }
        arrive()
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) { finish() }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) { finish() }
}
