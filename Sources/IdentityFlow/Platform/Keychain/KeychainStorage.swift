#if canImport(Security)
import Foundation
import Security

/// A ``SecureStorage`` in the Keychain (Apple platforms): one generic-password item per key, in
/// the data protection keychain (`kSecUseDataProtectionKeychain`, also on macOS, whose file-based
/// keychain ignores accessibility and access controls).
///
/// **Accessibility, item by item.** Profiles, tokens, the device secret, the device-mode vault,
/// the resume item and the registration checkpoint are
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: readable from the first unlock after the
/// device starts, also while it is locked again, so an app launched in the background (a push,
/// a background refresh) finds its user; never in a backup nor carried to another device. The
/// biometric key (written with ``StorageAccess/userPresence``) is
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` behind an access control (``UserPresence``):
/// the system asks for the user before it hands it out, and removes it if the passcode is turned
/// off (biometric login then falls back to the PIN).
///
/// **Never a silent logout.** An item that exists but cannot be read now
/// (`errSecInteractionNotAllowed`: before the first unlock, or an item an earlier version wrote
/// as readable only while unlocked) fails with ``ErrorCode/dataStorageLocked``, never reads as
/// absent: ``UserClient/start()`` lists such profiles in ``LaunchReport/unavailableProfiles`` and
/// removes nothing.
///
/// An item is rewritten in place (`SecItemUpdate`, added when missing), so a crash mid-write
/// leaves the old value or the new one, never none: the device secret cannot be lost that way.
/// Items behind an access control (the biometric key) are replaced instead, since updating one
/// would ask the user; a crash in between loses that key only, and biometric login falls back to
/// the PIN.
///
/// - Important: On macOS, items an earlier version wrote to the file-based keychain (without
///   `kSecUseDataProtectionKeychain`) are not read by this one.
///
/// ```swift
/// let storage = KeychainStorage(service: "com.example.app.identity")
/// let client = UserClient(configuration: configuration, server: server, storage: storage)
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
    /// The Keychain logic on the `SecItem…` functions.
    private let store: KeychainItemStore<SecItemKeychain>
    /// The `LAContext` ``BiometricAnswerer`` has just evaluated, for the next read of a biometric key.
    private let evaluatedContext = HandOverSlot<AnyObject>()

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
        store = KeychainItemStore(items: SecItemKeychain(service: service, accessGroup: accessGroup, userPresenceFlags: userPresence.flags))
    }

    /// The data stored under a key (the system may ask for the user's presence first).
    /// - Throws: ``ErrorCode/dataStorageLocked`` when the item exists but the device's lock
    ///   keeps it closed now; ``ErrorCode/dataStorageNotAvailable`` for any other failure.
    ///
    /// A biometric key is read with the `LAContext` a ``BiometricAnswerer`` given this storage has
    /// just evaluated, so the user confirms once.
    public func data(forKey key: String) throws(IdentityFlowError) -> Data? {
        if key.hasPrefix(ProfileStore.biometricPrefix), let context = evaluatedContext.take() {
            let (status, data) = store.items.data(account: key, authentication: context)
            return try KeychainItemStore<SecItemKeychain>.read(status, data)
        }
        return try store.data(forKey: key)
    }

    /// Keeps an `LAContext` the user has just confirmed for the next read of a biometric key.
    /// - Parameter context: The evaluated context.
    func authenticateNextBiometricKeyRead(with context: AnyObject) { evaluatedContext.put(context) }

    /// Stores data under a key, readable from the first unlock after the device starts.
    public func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) { try store.setData(data, forKey: key) }

    /// Stores data under a key; ``StorageAccess/userPresence`` asks for the user before reading.
    ///
    /// An item without an access control is updated in place, or added when there is none. An
    /// item behind an access control is replaced (see the type's discussion).
    public func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        try store.setData(data, forKey: key, access: access)
    }

    /// Removes a key; a missing key is not an error.
    public func removeData(forKey key: String) throws(IdentityFlowError) { try store.removeData(forKey: key) }

    /// Every key stored under ``service``.
    /// - Throws: ``ErrorCode/dataStorageLocked`` when the keychain cannot be listed now.
    public func keys() throws(IdentityFlowError) -> [String] { try store.keys() }
}
#endif
