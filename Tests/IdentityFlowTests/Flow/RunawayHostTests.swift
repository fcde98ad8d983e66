import Foundation
import Testing
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A host that answers every challenge inline, forever (a buggy responder answering a refused PIN
/// again at once), costs CPU but never a thread: past a bound the flow's step goes on in a new
/// task, so with twice as many such flows as this machine has cores, cancels still get through.
@Suite("Runaway hosts")
struct RunawayHostTests {
    enum Ending: String, CaseIterable, Sendable { case cancelCurrentFlow, taskCancellation }

    /// Counts the create-PIN challenges it answered, all with a PIN the policy refuses.
    final class Runaway: Sendable {
        let answered = Locked(0)
        private let busy = Locked<CheckedContinuation<Void, Never>?>(nil)

        /// Answers inline, without suspending: the refused PIN comes back at once.
        func answer(_ challenge: Challenge) {
            switch challenge {
            case .customRegistration(let custom): custom.sender.respond(with: "data", to: custom)
            case .createPin(let create):
                let count = answered.withLock { count in
                    count += 1
                    return count
                }
                if count == 500 { busy.withLock { $0.take() }?.resume() }
                create.sender.respond(with: "12345", to: create)
            default: challenge.cancel()
            }
        }

        /// Returns once 500 refused PINs went round: the flow is running away.
        func runningAway() async {
            await withCheckedContinuation { continuation in
                let already = answered.withLock { $0 >= 500 }
                if already { continuation.resume() } else { busy.withLock { $0 = continuation } }
            }
        }
    }

    @Test("four flows whose hosts answer a refused PIN inline forever all end with 9006", .timeLimit(.minutes(1)), arguments: Ending.allCases)
    func fourRunawayFlows(ending: Ending) async throws {
        let server = ReferenceIdentityService()
        let provider = server.addCustomProvider(id: "one", steps: .oneStep) { _, _ in .status(2000) }
        var clients: [UserClient] = []
        for _ in 0..<4 {
            let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
            try await client.start()
            clients.append(client)
        }
        let hosts = clients.map { _ in Runaway() }
        let flows = zip(clients, hosts).map { client, host in
            Task { () -> IdentityFlowError? in
                do throws(IdentityFlowError) {
                    _ = try await client.registerUser(.provider(provider), answering: { host.answer($0) })
                    return nil
                } catch {
                    return error
                }
            }
        }
        for host in hosts { await host.runningAway() }
        switch ending {
        case .cancelCurrentFlow: for client in clients { #expect(client.cancelCurrentFlow()) }
        case .taskCancellation: for flow in flows { flow.cancel() }
        }
        for flow in flows {
            #expect(await flow.value?.code == .actionCancelled)
        }
        #expect(server.enrolledProfiles.isEmpty)
    }
}

private extension Optional {
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
