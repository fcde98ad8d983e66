import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// How a flow reaches an async-API responder.
@Suite("Flow host")
struct FlowHostTests {
    /// A sender that takes nothing: only the hand-over is under test.
    struct IgnoringSender: CreatePinChallengeSender {
        func respond(with pin: String, to challenge: CreatePinChallenge) -> Bool { false }
        func cancel(_ challenge: CreatePinChallenge) -> Bool { false }
    }

    @Test("the responder starts inside the step that emits the challenge, so an answer it gives at once is taken by that step")
    func responderStartsInsideTheStep() async {
        let received = Locked(false)
        let receivedBeforeReturn = Locked(false)
        let responder = ClosureResponder { _ in received.withLock { $0 = true } }
        let challenge = Challenge.createPin(CreatePinChallenge(userProfile: UserProfile(profileId: "p"), pinLength: 5, sender: IgnoringSender()))
        let waiter = FlowWaiter(responder: responder)
        let host = FlowHost<Void, Int>.responder(waiter)
        host.challenge(challenge)
        receivedBeforeReturn.withLock { $0 = received.current }
        host.finished(.success(1))
        await waiter.wait()
        #expect(receivedBeforeReturn.current)
        #expect((try? waiter.outcome(as: Int.self).get()) == 1)
    }

    @Test("only the first outcome counts, and an outcome of another type is an error, not a crash")
    func waiterKeepsTheFirstOutcome() async {
        let waiter = FlowWaiter(responder: ClosureResponder { _ in })
        waiter.finish(Result<Int, IdentityFlowError>.success(1))
        waiter.finish(Result<Int, IdentityFlowError>.success(2))
        await waiter.wait()
        #expect((try? waiter.outcome(as: Int.self).get()) == 1)
        guard case .failure(let error) = waiter.outcome(as: String.self) else {
            Issue.record("an outcome of another type was taken")
            return
        }
        #expect(error.code == .unknown)
    }
}
