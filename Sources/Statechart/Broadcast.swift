/// Hands every published value to any number of `AsyncStream` subscribers and synchronous observers.
package final class Broadcast<Element: Sendable>: Sendable {
    private struct Subscribers: Sendable {
        var nextID = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var observers: [Int: @Sendable (Element) -> Void] = [:]
    }

    private let subscribers = Locked(Subscribers())
    /// Mirrors `!streams.isEmpty || !observers.isEmpty`, written under the lock, read without it.
    private let listened = AtomicFlag(false)

    package init() {}

    /// A stream of every value published from now on; it ends when the caller stops iterating.
    package func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.streams[subscribers.nextID] = continuation
            listened.set(true)
            return subscribers.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.remove { $0.streams.removeValue(forKey: id) != nil }
        }
        return stream
    }

    /// Registers a synchronous observer; returns a function that removes it.
    package func observe(_ observer: @escaping @Sendable (Element) -> Void) -> @Sendable () -> Void {
        let id = subscribers.withLock { subscribers in
            subscribers.nextID += 1
            subscribers.observers[subscribers.nextID] = observer
            listened.set(true)
            return subscribers.nextID
        }
        return { [weak self] in self?.remove { $0.observers.removeValue(forKey: id) != nil } }
    }

    private func remove(_ body: (inout Subscribers) -> Bool) {
        subscribers.withLock { subscribers in
            _ = body(&subscribers)
            listened.set(!subscribers.streams.isEmpty || !subscribers.observers.isEmpty)
        }
    }

    /// Whether anyone listens. Takes no lock: runners ask on every transition.
    package var hasSubscribers: Bool { listened.isSet }

    /// Hands a value to every subscriber.
    package func publish(_ value: Element) {
        let (streams, observers) = subscribers.withLock { ($0.streams.values, $0.observers.values) }
        for observer in observers { observer(value) }
        for stream in streams { stream.yield(value) }
    }
}
