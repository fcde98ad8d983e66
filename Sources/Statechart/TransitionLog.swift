/// Publishes every transition of the runners that share it, to any number of subscribers.
///
/// ```swift
/// let log = TransitionLog()
/// Task { for await record in log.records() { print(record) } }
/// ```
///
/// Runners skip building records while nobody listens, so an unobserved log costs nothing.
public final class TransitionLog: Sendable {
    private let broadcast = Broadcast<TransitionRecord>()

    /// Creates a log with no subscribers.
    public init() {}

    /// A stream of every transition recorded from now on. It ends when the caller stops iterating.
    public func records() -> AsyncStream<TransitionRecord> { broadcast.stream() }

    /// Calls `observer` synchronously, on the runner, for every transition recorded from now on.
    ///
    /// - Parameter observer: Must be quick and must not block: it runs inside the transition.
    /// - Returns: A token; the observer is removed when it is cancelled or released.
    public func observe(_ observer: @escaping @Sendable (TransitionRecord) -> Void) -> TransitionObservation {
        TransitionObservation(onCancel: broadcast.observe(observer))
    }

    /// Whether anyone listens; runners build no record otherwise.
    public var hasSubscribers: Bool { broadcast.hasSubscribers }

    /// Publishes a record to every subscriber.
    /// - Parameter record: The transition taken.
    public func publish(_ record: TransitionRecord) { broadcast.publish(record) }
}

/// Keeps a ``TransitionLog`` observer registered until cancelled or released.
public final class TransitionObservation: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = Locked(onCancel) }

    /// Removes the observer. Calling it again does nothing.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
