import Foundation

/// The Keychain calls ``KeychainItemStore`` makes, one generic-password item per account: on Apple
/// platforms `SecItemKeychain` (the `SecItem…` functions); in the Linux tests a fake.
///
/// Each call answers with a ``KeychainStatus``, the `OSStatus` values the store tells apart.
package protocol KeychainItems: Sendable {
    /// `SecItemCopyMatching` for one item's data.
    /// - Parameter account: The item's `kSecAttrAccount`.
    /// - Returns: The status, and the data on success.
    func data(account: String) -> (KeychainStatus, Data?)
    /// `SecItemCopyMatching` for every item's attributes.
    /// - Returns: The status, and every item's `kSecAttrAccount` on success.
    func accounts() -> (KeychainStatus, [String])
    /// `SecItemUpdate`: replaces an existing item's data and protection.
    /// - Parameters:
    ///   - account: The item's account.
    ///   - data: The new data.
    ///   - protection: Its accessibility (only ``KeychainProtection/afterFirstUnlock`` is updated in place).
    /// - Returns: The status (``KeychainStatus/itemNotFound`` when there is no such item).
    func update(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus
    /// `SecItemAdd`: a new item.
    /// - Parameters:
    ///   - account: The item's account.
    ///   - data: Its data.
    ///   - protection: Its accessibility or access control.
    /// - Returns: The status (``KeychainStatus/duplicateItem`` when one exists already).
    func add(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus
    /// `SecItemDelete`.
    /// - Parameter account: The item's account.
    /// - Returns: The status (``KeychainStatus/itemNotFound`` when there is no such item).
    func delete(account: String) -> KeychainStatus
}

/// The `OSStatus` values the Keychain store tells apart; every other one is kept as its number.
package enum KeychainStatus: Sendable, Hashable {
    /// `errSecSuccess`.
    case success
    /// `errSecItemNotFound`: no such item.
    case itemNotFound
    /// `errSecDuplicateItem`: the item exists already.
    case duplicateItem
    /// `errSecInteractionNotAllowed`: the item exists but cannot be read now (the device is
    /// locked, or has not been unlocked since it started). Not an absent item.
    case interactionNotAllowed
    /// `errSecUserCanceled`: the user dismissed the system's prompt for an access-controlled item.
    case userCanceled
    /// `errSecAuthFailed`: the user could not be confirmed for an access-controlled item.
    case authFailed
    /// Any other `OSStatus`.
    case other(Int32)
}

/// How an item is protected.
///
/// Profiles, tokens, the device secret, the vault and the resume item are
/// ``afterFirstUnlock``: readable once the user has unlocked the device after it started, also
/// while it is locked again, so a launch in the background (a push, a background refresh) finds
/// the user's profiles and their session. Never backed up nor migrated (`…ThisDeviceOnly`).
/// The biometric key is ``userPresence``: behind an access control the system checks first.
package enum KeychainProtection: Sendable, Hashable {
    /// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`.
    case afterFirstUnlock
    /// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` with an access control
    /// (`KeychainStorage.UserPresence`): the system asks for the user before handing it out, and
    /// deletes it if the device passcode is removed (biometrics need a passcode anyway).
    case userPresence
}
