import Foundation

/// A value guarded by a lock, for state that synchronous code (senders, façade properties) must
/// read and change atomically.
///
/// `@unchecked Sendable` is safe here: `value` is private and only reached inside `withLock`,
/// which holds `lock` for the whole access, so no two threads touch it at once; `Value: Sendable`
/// means whatever leaves the lock may cross threads.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. `body` must not block or re-enter.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var current: Value { withLock { $0 } }
}
