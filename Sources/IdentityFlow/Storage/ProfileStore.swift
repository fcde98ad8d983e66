import Foundation

/// What the device keeps of one profile: its tokens and, when biometrics are registered, the
/// PIN-derived key that biometric confirmation unlocks. Never the PIN.
struct StoredProfile: Sendable, Hashable, Decodable {
    var profile: UserProfile
    var tokens: TokenSet
    var biometricKey: Redacted<[UInt8]>?

    /// The authenticators registered: the PIN always, biometrics when a key is stored.
    var authenticators: [Authenticator] { biometricKey == nil ? [.pin] : [.pin, .biometric] }
}

/// Profiles on top of a ``SecureStorage``: one JSON value per profile, written by
/// ``StoredProfile/jsonData()`` and read by `JSONDecoder`.
struct ProfileStore: Sendable {
    let storage: any SecureStorage
    let logger: IdentityFlowLogger

    private static let prefix = "identityflow.profile."

    func loadAll() throws(IdentityFlowError) -> [StoredProfile] {
        var profiles: [StoredProfile] = []
        for key in try storage.keys() where key.hasPrefix(Self.prefix) {
            guard let data = try storage.data(forKey: key) else { continue }
            do {
                profiles.append(try JSONDecoder().decode(StoredProfile.self, from: data))
            } catch {
                logger.log(.error, "A stored profile could not be read and is skipped.")
            }
        }
        return profiles
    }

    func save(_ stored: StoredProfile) throws(IdentityFlowError) {
        let data: Data
        do { data = try stored.jsonData() } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "A profile could not be encoded.", underlying: error)
        }
        try storage.setData(data, forKey: Self.prefix + stored.profile.profileId)
    }

    func delete(_ profile: UserProfile) throws(IdentityFlowError) {
        try storage.removeData(forKey: Self.prefix + profile.profileId)
    }
}
