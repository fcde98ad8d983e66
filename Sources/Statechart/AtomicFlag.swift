#if canImport(Synchronization) && !canImport(Darwin)
import Synchronization
#endif

/// A Boolean that hot paths read without taking a lock: whether anyone observes transitions.
///
/// Writers change it rarely (a subscriber comes or goes, coverage recording is switched); the
/// runner reads it on every event. Reads use acquiring and writes releasing ordering, so a change
/// that happens before an event (through any synchronisation, such as awaiting the runner) is seen
/// by that event, exactly as with a lock. Where `Synchronization.Atomic` cannot be used without an
/// availability check (Apple platforms before macOS 15 / iOS 18), it falls back to a lock.
package final class AtomicFlag: Sendable {
    #if canImport(Synchronization) && !canImport(Darwin)
    private let value: Atomic<Bool>

    package init(_ value: Bool) { self.value = Atomic(value) }

    /// The current value.
    package var isSet: Bool { value.load(ordering: .acquiring) }

    /// Sets the value.
    package func set(_ newValue: Bool) { value.store(newValue, ordering: .releasing) }
    #else
    private let value: Locked<Bool>

    package init(_ value: Bool) { self.value = Locked(value) }

    /// The current value.
    package var isSet: Bool { value.current }

    /// Sets the value.
    package func set(_ newValue: Bool) { value.withLock { $0 = newValue } }
    #endif
}
