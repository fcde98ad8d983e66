import Foundation

/// Where a client keeps profiles, tokens and authenticator registrations. Never the PIN.
///
/// Implementations: ``InMemoryStorage`` (tests, ephemeral sessions) and ``FileStorage``
/// (atomic writes, owner-only permissions). Errors are ``ErrorCode/dataStorageNotAvailable``.
public protocol SecureStorage: Sendable {
    /// The data stored under a key.
    /// - Parameter key: The key.
    /// - Returns: The data, or `nil` when nothing is stored.
    func data(forKey key: String) throws(IdentityFlowError) -> Data?
    /// Stores data under a key, replacing what was there, atomically.
    /// - Parameters:
    ///   - data: The data.
    ///   - key: The key.
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError)
    /// Removes a key; removing a missing key is not an error.
    /// - Parameter key: The key.
    func removeData(forKey key: String) throws(IdentityFlowError)
    /// Every key stored.
    func keys() throws(IdentityFlowError) -> [String]
}
