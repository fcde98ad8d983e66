#if canImport(Synchronization) && !canImport(Darwin) && !IDENTITYFLOW_NSLOCK
import Synchronization
#else
import Foundation
#endif

/// A value guarded by a lock, for state that synchronous code (senders, façade properties) must
/// read and change atomically.
///
/// The lock is a `Synchronization.Mutex` where that needs no availability check, an `NSLock`
/// elsewhere. Building with `-Xswiftc -DIDENTITYFLOW_NSLOCK` selects `NSLock` everywhere:
/// ThreadSanitizer does not model `Mutex` on this toolchain (scripts/tsan.sh). Speed:
/// docs/performance-notes.md#locked.
// @unchecked Sendable is safe: `value` is reached only inside `withLock`, which holds `lock` for
// the whole access, so no two threads touch it at once; `Value: Sendable` means whatever leaves
// the lock may cross threads.
@usableFromInline
package final class Locked<Value: Sendable>: @unchecked Sendable {
    @usableFromInline var value: Value
    #if canImport(Synchronization) && !canImport(Darwin) && !IDENTITYFLOW_NSLOCK
    @usableFromInline let lock = Mutex(())
    #else
    @usableFromInline let lock = NSLock()
    #endif

    @inlinable package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. `body` must not block or re-enter.
    @inlinable package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        #if canImport(Synchronization) && !canImport(Darwin) && !IDENTITYFLOW_NSLOCK
        let result: Swift.Result<Result, Failure> = lock.withLock { _ in
            do throws(Failure) { return .success(try body(&value)) } catch { return .failure(error) }
        }
        return try result.get()
        #else
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
        #endif
    }

    /// A copy of the current value.
    @inlinable package var current: Value { withLock { $0 } }
}
