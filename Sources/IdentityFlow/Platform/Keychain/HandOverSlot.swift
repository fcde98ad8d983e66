import Foundation

/// Holds one value from the moment one part puts it until another takes it, once: the `LAContext`
/// `BiometricAnswerer` has just evaluated, until `KeychainStorage` reads the biometric key with it
/// (so the user is asked once, not twice). A value taken is gone; a new one replaces an old one.
///
/// `@unchecked Sendable`: the one stored property is read and written only while `lock` is held,
/// and a value leaves the slot by `take()`, which empties it, so no two threads ever get it.
package final class HandOverSlot<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    /// An empty slot.
    package init() {}

    /// Puts a value there, replacing one not taken.
    /// - Parameter value: The value.
    package func put(_ value: Value) {
        lock.withLock { self.value = value }
    }

    /// Takes the value out, or `nil` when there is none.
    /// - Returns: The value.
    package func take() -> Value? {
        lock.withLock {
            defer { value = nil }
            return value
        }
    }
}
