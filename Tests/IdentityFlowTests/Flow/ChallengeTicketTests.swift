import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

/// The ticket on its own: one settlement wins, and a closed ticket delivers nothing.
@Suite("Challenge ticket")
struct ChallengeTicketTests {
    /// A ticket whose route records what it delivers.
    static func ticket(recordingInto deliveries: Locked<[String]>) -> ChallengeTicket<String> {
        ChallengeTicket<String>(flowID: FlowID(rawValue: 1), challengeName: "TestChallenge", logger: IdentityFlowLogger { _ in }) { outcome in
            deliveries.withLock { list in
                switch outcome {
                case .answered(let answer): list.append(answer)
                case .abandoned(let how): list.append("\(how)")
                }
            }
        }
    }

    @Test("the first outcome is delivered; a second answer, a cancel and a release are refused and deliver nothing")
    func firstWins() {
        let deliveries = Locked<[String]>([])
        let ticket = Self.ticket(recordingInto: deliveries)
        #expect(ticket.settle(.answered("first")))
        #expect(!ticket.settle(.answered("second")))
        #expect(!ticket.settle(.abandoned(.cancelled)))
        #expect(!ticket.settle(.abandoned(.released)))
        #expect(deliveries.withLock { $0 } == ["first"])
    }

    @Test("an invalidated ticket delivers nothing and refuses every later outcome")
    func invalidated() {
        let deliveries = Locked<[String]>([])
        let ticket = Self.ticket(recordingInto: deliveries)
        ticket.invalidate(reason: "the flow ended")
        #expect(!ticket.settle(.answered("late")))
        #expect(!ticket.settle(.abandoned(.cancelled)))
        #expect(!ticket.settle(.abandoned(.timedOut)))
        #expect(deliveries.withLock { $0 }.isEmpty)
    }

    @Test(
        "an outcome becomes the flow's event: an answer through `answered`, a timeout through `expired` when the flow has one, anything else `challengeAbandoned`"
    )
    func outcomeToEvent() {
        typealias Event = MobileAuthMachine.Event
        let answered: (Bool) -> Event = Event.confirmationAnswered
        func name(_ event: Event) -> String { MobileAuthMachine.name(of: event) }
        #expect(name(ChallengeOutcome.answered(true).event(answered: answered, expired: .requestExpired)) == "confirmationAnswered")
        #expect(name(ChallengeOutcome<Bool>.abandoned(.timedOut).event(answered: answered, expired: .requestExpired)) == "requestExpired")
        #expect(name(ChallengeOutcome<Bool>.abandoned(.timedOut).event(answered: answered, expired: nil)) == "challengeAbandoned")
        #expect(name(ChallengeOutcome<Bool>.abandoned(.cancelled).event(answered: answered, expired: .requestExpired)) == "challengeAbandoned")
        if case .challengeAbandoned(let how) = ChallengeOutcome<Bool>.abandoned(.released).event(answered: answered, expired: nil) {
            #expect(how == .released)
        } else {
            Issue.record("a release did not become challengeAbandoned")
        }
    }
}
