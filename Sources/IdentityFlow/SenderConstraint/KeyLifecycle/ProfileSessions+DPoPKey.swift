import Foundation

/// Where a profile's DPoP key lives between its registration and its removal, by placement:
///
/// - **device** (``AuthenticatorPlacement/device(maxPinFailures:)``): sealed in the profile's
///   vault under the vault key (``DeviceVault/sealedDPoPKey``), opened with the session's key for
///   each use; with no session open it cannot be opened, as the tokens cannot.
/// - **server**: a storage item of its own, ``ProfileStore/dpopKeyPrefix`` + profile id (on Apple
///   platforms a this-device-only Keychain item; on Linux a ``FileStorage`` file, as protected as
///   the tokens beside it); loaded once, then kept in memory.
/// - **stateless**: in memory only, with the session.
///
/// On Apple devices with a Secure Enclave what is stored is the enclave's handle, usable by that
/// enclave only. The item goes with the profile (``ProfileStore/delete(_:)``).
extension ProfileSessions {
    /// The DPoP key of `profile`'s sign-in, or `nil` when it has none (registered without DPoP,
    /// before issue 40, or a device-mode profile without an open session).
    /// - Parameter profile: The profile.
    /// - Returns: The key.
    func dpopKey(for profile: UserProfile) -> DPoPKey? {
        guard let stored = withState({ state in state.profiles[profile] }) else {
            withState { $0.dpopKeys[profile] = nil }
            return nil
        }
        return dpopKey(of: stored)
    }

    /// The DPoP key of a stored profile, also one not in the cache yet (at launch).
    /// - Parameter stored: The profile as stored.
    /// - Returns: The key, or `nil` as ``dpopKey(for:)`` says.
    func dpopKey(of stored: StoredProfile) -> DPoPKey? {
        let profile = stored.profile
        do {
            if let vault = stored.vault {
                guard let vaultKey = sessionPinKey(for: profile).vaultKey, let form = try vault.dpopKey(key: vaultKey, profile: profile) else { return nil }
                return try DPoPKey(stored: form)
            }
            if let cached = withState({ $0.dpopKeys[profile] }) { return cached }
            guard !profile.isStateless, let form = try store.dpopKey(for: profile) else { return nil }
            let key = try DPoPKey(stored: form)
            withState { $0.dpopKeys[profile] = key }
            return key
        } catch {
            logger.log(.error, "The DPoP key of profile \(profile.profileId) could not be loaded: \(error)", flow: nil)
            return nil
        }
    }

    /// The DPoP key of the logged-in profile's session.
    var sessionDPoPKey: DPoPKey? { withState { $0.authenticatedProfile }.flatMap(dpopKey(for:)) }

    /// Keeps a new profile's key where its placement says, before the profile is stored: sealed
    /// in `stored`'s vault under the session's key (device), or written as its own item (server),
    /// and in memory (server, stateless).
    /// - Parameters:
    ///   - key: The key its registration created.
    ///   - stored: The new profile, about to be written.
    ///   - sessionKey: The key its first PIN proved (the vault key in device mode).
    /// - Throws: The sealing's or the storage's errors (then nothing was written).
    func keepDPoPKey(_ key: DPoPKey, with stored: inout StoredProfile, sessionKey: ProvenPinKey) throws(IdentityFlowError) {
        if stored.vault != nil {
            guard let vaultKey = sessionKey.vaultKey, let deviceSecret = stored.deviceSecret else {
                throw IdentityFlowError(.sealedDataInvalid, "The new profile's DPoP key cannot be sealed without its vault key.")
            }
            try stored.vault?.sealDPoPKey(key.storedForm, key: vaultKey, deviceSecret: deviceSecret, profile: stored.profile)
            return
        }
        if !stored.profile.isStateless { try store.saveDPoPKey(key.storedForm, for: stored.profile) }
        withState { $0.dpopKeys[stored.profile] = key }
    }

