import Foundation

/// A device-mode profile's DPoP key in its vault (``DeviceVault/sealedDPoPKey``): the key's stored
/// form sealed under the vault key `K`, purpose `dpop-key`, like the token set. Nothing writes a
/// software key's private scalar anywhere else in device mode.
///
/// The key outlives every rotation of the vault (a PIN change, the removal of biometrics, the end
/// of a resumable session): the provider bound the profile's tokens, the refresh token included,
/// to this key, and a bound refresh token cannot move to another key. A rotation reseals the same
/// key under the new vault key (``resealDPoPKey(from:to:profile:)``), so what opened the old vault
/// opens nothing sealed after, the key included.
extension DeviceVault {
    /// The purpose of the DPoP key's box in its associated data.
    static let dpopKeyPurpose = "dpop-key"

    /// The vault's DPoP key, opened with the vault key.
    /// - Parameters:
    ///   - key: The vault key (the session's).
    ///   - profile: The vault's profile.
    /// - Returns: The key's stored form, or `nil` when the vault holds none.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the box does not open with `key` or holds no key.
    func dpopKey(key: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) -> StoredDPoPKey? {
        guard let sealedDPoPKey else { return nil }
        guard let plaintext = SealedBox.open(sealedDPoPKey, key: key, associatedData: Self.associatedData(Self.dpopKeyPurpose, profile)),
            let stored = try? JSONDecoder().decode(StoredDPoPKey.self, from: Data(plaintext))
        else { throw Self.damaged(profile, "its sealed DPoP key does not open with the vault key") }
        return stored
    }

    /// Seals `stored` under the vault key and binds the vault again.
    /// - Parameters:
    ///   - stored: The DPoP key's stored form.
    ///   - key: The vault key.
    ///   - deviceSecret: The profile's device secret (the binding's key).
    ///   - profile: The vault's profile.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when the key cannot be encoded; the sealing's errors.
    mutating func sealDPoPKey(_ stored: StoredDPoPKey, key: Redacted<[UInt8]>, deviceSecret: Redacted<[UInt8]>, profile: UserProfile)
        throws(IdentityFlowError)
    {
        sealedDPoPKey = try Self.sealed(stored, key: key, profile: profile)
        bind(deviceSecret: deviceSecret, profile: profile)
    }

    /// Reseals the DPoP key (when there is one) from the old vault key to the new one, at a
    /// rotation; the caller binds the vault after (its token set is sealed next).
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the old key does not open the box.
    mutating func resealDPoPKey(from previousKey: Redacted<[UInt8]>, to key: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) {
        guard let stored = try dpopKey(key: previousKey, profile: profile) else { return }
        sealedDPoPKey = try Self.sealed(stored, key: key, profile: profile)
    }

    private static func sealed(_ stored: StoredDPoPKey, key: Redacted<[UInt8]>, profile: UserProfile) throws(IdentityFlowError) -> [UInt8] {
        let plaintext: Data
        do { plaintext = try JSONEncoder().encode(stored) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The DPoP key could not be encoded for sealing.", underlying: error)
        }
        return try SealedBox.seal(Array(plaintext), key: key, associatedData: associatedData(dpopKeyPurpose, profile))
    }
}
