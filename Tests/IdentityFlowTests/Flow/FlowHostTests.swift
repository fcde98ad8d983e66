import Testing
import Statechart
@testable import IdentityFlow

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
}