    /// Forgets a profile's key in memory and removes its item (best effort: logged), for a
    /// registration that did not store its profile.
    /// - Parameter profile: The profile.
    func discardDPoPKey(of profile: UserProfile) {
        withState { $0.dpopKeys[profile] = nil }
        do { try store.deleteDPoPKey(for: profile) } catch {
            logger.log(.error, "The DPoP key item of an unfinished registration could not be deleted: \(error)", flow: nil)
        }
    }

    // MARK: - Nonces (RFC 9449 §9) of resource servers

    /// The last `DPoP-Nonce` the resource server at `origin` gave, if any.
    func dpopNonce(for origin: String) -> String? { withState { $0.dpopNonces[origin] } }

    /// Remembers the resource server's nonce for its next proofs.
    func rememberDPoPNonce(_ nonce: String, for origin: String) { withState { $0.dpopNonces[origin] = nonce } }
}

extension ProfileStore {
    /// The storage key prefix of server-mode DPoP keys (`identityflow.dpop.<profileId>`).
    static let dpopKeyPrefix = "identityflow.dpop."

    /// Writes a server-mode profile's DPoP key as its own item.
    func saveDPoPKey(_ key: StoredDPoPKey, for profile: UserProfile) throws(IdentityFlowError) {
        let data: Data
        do { data = try JSONEncoder().encode(key) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The DPoP key could not be encoded.", underlying: error)
        }
        try storage.setData(data, forKey: Self.dpopKeyPrefix + profile.profileId)
    }

    /// A server-mode profile's DPoP key, `nil` when it has none.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` for an item that is not a key; the storage's errors.
    func dpopKey(for profile: UserProfile) throws(IdentityFlowError) -> StoredDPoPKey? {
        guard let data = try storage.data(forKey: Self.dpopKeyPrefix + profile.profileId) else { return nil }
        do { return try JSONDecoder().decode(StoredDPoPKey.self, from: data) } catch {
            throw IdentityFlowError(.sealedDataInvalid, "The DPoP key item of profile \(profile.profileId) cannot be read.", underlying: error)
        }
    }

    /// Removes a profile's DPoP key item; removing a missing one is not an error.
    func deleteDPoPKey(for profile: UserProfile) throws(IdentityFlowError) {
        try storage.removeData(forKey: Self.dpopKeyPrefix + profile.profileId)
    }
}

extension URL {
    /// The origin a resource server's DPoP nonce is remembered for: scheme, host and port.
    var dpopOrigin: String { "\(scheme?.lowercased() ?? "")://\(host?.lowercased() ?? "")\(port.map { ":\($0)" } ?? "")" }
}

extension RegistrationCheckpoints {
    /// The DPoP key a checkpointed registration resumes with: the one its code is bound to.
    /// - Parameters:
    ///   - checkpoint: The checkpoint.
    ///   - exchanging: Whether the resume exchanges a redirect the host handed over (its code is
    ///     bound to the checkpoint's key); otherwise it asks for the browser again, and a key the
    ///     checkpoint could not keep is created anew.
    /// - Returns: The key, or `nil` for a registration without DPoP (or one that creates its key again).
    /// - Throws: ``ErrorCode/registrationCheckpointExpired`` (the checkpoint is discarded) when the
    ///   redirect's code is bound to a key the checkpoint could not keep (a software key in device
    ///   mode: never written in clear) or that no longer loads: it cannot be exchanged without it.
    func dpopKey(of checkpoint: RegistrationCheckpoint, exchanging: Bool) throws(IdentityFlowError) -> DPoPKey? {
        guard checkpoint.dpopKeyThumbprint != nil else { return nil }
        if let stored = checkpoint.dpopKey, let key = try? DPoPKey(stored: stored), key.thumbprint == checkpoint.dpopKeyThumbprint { return key }
        guard exchanging else { return nil }
        discard(checkpoint)
        throw IdentityFlowError(
            .registrationCheckpointExpired,
            "This registration's DPoP key lived only in the process that was ended (a software key is never written in clear in device mode), and its code is bound to that key: register again."
        )
    }
}
