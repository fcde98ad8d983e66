import Foundation
import Statechart

/// How a challenge ended, as its ticket learns it.
enum ChallengeOutcome<Answer: Sendable>: Sendable {
    /// The host answered.
    case answered(Answer)
    /// The host cancelled through the sender, released the challenge, or let it time out.
    case abandoned(ChallengeAbandonment)
}

extension ChallengeOutcome {
    /// The machine's event for this outcome: an answer through the flow's `answered`, a timeout
    /// the flow's own deadline caused as `expired` when the flow has such an event, anything else
    /// as `challengeAbandoned`.
    func event<Event: ChallengeEvents>(answered: (Answer) -> Event, expired: Event?) -> Event {
        switch self {
        case .answered(let answer): answered(answer)
        case .abandoned(.timedOut) where expired != nil: expired!
        case .abandoned(let how): .challengeAbandoned(how)
        }
    }
}

/// Called when a challenge object goes away; the engine uses it to notice dropped challenges.
/// Challenges store it beside their sender rather than cast the sender to it
/// ([why](../../../docs/performance-notes.md#the-tickets-answer-type)).
protocol ChallengeReleaseObserver: AnyObject, Sendable {
    func challengeReleased()
    /// Ends the challenge because the delegate method it needs is not implemented (a protocol
    /// default took it); logs a warning that names `method`.
    func challengeUnimplemented(by method: String)
    /// Cancels the challenge with a reason that goes into the flow's error.
    func challengeCancelled(because reason: String) -> Bool
}

/// The single answer slot shared by one challenge, its sender and its flow: the whole way from an
/// answer to the machine.
///
/// A sender settles the ticket; the ticket hands the outcome to `deliver`, which the flow's engine
/// made when it opened the ticket (``FlowEngine/ticket(_:deadline:expired:answered:)``): it turns
/// the outcome into the machine's event (``ChallengeOutcome/event(answered:expired:)``) and posts it
/// to the runner. The first settlement wins; later ones change nothing, return `false` and are
/// logged. The flow invalidates the ticket when it moves on or ends, which makes every later answer
/// stale.
///
/// Generic over the answer only: each sender conformance fixes `Answer`, so a host's call through
/// a sender protocol runs specialised code
/// ([why](../../../docs/performance-notes.md#the-tickets-answer-type)).
final class ChallengeTicket<Answer: Sendable>: ChallengeReleaseObserver {
    let flowID: FlowID
    let challengeName: String
    let logger: IdentityFlowLogger
    /// Turns an outcome into the machine's event and posts it to the runner. Kept for the
    /// ticket's life: a challenge the host holds after its flow ended keeps the runner (its
    /// machine final, its flow already dropped) until the host lets go. Releasing the route on
    /// close instead (an optional closure in the lock) cost 0.1 µs on every answer (bench c).
    private let deliver: @Sendable (ChallengeOutcome<Answer>) -> Void
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

    /// A ticket whose outcome goes to `deliver`, once.
    init(flowID: FlowID, challengeName: String, logger: IdentityFlowLogger, deliver: @escaping @Sendable (ChallengeOutcome<Answer>) -> Void) {
        self.flowID = flowID
        self.challengeName = challengeName
        self.logger = logger
        self.deliver = deliver
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
        deliver(outcome)
        return true
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

    func challengeUnimplemented(by method: String) {
        logger.log(.warning, "\(challengeName) reached \(method), which the delegate does not implement: the flow fails with 9006.", flow: flowID)
        settle(.abandoned(.unimplemented(method)))
    }

    func challengeCancelled(because reason: String) -> Bool { settle(.abandoned(.cancelledBecause(reason))) }

    private static func ending(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "answered"
        case .abandoned(.cancelled), .abandoned(.cancelledBecause): "cancelled"
        case .abandoned(.released): "released unanswered"
        case .abandoned(.timedOut): "timed out"
        case .abandoned(.unimplemented): "cancelled by a delegate default"
        }
    }

    private static func action(of outcome: ChallengeOutcome<Answer>) -> String {
        switch outcome {
        case .answered: "An answer"
        case .abandoned(.cancelled), .abandoned(.cancelledBecause): "A cancel"
        case .abandoned(.released): "A release"
        case .abandoned(.timedOut): "A timeout"
        case .abandoned(.unimplemented): "A delegate default's cancel"
        }
    }
}
