import Foundation
import Statechart

/// What the device keeps of one profile: its tokens, the device secret its PIN key is derived
/// with (PIN proof v2, `docs/pin-proof.md`) and whether a biometric key is registered. Never the
/// PIN, the PIN key or the biometric key (that is an item of its own, see ``ProfileStore``).
struct StoredProfile: Sendable, Hashable, Decodable {
    var profile: UserProfile
    var tokens: TokenSet
    /// The device secret; `nil` for a v1 profile not yet upgraded.
    var deviceSecret: Redacted<[UInt8]>?
    /// Whether a biometric key is stored (in its own item) and registered with the server.
    var hasBiometricKey: Bool = false
    /// Whether the mobile authentication key is registered with the server.
    var mobileAuthEnrolled: Bool = false
    /// Whether the device's push token is registered for mobile authentication requests.
    var pushMobileAuthEnrolled: Bool = false
    /// Whether the biometric key was removed here while the server still holds its public key:
    /// the revocation needs the PIN key's proof, so the next PIN login sends it.
    var biometricRevocationPending: Bool = false
    /// A v1 profile's biometric key: its PIN verifier, removed by the upgrade to v2.
    var biometricKey: Redacted<[UInt8]>?
    /// A device-mode profile's sealed tokens and wrapped keys. Its ``tokens`` are then live only
    /// in memory while it is logged in, and never written (``jsonData()`` writes no token).
    var vault: DeviceVault?

    init(profile: UserProfile, tokens: TokenSet, deviceSecret: Redacted<[UInt8]>?, hasBiometricKey: Bool = false) {
        self.profile = profile
        self.tokens = tokens
        self.deviceSecret = deviceSecret
        self.hasBiometricKey = hasBiometricKey
    }

    /// The authenticators registered: the PIN always, biometrics when a key is stored.
    var authenticators: [Authenticator] { hasBiometricKey || biometricKey != nil ? [.pin, .biometric] : [.pin] }

    private enum CodingKeys: String, CodingKey {
        case profile, tokens, deviceSecret, hasBiometricKey, biometricKey, mobileAuthEnrolled, pushMobileAuthEnrolled, biometricRevocationPending, vault
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile = try container.decode(UserProfile.self, forKey: .profile)
        tokens = try container.decode(TokenSet.self, forKey: .tokens)
        deviceSecret = try container.decodeBytesIfPresent(forKey: .deviceSecret).map(Redacted.init)
        hasBiometricKey = try container.decodeIfPresent(Bool.self, forKey: .hasBiometricKey) ?? false
        biometricKey = try container.decodeBytesIfPresent(forKey: .biometricKey).map(Redacted.init)
        mobileAuthEnrolled = try container.decodeIfPresent(Bool.self, forKey: .mobileAuthEnrolled) ?? false
        pushMobileAuthEnrolled = try container.decodeIfPresent(Bool.self, forKey: .pushMobileAuthEnrolled) ?? false
        biometricRevocationPending = try container.decodeIfPresent(Bool.self, forKey: .biometricRevocationPending) ?? false
        vault = try container.decodeIfPresent(DeviceVault.self, forKey: .vault)
    }
}

/// Profiles on top of a ``SecureStorage``: one JSON value per profile, written by
/// ``StoredProfile/jsonData()`` and read by `JSONDecoder`.
struct ProfileStore: Sendable {
    let storage: any SecureStorage
    let logger: IdentityFlowLogger

    private static let prefix = "identityflow.profile."
    /// The storage key prefix of biometric keys (`KeychainStorage` reads them with the `LAContext` `BiometricAnswerer` evaluated).
    static let biometricPrefix = "identityflow.biometric-key."
    /// The one resume record: which profile resumes at the next launch, and its resume key.
    private static let resumeRecordKey = "identityflow.resume"
    /// The layout before the resume record: one resume item per profile, migrated by ``loadAll()``.
    private static let legacyResumePrefix = "identityflow.resume."
    private static let generationPrefix = "identityflow.vault-generation."

    /// What ``loadAll()`` found.
    struct Loaded {
        /// The profiles read.
        var profiles: [StoredProfile] = []
        /// Storage keys of profiles that could not be decoded (left in place for the host).
        var unreadableKeys: [String] = []
        /// Profiles whose item exists but cannot be read now (``ErrorCode/dataStorageLocked``):
        /// not loaded, not removed.
        var unavailableProfiles: Set<UserProfile> = []
    }

    /// Every stored profile, the storage keys of those that could not be decoded (left in place
    /// for the host to inspect or remove), and those the storage cannot hand out now. Resume
    /// items of the earlier one-item-per-profile layout become the resume record
    /// (``migrateResumeItems(_:)``).
    func loadAll() throws(IdentityFlowError) -> Loaded {
        var loaded = Loaded()
        let keys = try storage.keys()
        try migrateResumeItems(keys.filter { $0.hasPrefix(Self.legacyResumePrefix) })
        for key in keys where key.hasPrefix(Self.prefix) {
            let stored: Data?
            do { stored = try storage.data(forKey: key) } catch {
                guard error.code == .dataStorageLocked else { throw error }
                loaded.unavailableProfiles.insert(UserProfile(profileId: String(key.dropFirst(Self.prefix.count))))
                logger.log(
                    .warning,
                    "[\(ErrorCode.dataStorageLocked.rawValue)] The stored profile under \(key) cannot be read while the device is locked; it is kept and reported in LaunchReport.unavailableProfiles."
                )
                continue
            }
            guard let data = stored else { continue }
            do {
                loaded.profiles.append(try JSONDecoder().decode(StoredProfile.self, from: data))
            } catch {
                loaded.unreadableKeys.append(key)
                logger.log(
                    .error,
                    "[\(ErrorCode.dataStorageNotAvailable.rawValue)] The stored profile under \(key) could not be read; start() reports it in LaunchReport.unreadableStorageKeys."
                )
            }
        }
        return loaded
    }

