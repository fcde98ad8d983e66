import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// What one path shares between its fake server, its storage, its host and its checks: the
/// chooser, the manual clock, the client, and what happened so far.
final class PathControl: Sendable {
    struct Notes: Sendable {
        /// Whether choice points are live (set-up flows always take the expected behaviour).
        var armed = false
        /// The state the flow under test is in, from its transition records.
        var state = "idle"
        /// What the custom provider answers next.
        var customAnswer: CustomProviderAnswer = .status(2000, data: "ok")
        /// Whether the last PIN the host entered was the wrong one.
        var lastPinWrong = false
        /// Wrong PINs the server checked (its failure counter moved).
        var wrongPinsChecked = 0
        /// A clean-up call (after the flow failed) met a fault, so leftovers are allowed.
        var cleanupFaulted = false
        /// A storage removal failed, so a checkpoint may be left behind.
        var storageRemoveFailed = false
        /// A storage write failed, so a session end may not have been recorded.
        var storageWriteFailed = false
        /// The redirect handed to `handleRedirect` before a resume.
        var handedOver: URL?
        /// Problems found while the path ran.
        var violations: [String] = []
        /// Challenges held for answering after the flow ended.
        var held: [Challenge] = []
        /// Where the mobile authentication flow takes its request from.
        var mobileAuthSource: MobileAuthSource?
    }

    let chooser: Chooser
    /// The server's clock: injected latency sleeps on it.
    let clock = ManualClock()
    /// The client's clock: challenges time out on it when a mobile authentication request
    /// expires. Apart from ``clock``, so that those timers never count as a slow call's sleep.
    let deviceClock = ManualClock()
    let notes = Locked(Notes())
    /// How to answer each held challenge, once the flow has ended (each must return `false`).
    let heldAnswers = Locked<[@Sendable () -> Bool]>([])
    private let clientRef = Locked<UserClient?>(nil)
    private let helpers = Locked<[Task<Void, Never>]>([])

    init(chooser: Chooser) { self.chooser = chooser }

    var client: UserClient? { clientRef.current }
    func attach(_ client: UserClient) { clientRef.withLock { $0 = client } }

    var isArmed: Bool { notes.withLock { $0.armed } }

    /// Asks the chooser when armed; the expected behaviour (`options[0]`) otherwise.
    func choose(_ site: String, among options: [String]) -> String {
        isArmed ? chooser.choose(site, among: options) : options[0]
    }

    func violation(_ text: String) { notes.withLock { $0.violations.append(text) } }

    /// Runs `body` beside the flow; ``settle()`` waits for it.
    func helper(_ body: @escaping @Sendable () async -> Void) {
        let task = Task { await body() }
        helpers.withLock { $0.append(task) }
    }

    /// Waits for every helper task.
    func settle() async {
        while let task = helpers.withLock({ $0.popLast() }) { await task.value }
    }
}
