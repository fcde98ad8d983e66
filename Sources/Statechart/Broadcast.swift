/// Hands every published value to any number of `AsyncStream` subscribers and synchronous observers.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscribers: Sendable {
        var nextID = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var observers: [Int: @Sendable (Element) -> Void] = [:]
    }

    private let subscribers = Locked(Subscribers())

    package init() {}

    /// A stream of every value published from now on; it ends when the caller stops iterating.
    package func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
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

    /// Registers a synchronous observer; returns a function that removes it.
    package func observe(_ observer: @escaping @Sendable (Element) -> Void) -> @Sendable () -> Void {
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.observers[subscribers.nextID] = observer
            return subscribers.nextID
        }
        return { [weak self] in self?.subscribers.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    /// Whether anyone listens.
    package var hasSubscribers: Bool { subscribers.withLock { !$0.streams.isEmpty || !$0.observers.isEmpty } }

    /// Hands a value to every subscriber.
    package func publish(_ value: Element) {
        let (streams, observers) = subscribers.withLock { ($0.streams.values, $0.observers.values) }
        for observer in observers { observer(value) }
        for stream in streams { stream.yield(value) }
    }
}