    /// The profile as the storage holds it now (another client or process may have written it
    /// since it was loaded), or `nil` when it is gone.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when it cannot be read.
    func load(_ profile: UserProfile) throws(IdentityFlowError) -> StoredProfile? {
        guard let data = try storage.data(forKey: Self.prefix + profile.profileId) else { return nil }
        do { return try JSONDecoder().decode(StoredProfile.self, from: data) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The stored profile \(profile.profileId) could not be read.", underlying: error)
        }
    }

    /// Writes the profile; a stateless one is never written (its session lives in memory).
    func save(_ stored: StoredProfile) throws(IdentityFlowError) {
        guard !stored.profile.isStateless else { return }
        let data: Data
        do { data = try stored.jsonData() } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "A profile could not be encoded.", underlying: error)
        }
        try storage.setData(data, forKey: Self.prefix + stored.profile.profileId)
    }

    /// Removes the profile, its biometric key, its DPoP key and the resume record when it names the profile.
    func delete(_ profile: UserProfile) throws(IdentityFlowError) {
        try deleteResumeRecord(of: profile)
        try storage.removeData(forKey: Self.biometricPrefix + profile.profileId)
        try deleteDPoPKey(for: profile)
        try storage.removeData(forKey: Self.prefix + profile.profileId)
        try storage.removeData(forKey: Self.generationPrefix + profile.profileId)
    }

    // MARK: - The vault generation: the last rotation the device wrote, apart from the profile

    /// The generation of the device-mode profile's vault as last rotated here (``DeviceVault/generation``),
    /// or `nil` when none was recorded; an unreadable record reads as damage of the vault.
    func vaultGeneration(for profile: UserProfile) throws(IdentityFlowError) -> Int? {
        guard let data = try storage.data(forKey: Self.generationPrefix + profile.profileId) else { return nil }
        guard let generation = Int(String(decoding: data, as: UTF8.self)), generation >= 0 else {
            throw DeviceVault.damaged(profile, "its recorded vault generation cannot be read")
        }
        return generation
    }

    /// Records the generation of the profile's vault, written after the rotated profile.
    func saveVaultGeneration(_ generation: Int, for profile: UserProfile) throws(IdentityFlowError) {
        try storage.setData(Data(String(generation).utf8), forKey: Self.generationPrefix + profile.profileId)
    }

    // MARK: - The biometric key: an item of its own, readable only with the user present

    /// Stores the biometric private key apart from the tokens, asking for user presence.
    func saveBiometricKey(_ key: Redacted<[UInt8]>, for profile: UserProfile) throws(IdentityFlowError) {
        try storage.setData(Data(key.value), forKey: Self.biometricPrefix + profile.profileId, access: .userPresence)
    }

    /// The biometric private key (the store may ask the user first), or `nil` when none is stored.
    func biometricKey(for profile: UserProfile) throws(IdentityFlowError) -> Redacted<[UInt8]>? {
        try storage.data(forKey: Self.biometricPrefix + profile.profileId).map { Redacted(Array($0)) }
    }

    // MARK: - The resume record: the last session, kept for the next launch (LaunchPolicy.resumeLastUser)

    /// Marks the profile's session as the one to resume at the next launch, in place of any
    /// other (one write, whatever the number of profiles); in device mode `key` is the resume key
    /// that unwraps its vault key.
    func saveResumeRecord(_ key: Redacted<[UInt8]>, for profile: UserProfile) throws(IdentityFlowError) {
        try storage.setData(ResumeRecord(profileId: profile.profileId, key: key.value).encoded(), forKey: Self.resumeRecordKey)
    }

    /// The profile whose session resumes at the next launch and its resume key, or `nil` when
    /// none does (or the record cannot be read).
    func resumeRecord() throws(IdentityFlowError) -> (profileId: String, key: Redacted<[UInt8]>)? {
        guard let data = try storage.data(forKey: Self.resumeRecordKey), let record = ResumeRecord(decoding: data) else { return nil }
        return (record.profileId, Redacted(record.key))
    }

    /// Removes the resume record: no session resumes at the next launch.
    func deleteResumeRecord() throws(IdentityFlowError) {
        try storage.removeData(forKey: Self.resumeRecordKey)
    }

    /// Removes the resume record when it names `profile` (another profile's stays).
    func deleteResumeRecord(of profile: UserProfile) throws(IdentityFlowError) {
        guard try resumeRecord()?.profileId == profile.profileId else { return }
        try deleteResumeRecord()
    }

    /// Turns resume items of the earlier layout (`identityflow.resume.<profileId>`, one per
    /// profile) into the resume record: that layout kept at most one after every session start,
    /// so the first is the last session's. A resume record already written wins.
    private func migrateResumeItems(_ legacyKeys: [String]) throws(IdentityFlowError) {
        guard let first = legacyKeys.first else { return }
        if try storage.data(forKey: Self.resumeRecordKey) == nil, let key = try storage.data(forKey: first) {
            try saveResumeRecord(Redacted(Array(key)), for: UserProfile(profileId: String(first.dropFirst(Self.legacyResumePrefix.count))))
        }
        for key in legacyKeys { try storage.removeData(forKey: key) }
    }

    /// Removes the biometric private key.
    func deleteBiometricKey(for profile: UserProfile) throws(IdentityFlowError) {
        try storage.removeData(forKey: Self.biometricPrefix + profile.profileId)
    }
}
