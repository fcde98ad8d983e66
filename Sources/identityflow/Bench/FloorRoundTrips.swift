import Statechart

/// A hand-written challenge: the flow waits on `answer` until the host resumes it.
final class FloorChallenge: Sendable {
    let answer: CheckedContinuation<Int, Never>
    init(_ answer: CheckedContinuation<Int, Never>) { self.answer = answer }
    func respond(_ value: Int) { answer.resume(returning: value) }
}

/// Hands challenges from a flow to a host task through a lock-protected slot: it holds either a
/// challenge the host has not taken yet or the host's continuation while it waits for one.
final class FloorChallengeSlot: Sendable {
    private enum Content: Sendable {
        case empty
        case challenge(FloorChallenge)
        case waitingHost(CheckedContinuation<FloorChallenge?, Never>)
        case closed
    }

    private let content = Locked(Content.empty)

    /// Hands a challenge to the host, waking it if it waits.
    func put(_ challenge: FloorChallenge) {
        let host: CheckedContinuation<FloorChallenge?, Never>? = content.withLock { content in
            if case .waitingHost(let host) = content {
                content = .empty
                return host
            }
            content = .challenge(challenge)
            return nil
        }
        host?.resume(returning: challenge)
    }

    /// The next challenge, or `nil` once the flow closed the slot.
    func next() async -> FloorChallenge? {
        await withCheckedContinuation { host in
            let ready: FloorChallenge?? = content.withLock { content in
                switch content {
                case .challenge(let challenge): content = .empty; return .some(challenge)
                case .closed: return .some(nil)
                case .empty, .waitingHost: content = .waitingHost(host); return nil
                }
            }
            if let ready { host.resume(returning: ready) }
        }
    }

    /// Ends the host's loop.
    func close() {
        let host: CheckedContinuation<FloorChallenge?, Never>? = content.withLock { content in
            defer { content = .closed }
            if case .waitingHost(let host) = content { return host }
            return nil
        }
        host?.resume(returning: nil)
    }
}

/// The flow side of both hand-written round trips: an actor that emits a challenge, waits for
/// the answer and moves on.
actor FloorFlow {
    private var state = 0

    /// Round trips through a lock-protected slot.
    func run(rounds: Int, slot: FloorChallengeSlot) async {
        for _ in 0..<rounds {
            let answer = await withCheckedContinuation { slot.put(FloorChallenge($0)) }
            state &+= answer
        }
        slot.close()
    }

    /// Round trips through an `AsyncStream`.
    func run(rounds: Int, stream: AsyncStream<FloorChallenge>.Continuation) async {
        for _ in 0..<rounds {
            let answer = await withCheckedContinuation { stream.yield(FloorChallenge($0)) }
            state &+= answer
        }
        stream.finish()
    }
}
