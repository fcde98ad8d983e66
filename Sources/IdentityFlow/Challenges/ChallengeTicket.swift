import Foundation
import Statechart

/// How a challenge ended, as the flow learns it.
enum ChallengeOutcome<Answer: Sendable>: Sendable {
    /// The host answered.
    case answered(Answer)
    /// The host cancelled through the sender.
    case cancelled
    /// Every reference to the challenge was released before it was answered.
    case released
    /// The per-challenge timeout passed.
    case timedOut
}

/// Called when a challenge object goes away; the engine uses it to notice dropped challenges.
protocol ChallengeReleaseObserver: AnyObject, Sendable {
    func challengeReleased()
}

/// The single answer slot shared by one challenge, its sender and its flow.
///
/// The first settlement wins; later ones change nothing, return `false` and are logged. The flow
/// invalidates the ticket when it moves on or ends, which makes every later answer stale.
final class ChallengeTicket<Answer: Sendable>: ChallengeReleaseObserver {
    let flowID: FlowID
    let challengeName: String
    let logger: IdentityFlowLogger
    private let slot: Locked<Slot>

    private struct Slot: Sendable {
        var deliver: (@Sendable (ChallengeOutcome<Answer>) -> Void)?
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

    init(flowID: FlowID, challengeName: String, logger: IdentityFlowLogger, deliver: @escaping @Sendable (ChallengeOutcome<Answer>) -> Void) {
        self.flowID = flowID
        self.challengeName = challengeName
        self.logger = logger
        self.slot = Locked(Slot(deliver: deliver))
    }

    /// Settles the ticket once. Returns `false`, and logs why, when it was settled or invalidated before.
    @discardableResult
    func settle(_ outcome: ChallengeOutcome<Answer>) -> Bool {
        if case .answered(let answer) = outcome {
            let (ignores, notice) = slot.withLock { slot in slot.deliver == nil ? (nil, nil) : (slot.ignores, slot.noticeIgnored) }
            if let ignores, ignores(answer) {
                logger.log(.info, "An intermediate answer to \(challengeName) was ignored; the challenge stays open.", flow: flowID)
                notice?()
                return true
            }
        }
        let (deliver, timer, earlier) = slot.withLock { slot in
            defer {
                if slot.ended == nil { slot.ended = Self.ending(of: outcome) }
                slot.deliver = nil
                slot.timer = nil
            }
            return (slot.deliver, slot.timer, slot.ended)
        }
        guard let deliver else {
            if case .released = outcome { return false }
            logger.log(.warning, "\(Self.action(of: outcome)) to \(challengeName) ignored: it was \(earlier ?? "closed") before.", flow: flowID)
            return false
        }
        timer?.cancel()
        deliver(outcome)
        return true
    }

    /// Makes the ticket stale: the flow moved on or ended.
    func invalidate(reason: String) {
        let timer = slot.withLock { slot in
            defer {
                if slot.deliver != nil { slot.ended = reason }
                slot.deliver = nil
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
            self?.settle(.timedOut)
        }
        let stillOpen = slot.withLock { slot in
            guard slot.deliver != nil else { return false }
            slot.timer = task
            return true
        }
        if !stillOpen { task.cancel() }
    }

    func challengeReleased() { settle(.released) }

    private static func ending(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "answered"
        case .cancelled: "cancelled"
        case .released: "released unanswered"
        case .timedOut: "timed out"
        }
    }

    private static func action(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "An answer"
        case .cancelled: "A cancel"
        case .released: "A release"
        case .timedOut: "A timeout"
        }
    }
}
