import Foundation
import Statechart

/// Where a client keeps profiles, tokens and authenticator registrations. Never the PIN.
///
/// Implementations: ``InMemoryStorage`` (tests, ephemeral sessions) and ``FileStorage``
/// (atomic writes, owner-only permissions). Errors are ``ErrorCode/dataStorageNotAvailable``.
public protocol SecureStorage: Sendable {
    /// The data stored under a key.
    ///
    /// An item that exists but cannot be read now (a store the device's lock keeps closed) is
    /// not an absent item: throw ``ErrorCode/dataStorageLocked`` for it, never return `nil`, so
    /// ``UserClient/start()`` reports its profile as unavailable instead of gone.
    /// - Parameter key: The key.
    /// - Returns: The data, or `nil` when nothing is stored.
    func data(forKey key: String) throws(IdentityFlowError) -> Data?
    /// Stores data under a key, replacing what was there, atomically.
    /// - Parameters:
    ///   - data: The data.
    ///   - key: The key.
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError)
    /// Stores data that only the user may unlock: the biometric key is written this way. A store
    /// that can (the Keychain with a user-presence access control, the Secure Enclave) asks the
    /// user before handing the item out; the default implementation, which ``FileStorage`` and
    /// ``InMemoryStorage`` use, cannot enforce it and stores the item like any other.
    /// - Parameters:
    ///   - data: The data.
    ///   - key: The key.
    ///   - access: Who may read it back.
    func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError)
    /// Removes a key; removing a missing key is not an error.
    /// - Parameter key: The key.
    func removeData(forKey key: String) throws(IdentityFlowError)
    /// Every key stored.
    func keys() throws(IdentityFlowError) -> [String]
    /// Runs `body` while no other section of this storage runs: the device's PIN counter reads,
    /// counts and writes inside one, so that clients and processes sharing a storage (an app and
    /// its extension) lose no count. The default implementation excludes the other sections of
    /// this process; ``FileStorage`` also excludes other processes (a file lock). Keep `body`
    /// short: it may block the calling thread while another section runs.
    /// - Parameter body: The section; it must not start another.
    /// - Returns: What `body` returns.
    func withExclusiveAccess<Result>(_ body: () throws(IdentityFlowError) -> Result) throws(IdentityFlowError) -> Result
}

/// Who may read a stored item back.
public enum StorageAccess: Sendable, Hashable {
    /// The app, without asking the user. (The name is kept from earlier releases:
    /// `KeychainStorage` makes these items readable from the first unlock after the device
    /// starts, also while it is locked again, so a launch in the background finds them.)
    case whenUnlocked
    /// Only after the user is present (biometry or device passcode), where the store can enforce it.
    case userPresence
}

extension SecureStorage {
    /// Stores the item like any other: this store cannot ask for the user's presence.
    /// - Parameters:
    ///   - data: The data.
    ///   - key: The key.
    ///   - access: Ignored.
    public func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        try setData(data, forKey: key)
    }

    /// Runs `body` while no other exclusive section of this process runs (any storage's): this
    /// store has no lock other processes see.
    /// - Parameter body: The section; it must not start another.
    /// - Returns: What `body` returns.
    public func withExclusiveAccess<Result>(_ body: () throws(IdentityFlowError) -> Result) throws(IdentityFlowError) -> Result {
        try processExclusiveSection.withLock { _ throws(IdentityFlowError) in try body() }
    }
}

/// The lock behind the default ``SecureStorage/withExclusiveAccess(_:)``: one for the process.
private let processExclusiveSection = Locked(())
