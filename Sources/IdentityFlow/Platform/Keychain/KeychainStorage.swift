#if canImport(Security)
import Foundation
import Security

/// A ``SecureStorage`` in the Keychain (Apple platforms): one generic-password item per key,
/// readable only on this device (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`, so neither
/// backups nor a device migration carry the device secret or tokens away). Items written with
/// ``StorageAccess/userPresence`` (the biometric key) get an access control that makes the
/// system ask for the user (``UserPresence``) before it hands them out.
///
/// Every item lives in the data protection keychain (`kSecUseDataProtectionKeychain`), also on
/// macOS, whose file-based keychain ignores accessibility and access controls. An item is
/// rewritten in place (`SecItemUpdate`, added when missing), so a crash mid-write leaves the old
/// value or the new one, never none: the device secret cannot be lost that way. Items behind an
/// access control (the biometric key) are replaced instead, since updating one would ask the
/// user; a crash in between loses that key only, and biometric login falls back to the PIN.
///
/// - Important: On macOS, items an earlier version wrote to the file-based keychain (without
///   `kSecUseDataProtectionKeychain`) are not read by this one.
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
    /// Whom the system asks for before it hands out an item stored with ``StorageAccess/userPresence``.
    public let userPresence: UserPresence

    /// How the system checks the user before it hands out the biometric key.
    public enum UserPresence: Sendable, Hashable {
        /// Face ID, Touch ID or the device passcode (`SecAccessControlCreateFlags.userPresence`).
        /// The default.
        case biometryOrPasscode
        /// Face ID or Touch ID with the biometrics enrolled when the key was stored
        /// (`SecAccessControlCreateFlags.biometryCurrentSet`): no passcode fallback, and once
        /// another face or finger is enrolled the system no longer hands the key out; register
        /// biometrics again (until then, log in with the PIN).
        case biometryCurrentSet

        var flags: SecAccessControlCreateFlags {
            switch self {
            case .biometryOrPasscode: .userPresence
            case .biometryCurrentSet: .biometryCurrentSet
            }
        }
    }

    /// Creates a store.
    /// - Parameters:
    ///   - service: The `kSecAttrService` of its items (for example the app's bundle id plus a suffix).
    ///   - accessGroup: A shared access group, or `nil`.
    ///   - userPresence: How the system checks the user before it hands out the biometric key;
    ///     ``UserPresence/biometryOrPasscode`` by default.
    public init(service: String, accessGroup: String? = nil, userPresence: UserPresence = .biometryOrPasscode) {
        self.service = service
        self.accessGroup = accessGroup
        self.userPresence = userPresence
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
    ///
    /// An item readable whenever the device is unlocked is updated in place, or added when there
    /// is none. An item behind an access control is replaced (see the type's discussion).
    public func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        switch access {
        case .whenUnlocked:
            let protection: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
            var changes = protection
            changes[kSecValueData as String] = data
            // Update first, add when missing; an add that finds the item after all (written in
            // between by another client on the same service) updates it.
            for _ in 0..<2 {
                let updated = SecItemUpdate(baseQuery(key) as CFDictionary, changes as CFDictionary)
                if updated == errSecSuccess { return }
                guard updated == errSecItemNotFound else { throw Self.failure("update", updated) }
                let added = add(data, forKey: key, protection: protection)
                if added == errSecSuccess { return }
                guard added == errSecDuplicateItem else { throw Self.failure("write", added) }
            }
            throw Self.failure("write", errSecDuplicateItem)
        case .userPresence:
            var error: Unmanaged<CFError>?
            guard let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, userPresence.flags, &error) else {
                throw IdentityFlowError(.dataStorageNotAvailable, "The keychain access control could not be created.")
            }
            // Updating an item behind an access control would ask the user: it is replaced.
            try removeData(forKey: key)
            let status = add(data, forKey: key, protection: [kSecAttrAccessControl as String: control])
            guard status == errSecSuccess else { throw Self.failure("write", status) }
        }
    }

    /// Adds a new item holding `data` with `protection` (accessibility or access control).
    private func add(_ data: Data, forKey key: String, protection: [String: Any]) -> OSStatus {
        var item = baseQuery(key)
        item[kSecValueData as String] = data
        item.merge(protection) { _, new in new }
        return SecItemAdd(item as CFDictionary, nil)
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

    /// The item (or every item, for `nil`) of this store, in the data protection keychain.
    private func baseQuery(_ key: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            // macOS: the data protection keychain, which honours accessibility and access
            // controls (the file-based one ignores both). iOS uses no other.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let key { query[kSecAttrAccount as String] = key }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private static func failure(_ operation: String, _ status: OSStatus) -> IdentityFlowError {
        IdentityFlowError(.dataStorageNotAvailable, "The keychain could not \(operation) an item (OSStatus \(status)).")
    }
}
#endif
