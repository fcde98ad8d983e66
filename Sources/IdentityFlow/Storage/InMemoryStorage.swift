import Foundation
import Statechart

/// A ``SecureStorage`` in memory: gone when the process ends. It cannot ask for the user's
/// presence: items written with ``StorageAccess/userPresence`` are kept like any other.
public final class InMemoryStorage: SecureStorage {
    private let entries = Locked<[String: Data]>([:])

    /// Creates an empty store.
    public init() {}

    /// The data stored under a key.
    public func data(forKey key: String) throws(IdentityFlowError) -> Data? { entries.withLock { $0[key] } }

    /// Stores data under a key.
    public func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) { entries.withLock { $0[key] = data } }

    /// Removes a key.
    public func removeData(forKey key: String) throws(IdentityFlowError) { entries.withLock { _ = $0.removeValue(forKey: key) } }

    /// Every key stored, sorted.
    public func keys() throws(IdentityFlowError) -> [String] { entries.withLock { $0.keys.sorted() } }
}
