/// Publishes every transition of the runners that share it, to any number of subscribers.
///
/// ```swift
/// let log = TransitionLog()
/// Task { for await record in log.records() { print(record) } }
/// ```
///
/// Runners skip building records while nobody listens, so an unobserved log costs nothing.
public final class TransitionLog: Sendable {
    private struct Subscribers: Sendable {
        var nextID = 0
        var streams: [Int: AsyncStream<TransitionRecord>.Continuation] = [:]
        var observers: [Int: @Sendable (TransitionRecord) -> Void] = [:]
        var isEmpty: Bool { streams.isEmpty && observers.isEmpty }
    }

    private let subscribers = Locked(Subscribers())

    /// Creates a log with no subscribers.
    public init() {}

    /// A stream of every transition recorded from now on. It ends when the caller stops iterating.
    public func records() -> AsyncStream<TransitionRecord> {
        let (stream, continuation) = AsyncStream<TransitionRecord>.makeStream()
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.streams[subscribers.nextID] = continuation
            return subscribers.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `observer` synchronously, on the runner, for every transition recorded from now on.
    ///
    /// - Parameter observer: Must be quick and must not block: it runs inside the transition.
    /// - Returns: A token; the observer is removed when it is cancelled or released.
    public func observe(_ observer: @escaping @Sendable (TransitionRecord) -> Void) -> TransitionObservation {
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.observers[subscribers.nextID] = observer
            return subscribers.nextID
        }
        return TransitionObservation { [weak self] in
            self?.subscribers.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
    }

    /// Whether anyone listens; runners build no record otherwise.
    public var hasSubscribers: Bool { !subscribers.withLock { $0.isEmpty } }

    /// Publishes a record to every subscriber.
    /// - Parameter record: The transition taken.
    public func publish(_ record: TransitionRecord) {
        let (streams, observers) = subscribers.withLock { ($0.streams.values, $0.observers.values) }
        for observer in observers { observer(record) }
        for stream in streams { stream.yield(record) }
    }
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
