import Foundation
import Statechart

/// How a challenge ended, as its ticket learns it.
enum ChallengeOutcome<Answer: Sendable>: Sendable {
    /// The host answered.
    case answered(Answer)
    /// The host cancelled through the sender, released the challenge, or let it time out.
    case abandoned(ChallengeAbandonment)
}

/// Called when a challenge object goes away; the engine uses it to notice dropped challenges.
protocol ChallengeReleaseObserver: AnyObject, Sendable {
    func challengeReleased()
}

/// The single answer slot shared by one challenge, its sender and its flow: the whole way from an
/// answer to the machine.
///
/// A sender settles the ticket; the ticket turns the outcome into the machine's event (an answer
/// through the flow's `answered`, anything else into `challengeAbandoned`) and posts it to the
/// runner. The first settlement wins; later ones change nothing, return `false` and are logged.
/// The flow invalidates the ticket when it moves on or ends, which makes every later answer stale.
final class ChallengeTicket<Machine: StateMachine, Answer: Sendable>: ChallengeReleaseObserver where Machine.Event: ChallengeEvents {
    let flowID: FlowID
    let challengeName: String
    let logger: IdentityFlowLogger
    private let runner: MachineRunner<Machine>
    /// The flow's event for an answer.
    private let answered: @Sendable (Answer) -> Machine.Event
    /// The event for a timeout, when the flow's own deadline (a request's expiry) caused it.
    private let expired: Machine.Event?
    private let slot: Locked<Slot>

    private struct Slot: Sendable {
        var isOpen = true
        var ended: String?
        var timer: Task<Void, Never>?
        /// Answers that leave the challenge open (intermediate redirects), and what to tell the flow.
        var ignores: (@Sendable (Answer) -> Bool)?
        var noticeIgnored: (@Sendable () -> Void)?
    }

    /// Makes answers for which `ignores` is true leave the ticket open: they are taken (the
    /// sender returns `true`), logged, reported through `notice`, and settle nothing.
    func ignoreAnswers(where ignores: @escaping @Sendable (Answer) -> Bool, notice: @escaping @Sendable () -> Void) {
        slot.withLock { slot in
            slot.ignores = ignores
            slot.noticeIgnored = notice
        }
    }

    /// A ticket whose answer becomes `answered(answer)` on `runner`.
    /// - Parameters:
    ///   - expired: Sent instead of `challengeAbandoned(.timedOut)` when the ticket times out.
    init(
        runner: MachineRunner<Machine>, challengeName: String, logger: IdentityFlowLogger,
        answered: @escaping @Sendable (Answer) -> Machine.Event, expired: Machine.Event? = nil
    ) {
        self.flowID = runner.flowID
        self.runner = runner
        self.challengeName = challengeName
        self.logger = logger
        self.answered = answered
        self.expired = expired
        self.slot = Locked(Slot())
    }

    /// Settles the ticket once. Returns `false`, and logs why, when it was settled or invalidated before.
    @discardableResult
    func settle(_ outcome: ChallengeOutcome<Answer>) -> Bool {
        if case .answered(let answer) = outcome {
            let (ignores, notice) = slot.withLock { slot in slot.isOpen ? (slot.ignores, slot.noticeIgnored) : (nil, nil) }
            if let ignores, ignores(answer) {
                logger.log(.info, "An intermediate answer to \(challengeName) was ignored; the challenge stays open.", flow: flowID)
                notice?()
                return true
            }
        }
        let (wasOpen, timer, earlier) = slot.withLock { slot in
            defer {
                if slot.ended == nil { slot.ended = Self.ending(of: outcome) }
                slot.isOpen = false
                slot.timer = nil
            }
            return (slot.isOpen, slot.timer, slot.ended)
        }
        guard wasOpen else {
            if case .abandoned(.released) = outcome { return false }
            logger.log(.warning, "\(Self.action(of: outcome)) to \(challengeName) ignored: it was \(earlier ?? "closed") before.", flow: flowID)
            return false
        }
        timer?.cancel()
        runner.post(event(for: outcome))
        return true
    }

    /// The machine's event for an outcome.
    private func event(for outcome: ChallengeOutcome<Answer>) -> Machine.Event {
        switch outcome {
        case .answered(let answer): answered(answer)
        case .abandoned(.timedOut) where expired != nil: expired!
        case .abandoned(let how): .challengeAbandoned(how)
        }
    }

    /// Makes the ticket stale: the flow moved on or ended.
    func invalidate(reason: String) {
        let timer = slot.withLock { slot in
            defer {
                if slot.isOpen { slot.ended = reason }
                slot.isOpen = false
                slot.timer = nil
            }
            return slot.timer
        }
        timer?.cancel()
    }

    /// Settles the ticket with `.timedOut` after `timeout` on `clock`, unless it settles first.
    func startTimer(_ timeout: Duration, clock: any Clock<Duration>) {
        let task = Task { [weak self] in
            do { try await clock.sleep(for: timeout) } catch { return }
            self?.settle(.abandoned(.timedOut))
        }
        let stillOpen = slot.withLock { slot in
            guard slot.isOpen else { return false }
            slot.timer = task
            return true
        }
        if !stillOpen { task.cancel() }
    }

    func challengeReleased() { settle(.abandoned(.released)) }

    private static func ending(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "answered"
        case .abandoned(.cancelled): "cancelled"
        case .abandoned(.released): "released unanswered"
        case .abandoned(.timedOut): "timed out"
        }
    }

    private static func action(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "An answer"
        case .abandoned(.cancelled): "A cancel"
        case .abandoned(.released): "A release"
        case .abandoned(.timedOut): "A timeout"
        }
    }
}
