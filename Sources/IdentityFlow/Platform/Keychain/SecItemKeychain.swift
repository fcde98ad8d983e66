#if canImport(Security)
import Foundation
import Security

/// ``KeychainItems`` on the `SecItem…` functions: generic-password items of one service (and
/// access group) in the data protection keychain, also on macOS, whose file-based keychain
/// ignores accessibility and access controls.
///
/// Compiled for iOS by `scripts/check-ios.sh`; its logic (``KeychainItemStore``) runs in the
/// Linux tests on a fake.
struct SecItemKeychain: KeychainItems {
    /// The `kSecAttrService` of every item.
    let service: String
    /// The `kSecAttrAccessGroup`, or `nil` for the app's default one.
    let accessGroup: String?
    /// The access control flags of ``KeychainProtection/userPresence`` items.
    let userPresenceFlags: SecAccessControlCreateFlags

    func data(account: String) -> (KeychainStatus, Data?) {
        data(account: account, authentication: nil)
    }

    /// Reads an item with an authentication context the user has just confirmed
    /// (`kSecUseAuthenticationContext`: an `LAContext`), so the system does not ask again.
    /// - Parameters:
    ///   - account: The item's account.
    ///   - authentication: The context, or `nil`.
    /// - Returns: The status, and the data on success.
    func data(account: String, authentication: AnyObject?) -> (KeychainStatus, Data?) {
        var query = baseQuery(account)
        if let authentication { query[kSecUseAuthenticationContext as String] = authentication }
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = Self.status(SecItemCopyMatching(query as CFDictionary, &result))
        return (status, result as? Data)
    }

    func accounts() -> (KeychainStatus, [String]) {
        var query = baseQuery(nil)
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = Self.status(SecItemCopyMatching(query as CFDictionary, &result))
        let items = result as? [[String: Any]] ?? []
        return (status, items.compactMap { $0[kSecAttrAccount as String] as? String })
    }

    func update(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus {
        guard var changes = attributes(for: protection) else { return .other(errSecParam) }
        changes[kSecValueData as String] = data
        return Self.status(SecItemUpdate(baseQuery(account) as CFDictionary, changes as CFDictionary))
    }

    func add(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus {
        guard let protectionAttributes = attributes(for: protection) else { return .other(errSecParam) }
        var item = baseQuery(account)
        item[kSecValueData as String] = data
        item.merge(protectionAttributes) { _, new in new }
        return Self.status(SecItemAdd(item as CFDictionary, nil))
    }

    func delete(account: String) -> KeychainStatus {
        Self.status(SecItemDelete(baseQuery(account) as CFDictionary))
    }

    /// The accessibility or access control of a protection; `nil` when the access control cannot be made.
    private func attributes(for protection: KeychainProtection) -> [String: Any]? {
        switch protection {
        case .afterFirstUnlock:
            return [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        case .userPresence:
            guard let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, userPresenceFlags, nil) else {
                return nil
            }
            return [kSecAttrAccessControl as String: control]
        }
    }

    /// The item (or every item, for `nil`) of this service, in the data protection keychain.
    private func baseQuery(_ account: String?) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let account { query[kSecAttrAccount as String] = account }
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// The statuses the store tells apart.
    private static func status(_ status: OSStatus) -> KeychainStatus {
        switch status {
        case errSecSuccess: .success
        case errSecItemNotFound: .itemNotFound
        case errSecDuplicateItem: .duplicateItem
        case errSecInteractionNotAllowed: .interactionNotAllowed
        case errSecUserCanceled: .userCanceled
        case errSecAuthFailed: .authFailed
        default: .other(status)
        }
    }
}
#endif
