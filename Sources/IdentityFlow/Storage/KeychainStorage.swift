#if canImport(Security)
import Foundation
import Security

/// A ``SecureStorage`` in the Keychain (Apple platforms): one generic-password item per key,
/// readable only on this device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`, so neither
/// backups nor a device migration carry the device secret or tokens away). Items written with
/// ``StorageAccess/userPresence`` (the biometric key) get an access control that makes the
/// system ask for Face ID, Touch ID or the passcode before it hands them out.
///
/// ```swift
/// let storage = KeychainStorage(service: "com.example.app.identity")
/// let client = UserClient(configuration: configuration, service: service, storage: storage)
/// ```
///
/// The app needs no entitlement beyond its default keychain access group; a host that shares
/// profiles with an extension passes its shared `accessGroup`. Add `NSFaceIDUsageDescription`
/// to the Info.plist for the biometric key's prompt.
public final class KeychainStorage: SecureStorage {
    /// The `kSecAttrService` every item carries.
    public let service: String
    /// The keychain access group, or `nil` for the app's default one.
    public let accessGroup: String?

    /// Creates a store.
    /// - Parameters:
    ///   - service: The `kSecAttrService` of its items (for example the app's bundle id plus a suffix).
    ///   - accessGroup: A shared access group, or `nil`.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// The data stored under a key (the system may ask for the user's presence first).
    public func data(forKey key: String) throws(IdentityFlowError) -> Data? {
        var query = baseQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return result as? Data
        case errSecItemNotFound: return nil
        default: throw Self.failure("read", status)
        }
    }

    /// Stores data under a key, readable whenever the device is unlocked.
    public func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        try setData(data, forKey: key, access: .whenUnlocked)
    }

    /// Stores data under a key; ``StorageAccess/userPresence`` asks for the user before reading.
    public func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        try removeData(forKey: key)
        var item = baseQuery(key)
        item[kSecValueData as String] = data
        switch access {
        case .whenUnlocked:
            item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .userPresence:
            var error: Unmanaged<CFError>?
            guard let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, &error) else {
                throw IdentityFlowError(.dataStorageNotAvailable, "The keychain access control could not be created.")
            }
            item[kSecAttrAccessControl as String] = control
        }
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw Self.failure("write", status) }
    }

    /// Removes a key; a missing key is not an error.
    public func removeData(forKey key: String) throws(IdentityFlowError) {
        let status = SecItemDelete(baseQuery(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
    }

    /// Every key stored under ``service``.
    public func keys() throws(IdentityFlowError) -> [String] {
        var query = baseQuery(nil)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            return (result as? [[String: Any]] ?? []).compactMap { $0[kSecAttrAccount as String] as? String }
        case errSecItemNotFound: return []
        default: throw Self.failure("list", status)
        }
    }

    private func baseQuery(_ key: String?) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        if let key { query[kSecAttrAccount as String] = key }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func failure(_ operation: String, _ status: OSStatus) -> IdentityFlowError {
        IdentityFlowError(.dataStorageNotAvailable, "The keychain could not \(operation) an item (OSStatus \(status)).")
    }
}
#endif
