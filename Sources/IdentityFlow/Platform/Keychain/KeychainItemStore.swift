import Foundation

/// What `KeychainStorage` does with the Keychain, on any ``KeychainItems``: which protection
/// each item gets, how a write replaces an item, and which statuses mean what. Portable, so the
/// Linux tests run it on a fake Keychain; Apple platforms run it on the `SecItem…` functions.
///
/// An item that exists but cannot be read now (``KeychainStatus/interactionNotAllowed``: the
/// device is locked, or not unlocked since it started) is never taken for an absent one: reads
/// and listings fail with ``ErrorCode/dataStorageLocked``, so nothing above decides the user is
/// gone. Every other failure is ``ErrorCode/dataStorageNotAvailable`` with the `OSStatus`.
package struct KeychainItemStore<Items: KeychainItems>: SecureStorage {
    /// The Keychain the items live in.
    package let items: Items

    /// Creates a store on a Keychain.
    /// - Parameter items: The Keychain calls.
    package init(items: Items) { self.items = items }

    /// The item's data, `nil` when there is no item.
    /// - Throws: ``ErrorCode/dataStorageLocked`` for an item the device's lock keeps closed,
    ///   ``ErrorCode/dataStorageNotAvailable`` for any other failure.
    package func data(forKey key: String) throws(IdentityFlowError) -> Data? {
        let (status, data) = items.data(account: key)
        return try Self.read(status, data)
    }

    /// What a read's status and data mean: the data, `nil` for no item, or the error.
    /// - Throws: As ``data(forKey:)``.
    static func read(_ status: KeychainStatus, _ data: Data?) throws(IdentityFlowError) -> Data? {
        switch status {
        case .success: return data
        case .itemNotFound: return nil
        default: throw failure("read", status)
        }
    }

    /// Writes an item readable after the first unlock (``KeychainProtection/afterFirstUnlock``).
    package func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        try setData(data, forKey: key, access: .whenUnlocked)
    }

    /// Writes an item: ``StorageAccess/whenUnlocked`` items are updated in place (added when
    /// missing), so a crash mid-write leaves the old value or the new one, never none; a
    /// ``StorageAccess/userPresence`` item is replaced, since updating one would ask the user.
    package func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        switch access {
        case .whenUnlocked:
            // Update first, add when missing; an add that finds the item after all (written in
            // between by another client on the same service) updates it.
            for _ in 0..<2 {
                let updated = items.update(account: key, data: data, protection: .afterFirstUnlock)
                if updated == .success { return }
                guard updated == .itemNotFound else { throw Self.failure("update", updated) }
                let added = items.add(account: key, data: data, protection: .afterFirstUnlock)
                if added == .success { return }
                guard added == .duplicateItem else { throw Self.failure("write", added) }
            }
            throw Self.failure("write", .duplicateItem)
        case .userPresence:
            try removeData(forKey: key)
            let added = items.add(account: key, data: data, protection: .userPresence)
            guard added == .success else { throw Self.failure("write", added) }
        }
    }

    /// Removes an item; a missing one is not an error.
    package func removeData(forKey key: String) throws(IdentityFlowError) {
        let status = items.delete(account: key)
        guard status == .success || status == .itemNotFound else { throw Self.failure("delete", status) }
    }

    /// Every item's key.
    /// - Throws: ``ErrorCode/dataStorageLocked`` when the Keychain cannot be listed while the
    ///   device is locked (then nothing can be said about which profiles exist).
    package func keys() throws(IdentityFlowError) -> [String] {
        let (status, accounts) = items.accounts()
        switch status {
        case .success: return accounts
        case .itemNotFound: return []
        default: throw Self.failure("list", status)
        }
    }

    /// The error for a failed call: locked, or anything else with its status.
    static func failure(_ operation: String, _ status: KeychainStatus) -> IdentityFlowError {
        switch status {
        case .interactionNotAllowed:
            IdentityFlowError(
                .dataStorageLocked, "The keychain cannot \(operation) an item while the device is locked (errSecInteractionNotAllowed); nothing was removed.")
        case .userCanceled:
            IdentityFlowError(
                .dataStorageNotAvailable, "The keychain could not \(operation) an item: the user dismissed the system's prompt (errSecUserCanceled).")
        case .authFailed:
            IdentityFlowError(.dataStorageNotAvailable, "The keychain could not \(operation) an item: the user was not confirmed (errSecAuthFailed).")
        case .other(let code):
            IdentityFlowError(.dataStorageNotAvailable, "The keychain could not \(operation) an item (OSStatus \(code)).")
        case .success, .itemNotFound, .duplicateItem:
            IdentityFlowError(.dataStorageNotAvailable, "The keychain could not \(operation) an item (\(status)).")
        }
    }
}
