import Foundation
import Statechart

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

    /// Every stored profile, and the storage keys of those that could not be read (left in
    /// place for the host to inspect or remove).
    func loadAll() throws(IdentityFlowError) -> (profiles: [StoredProfile], unreadableKeys: [String]) {
        var profiles: [StoredProfile] = []
        var unreadable: [String] = []
        for key in try storage.keys() where key.hasPrefix(Self.prefix) {
            guard let data = try storage.data(forKey: key) else { continue }
            do {
                profiles.append(try JSONDecoder().decode(StoredProfile.self, from: data))
            } catch {
                unreadable.append(key)
                logger.log(.error, "[\(ErrorCode.dataStorageNotAvailable.rawValue)] The stored profile under \(key) could not be read; start() reports it in LaunchReport.unreadableStorageKeys.")
            }
        }
        return (profiles, unreadable)
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
