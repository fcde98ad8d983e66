@_spi(Integrator) import IdentityFlow
import Statechart

/// A clock that moves only when a test says so, for challenge timeouts and server latency
/// without real waiting.
///
/// ```swift
/// let clock = ManualClock()
/// configuration.challengeTimeout = .seconds(30)
/// configuration.clock = clock
/// ...
/// await clock.waitForSleepers(1)      // the timeout is armed
/// clock.advance(by: .seconds(30))     // and fires
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time advanced since it was created.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was created.
        public let offset: Duration

        /// Creates an instant.
        /// - Parameter offset: Time since the clock was created.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper: Sendable {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Timeline: Sendable {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled: Set<Int> = []
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var startWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let timeline = Locked(Timeline())

    /// Creates a clock at offset zero.
    public init() {}

    /// The current instant.
    public var now: Instant { timeline.withLock { $0.now } }
    /// The smallest step: none.
    public var minimumResolution: Duration { .zero }
    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { timeline.withLock { $0.sleepers.count } }
    /// How many sleeps have started on the clock so far, whether they still sleep, woke or were
    /// cancelled: it never goes down, so ``waitForSleepsStarted(_:)`` cannot miss one.
    public var sleepsStarted: Int { timeline.withLock { $0.nextID } }

    /// Sleeps until the clock is advanced to `deadline`.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let (id, started) = timeline.withLock { timeline in
            timeline.nextID += 1
            let count = timeline.nextID
            let started = timeline.startWaiters.filter { $0.count <= count }.map(\.continuation)
            timeline.startWaiters.removeAll { $0.count <= count }
            return (count, started)
        }
        for waiter in started { waiter.resume() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (fireNow, cancelNow, waiters) = timeline.withLock { timeline -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
                    if timeline.cancelled.remove(id) != nil { return (false, true, []) }
                    if deadline <= timeline.now { return (true, false, []) }
                    timeline.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, false, Self.readyWaiters(&timeline))
                }
                if cancelNow { continuation.resume(throwing: CancellationError()) }
                if fireNow { continuation.resume() }
                for waiter in waiters { waiter.resume() }
            }
        } onCancel: {
            let sleeper = timeline.withLock { timeline in
                guard let sleeper = timeline.sleepers.removeValue(forKey: id) else {
                    timeline.cancelled.insert(id)
                    return Sleeper?.none
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has come.
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        let due = timeline.withLock { timeline in
            timeline.now = timeline.now.advanced(by: duration)
            let now = timeline.now
            let due = timeline.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { timeline.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits until at least `count` tasks sleep on the clock (a handoff, not a timed wait).
    /// - Parameter count: How many sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = timeline.withLock { timeline in
                if timeline.sleepers.count >= count { return true }
                timeline.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Waits until at least `count` sleeps have started on the clock, counting those that ended or
    /// were cancelled since (a handoff, not a timed wait). Use it where the sleeping task may be
    /// cancelled before you look: ``waitForSleepers(_:)`` would then wait forever.
    /// - Parameter count: How many started sleeps to wait for (``sleepsStarted`` + 1 for the next).
    public func waitForSleepsStarted(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = timeline.withLock { timeline in
                if timeline.nextID >= count { return true }
                timeline.startWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func readyWaiters(_ timeline: inout Timeline) -> [CheckedContinuation<Void, Never>] {
        let count = timeline.sleepers.count
        let ready = timeline.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        timeline.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
