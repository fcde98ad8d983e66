import Foundation
import Statechart

/// The authenticators of a device-mode client (``AuthenticatorPlacement/device(maxPinFailures:)``):
/// what the PIN and biometric steps of every flow do when the device, not the server, holds the
/// keys and counts (`docs/device-authenticators.md`). The provider's tokens are sealed in the
/// profile's vault; no extension endpoint is ever called. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct DeviceAuthenticators: AuthenticatorHome {
    /// What the home is built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The session steps, for revoking tokens nobody uses.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    // MARK: - Registration

    /// Nothing to refuse: the vault keeps the PIN with any OpenID Connect provider.
    nonisolated(nonsending) func requirePinHome(for context: RegistrationMachine.Context) async throws(IdentityFlowError) {}

    /// The provider's own browser sign-in, when it has no list of identity providers to offer (no
    /// extension API).
    var providersWithoutServerList: [IdentityProvider]? { [IdentityProvider(identifier: "openid-connect", name: "Sign in", kind: .browser)] }

    /// The first PIN of a registration: a new vault seals the registration's tokens.
    /// - Returns: The vault to store.
    nonisolated(nonsending) func enrolFirstPin(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet, proofKey: DPoPKey?,
        keyDerived: (ProvenPinKey) -> Void
    ) async throws(IdentityFlowError) -> DeviceVault? {
        let (vault, key) = try DeviceVault.create(
            pin: pin, tokens: tokens, iterations: dependencies.configuration.pinKeyIterations, deviceSecret: deviceSecret,
            hardwareKey: dependencies.configuration.hardwareKey, profile: profile)
        keyDerived(.device(key))
        return vault
    }

    /// Nothing: a vault that was never stored is gone with the flow, and no server holds a key.
    nonisolated(nonsending) func discardFirstPin(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID) async {}

    // MARK: - The PIN loop

    /// The device's counters of a profile's wrong PINs.
    nonisolated(nonsending) func pinCounters(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters? {
        try vaultCounters(for: profile)
    }

    /// The device's counters of a profile's wrong PINs, read from its vault as stored now.
    func vaultCounters(for profile: UserProfile) throws(IdentityFlowError) -> PinCounters {
        let (_, vault) = try usableVault(of: profile)
        return PinCounters(maxFailureCount: maxPinFailures, previousFailureCount: vault.failureCount)
    }

    /// Wrong PINs in a row before the profile is removed.
    var maxPinFailures: Int { dependencies.configuration.authenticators.maxPinFailures }

    /// One PIN attempt on the device. The failure is counted and stored **before** the PIN is
    /// tried, so a process killed in between has used the attempt; the right PIN resets the
    /// count. The count is read, raised and written in one exclusive section of the storage
    /// (``SecureStorage/withExclusiveAccess(_:)``), so clients and processes sharing it lose no
    /// count. At the limit the profile's open session, if any, is revoked at the provider, the
    /// check answers `.deregistered` and the flow removes the profile.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let maximum = maxPinFailures
        guard let (vault, pinSecret) = try countAttempt(of: profile) else { return .deregistered }
        guard let (key, slotKey) = try vault.openWithPin(pin, pinSecret: pinSecret, profile: profile) else {
            let failures = vault.failureCount + 1
            guard failures >= maximum else { return .rejected(PinCounters(maxFailureCount: maximum, previousFailureCount: failures)) }
            // The profile goes: a session it has open (a PIN change, a biometric registration) is
            // revoked at the provider; sealed tokens cannot be, nobody gave their PIN.
            if let live = sessions.withState({ $0.authenticatedProfile == profile ? $0.profiles[profile]?.tokens : nil }) {
                await session.revokeUnused(live, proofKey: sessions.dpopKey(for: profile), flow: nil)
            }
            return .deregistered
        }
        let tokens = try vault.tokens(key: key, profile: profile)
        try resetCount(of: profile, slotKey: slotKey)
        try requireSignIn(tokens, of: profile)
        return .accepted(tokens, key: .device(key))
    }

    /// Counts one attempt before it is tried: in one exclusive section of the storage, the
    /// profile as stored now (another client or process may have counted since this one loaded
    /// it), its vault checked (a vault this device cannot open, such as one bound to another
    /// device's hardware, is refused before anything is counted), one more failure written.
    /// - Returns: The vault as it was before the count and the secret its PIN key is derived
    ///   with, or `nil` when the vault is at the limit (it opens for nothing).
    /// - Throws: ``ErrorCode/sealedDataInvalid`` for a vault that cannot be used; the storage's errors.
    func countAttempt(of profile: UserProfile) throws(IdentityFlowError) -> (DeviceVault, pinSecret: Redacted<[UInt8]>)? {
        try sessions.store.storage.withExclusiveAccess { () throws(IdentityFlowError) -> (DeviceVault, pinSecret: Redacted<[UInt8]>)? in
            let (stored, vault) = try usableVault(of: profile)
            let pinSecret = try self.pinSecret(of: stored, vault)
            try recordGeneration(of: vault, for: profile)
            guard vault.failureCount < maxPinFailures else { return nil }
            try writeCount(vault.failureCount + 1, of: stored)
            return (vault, pinSecret)
        }
    }

    /// Sets the count back to 0 after a right PIN or a biometric login, in one exclusive section
    /// of the storage; after a PIN login, a vault written before the PIN slot stores `slotKey`.
    func resetCount(of profile: UserProfile, slotKey: [UInt8]? = nil) throws(IdentityFlowError) {
        try sessions.store.storage.withExclusiveAccess { () throws(IdentityFlowError) in
            let (stored, vault) = try usableVault(of: profile)
            let addsSlot = vault.pinSlotKey == nil && slotKey != nil
            if vault.failureCount != 0 || addsSlot { try writeCount(0, of: stored, slotKey: addsSlot ? slotKey : nil) }
        }
    }

    /// Writes `count` (and a missing PIN slot key) into `stored`'s vault (bound) and keeps the
    /// client's copy in step, its live tokens kept.
    private func writeCount(_ count: Int, of stored: StoredProfile, slotKey: [UInt8]? = nil) throws(IdentityFlowError) {
        guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(stored.profile, "its device secret is missing") }
        var counted = stored
        counted.vault?.failureCount = count
        if let slotKey { counted.vault?.pinSlotKey = slotKey }
        counted.vault?.bind(deviceSecret: deviceSecret, profile: stored.profile)
        try sessions.store.save(counted)
        sessions.withState { state in
            guard let cached = state.profiles[stored.profile] else { return }
            counted.tokens = cached.tokens
            state.profiles[stored.profile] = counted
        }
    }

    /// Refuses a vault whose sign-in ended with its last session (``SessionEnd/signInEnded``): no
    /// refresh token and a spent access token could call the API. The profile is removed, before
    /// any API call, so that no path leaves one that logs in and then cannot call the API.
    /// - Throws: ``ErrorCode/signInEnded``, carrying the profile.
    func requireSignIn(_ tokens: TokenSet, of profile: UserProfile) throws(IdentityFlowError) {
        guard tokens.refreshToken == nil, !tokens.isAccessTokenValid(at: dependencies.configuration.now()) else { return }
        sessions.forgetProfile(profile, flow: nil)
        var error = IdentityFlowError(
            .signInEnded,
            "The sign-in of profile \(profile.profileId) at the identity provider has ended (a provider logout, or a refresh the provider refused): the profile was removed from this device; register again."
        )
        error.userProfile = profile
        throw error
    }

    /// No: a login unseals the profile's one token set, which must stay live (revoking it would
    /// end the profile's sign-in).
    var issuesTokensPerLogin: Bool { false }

    // MARK: - Biometrics

    /// A biometric attempt on the device: the biometric key (the store may ask for the user's
    /// presence) unwraps the vault key. A key that does not is a biometric failure: the flow
    /// falls back to the PIN.
    /// A vault at the PIN limit opens for nothing (the profile is removed, as at a PIN check);
    /// a biometric login resets the count, as a right PIN does.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let (_, vault) = try usableVault(of: profile)
        guard vault.failureCount < maxPinFailures else { return .deregistered }
        guard vault.biometricWrap != nil, let biometricKey = try sessions.store.biometricKey(for: profile) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let key = vault.key(unwrapping: vault.biometricWrap, with: biometricKey, purpose: "biometric", profile: profile) else {
            throw IdentityFlowError(.biometricAuthenticatorFailure, "The biometric key does not open this profile's vault.")
        }
        let tokens = try vault.tokens(key: key, profile: profile)
        try resetCount(of: profile)
        try requireSignIn(tokens, of: profile)
        return .accepted(tokens, key: .device(key))
    }

    /// Biometric registration on the device: a new biometric key, stored as an item that needs
    /// the user's presence, wraps the vault key.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, tokens _: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)
    {
        guard let key = pinKey.vaultKey else { throw pinKey.proofRequired }
        let (stored, _) = try usableVault(of: profile)
        guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(profile, "its device secret is missing") }
        let biometricKey = Redacted(try PinProof.randomBytes(DeviceVault.keyLength))
        let wrap = try DeviceVault.wrap(key, with: biometricKey, purpose: "biometric", profile: profile)
        try sessions.store.saveBiometricKey(biometricKey, for: profile)
        do throws(IdentityFlowError) {
            try sessions.updateStoredProfile(profile) { stored in
                stored.vault?.biometricWrap = wrap
                stored.vault?.bind(deviceSecret: deviceSecret, profile: profile)
                stored.hasBiometricKey = true
            }
        } catch {
            try? sessions.store.deleteBiometricKey(for: profile)
            throw error
        }
    }

    /// Nothing: no server holds the biometric key.
    nonisolated(nonsending) func revokeBiometricKey(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID?) async {}

    /// Removes the vault's biometric wrap (the key item is deleted by the caller). With the
    /// session's vault key, the vault is rotated (``rotateWithoutPin(_:key:tokens:biometrics:resume:)``):
    /// the old biometric key opens nothing sealed after; the session goes on with the new key.
    /// Without a session (or for a vault written before the PIN slot) only the wrap goes.
    func removeBiometricKey(of stored: StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        let profile = stored.profile
        if let key = pinKey.vaultKey, let (rotated, newKey) = try rotateWithoutPin(profile, key: key, tokens: stored.tokens, biometrics: false, resume: true) {
            sessions.withState { state in
                guard state.profiles[profile] != nil else { return }
                state.profiles[profile] = rotated
                if state.authenticatedProfile == profile { state.sessionPinKey = .device(newKey) }
            }
            return
        }
        try sessions.updateStoredProfile(profile) { stored in
            stored.hasBiometricKey = false
            stored.vault?.biometricWrap = nil
            if let deviceSecret = stored.deviceSecret { stored.vault?.bind(deviceSecret: deviceSecret, profile: profile) }
        }
    }

    // MARK: - PIN change

    /// A PIN change on the device rotates everything that opened the vault: the token set,
    /// opened with the key the current PIN proved, is sealed under a new vault key, wrapped under
    /// the new PIN with a new device secret and, with biometrics, under a new biometric key; the
    /// resume item goes (the session keeps a new one). The profile is written in one atomic write
    /// before the new biometric key: a kill at any step leaves a vault that the PIN of that write
    /// opens (the old before it, the new after), at worst with a biometric key that falls back to it.
    /// The new vault's generation is recorded after it is written (``recordGeneration(of:for:)``),
    /// so a profile item from before the change, written back, is damage.
    /// - Returns: The new vault key, for the session.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey, tokens _: TokenSet
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        guard let key = currentKey.vaultKey else { throw currentKey.proofRequired }
        let (_, vault) = try usableVault(of: profile)
        let tokens = try vault.tokens(key: key, profile: profile)
        let deviceSecret = try PinProof.newDeviceSecret()
        let hardwareSecret = try vault.hardware.map { binding throws(IdentityFlowError) in
            guard let hardwareKey = dependencies.configuration.hardwareKey else {
                throw DeviceVault.damaged(profile, "it is bound to a hardware key this device does not offer")
            }
            return try hardwareKey.secret(for: binding)
        }
        let pinSecret = DeviceVault.pinSecret(deviceSecret: deviceSecret, hardwareSecret: hardwareSecret)
        // The session's token writes, then the storage's exclusive section: the order a session end
        // takes them in (it may rotate the vault too), so that neither waits on the other.
        let rotated = try sessions.writing {
            () throws(IdentityFlowError) -> (vault: DeviceVault, key: Redacted<[UInt8]>, biometricKey: Redacted<[UInt8]>?) in
            try sessions.store.storage.withExclusiveAccess {
                () throws(IdentityFlowError) -> (vault: DeviceVault, key: Redacted<[UInt8]>, biometricKey: Redacted<[UInt8]>?) in
                let rotated = try vault.rotated(
                    pin: pin, tokens: tokens, previousKey: key, pinSecret: pinSecret, deviceSecret: deviceSecret, profile: profile,
                    recordedGeneration: try sessions.store.vaultGeneration(for: profile))
                var stored = try sessions.storedProfile(profile)
                stored.deviceSecret = deviceSecret
                stored.vault = rotated.vault
                try sessions.store.save(stored)
                sessions.withState { $0.profiles[profile] = stored }
                try recordGeneration(of: rotated.vault, for: profile)
                return rotated
            }
        }
        try? sessions.store.deleteResumeRecord(of: profile)
        if let biometricKey = rotated.biometricKey {
            do { try sessions.store.saveBiometricKey(biometricKey, for: profile) } catch {
                sessions.logger.log(.warning, "The new biometric key could not be stored; biometric logins fall back to the PIN: \(error)", flow: nil)
            }
        }
        return .device(rotated.key)
    }

    // MARK: - Deregistration

    /// Deregistration in device mode: there is no server record; the profile's tokens are
    /// revoked at the provider when the session holds them (they are sealed otherwise).
    /// - Throws: ``ErrorCode/pinProofRequired`` when the profile is not logged in; the revocation's errors.
    nonisolated(nonsending) func deregister(_ stored: StoredProfile, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        guard pinKey.vaultKey != nil else {
            throw IdentityFlowError(
                .pinProofRequired,
                "This profile's tokens are sealed under its PIN: they could not be revoked at the provider (log in first to revoke them).")
        }
        try await service.revoke(try sessions.storedProfile(stored.profile).tokens, proofKey: sessions.dpopKey(for: stored.profile))
    }

    // MARK: - Server-only features

    /// Mobile and implicit authentication need the server.
    /// - Throws: ``ErrorCode/serverAuthenticatorsRequired``, always.
    func requireServerAuthenticators() throws(IdentityFlowError) { throw ProvenPinKey.serverAuthenticatorsRequired }

    // MARK: - The session's tokens

    /// Reseals the live tokens under the session's vault key (``StoredProfile/resealTokens(with:)``).
    func sealTokens(of stored: inout StoredProfile, key: ProvenPinKey) throws(IdentityFlowError) { try stored.resealTokens(with: key) }

    /// Forgets the live tokens in memory (``StoredProfile/lockVault()``).
    func forgetLiveTokens(of stored: inout StoredProfile) { stored.lockVault() }

    /// No: the refresh token stays sealed for the next login. Revoking even the access token is
    /// not safe: RFC 7009 §2.1 lets a provider revoke the refresh token with it
    /// (django-oauth-toolkit does), which would end the profile's sign-in. The access token lives
    /// out its lifetime.
    var revokesTokensAtLogout: Bool { false }

    // MARK: - The launch policy

    /// Keeps the vault key wrapped under a new resume key, which the resume record holds (a
    /// biometric session, without the vault key, keeps nothing).
    func keepForNextLaunch(_ stored: inout StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) -> Redacted<[UInt8]>? {
        guard let vaultKey = pinKey.vaultKey else { return nil }
        let resumeKey = Redacted(try PinProof.randomBytes(DeviceVault.keyLength))
        stored.vault?.resumeWrap = try DeviceVault.wrap(vaultKey, with: resumeKey, purpose: "resume", profile: stored.profile)
        return resumeKey
    }

    /// What the vault keeps when the session ends (``SessionEnd``; `docs/device-authenticators.md`,
    /// "What a session end does"): the session's last token set with its access token marked
    /// spent (kept sealed, so that a deregistration can revoke it; never emptied), and no resume
    /// wrap. When the sign-in ends with the session, the refresh token goes too: the next PIN
    /// login finds nothing that could call the API and says so (``ErrorCode/signInEnded``).
    /// A session that could be resumed (its vault had a resume wrap) ends with a rotation
    /// (``rotateWithoutPin(_:key:tokens:biometrics:resume:)``, which writes the profile): an old
    /// copy's resume item opens nothing sealed after.
    func closeSession(of stored: inout StoredProfile, key: ProvenPinKey, _ end: SessionEnd) throws(IdentityFlowError) -> Bool {
        guard stored.vault != nil, let vaultKey = key.vaultKey else { return false }
        let resumable = stored.vault?.resumeWrap != nil
        stored.vault?.resumeWrap = nil
        stored.tokens.expiresAt = .distantPast
        if end == .signInEnded { stored.tokens.refreshToken = nil }
        if resumable, let (rotated, _) = try rotateWithoutPin(stored.profile, key: vaultKey, tokens: stored.tokens, biometrics: true, resume: false) {
            stored = rotated
            return false
        }
        try stored.resealTokens(with: key)
        return true
    }

    /// Seals a refresh answer that came back after its session ended, when the vault still holds
    /// the refresh token it replaces (a logout: the sign-in outlives the session), with its access
    /// token marked spent; not when the vault's sign-in ended or moved on, nor without the
    /// session's key.
    func keepLateRefresh(_ fresh: TokenSet, replacing spent: Redacted<String>, in stored: inout StoredProfile, key: ProvenPinKey)
        throws(IdentityFlowError) -> Bool
    {
        guard let vaultKey = key.vaultKey, let vault = stored.vault, let sealed = try? vault.tokens(key: vaultKey, profile: stored.profile),
            sealed.refreshToken == spent
        else { return false }
        stored.tokens = fresh
        stored.tokens.expiresAt = .distantPast
        try stored.resealTokens(with: key)
        stored.lockVault()
        return true
    }

    /// Takes the vault's sign-in when a refresh of the ended session sealed a newer one after this
    /// login opened the vault.
    func adoptNewerSignIn(from latest: StoredProfile, into stored: inout StoredProfile, key: ProvenPinKey) {
        guard let vaultKey = key.vaultKey, let vault = latest.vault, let sealed = try? vault.tokens(key: vaultKey, profile: latest.profile),
            sealed.refreshToken != nil, sealed.refreshToken != stored.tokens.refreshToken
        else { return }
        stored.tokens = sealed
    }

    // MARK: - The vault

    /// Whether a stored profile's vault cannot be used on this device (named damaged at launch).
    func isDamaged(_ stored: StoredProfile) -> Bool {
        guard let vault = stored.vault else { return false }
        return vault.damage(
            deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: dependencies.configuration.acceptedPinKeyIterations,
            maxPinFailures: maxPinFailures) != nil || (try? pinSecret(of: stored, vault)) == nil
            || (try? olderThanRecorded(vault, of: stored.profile)) != nil
    }

    /// Why `vault` is not the profile's vault as last rotated here, or `nil` when it is: a vault
    /// whose (bound) generation is older than the one the device recorded is an old profile item
    /// written back. A vault ahead of the record is whole: the rotation was killed between its
    /// two writes.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the record cannot be read; the storage's errors.
    func olderThanRecorded(_ vault: DeviceVault, of profile: UserProfile) throws(IdentityFlowError) -> IdentityFlowError? {
        guard let recorded = try sessions.store.vaultGeneration(for: profile), (vault.generation ?? 0) < recorded else { return nil }
        return DeviceVault.damaged(
            profile, "it is generation \(vault.generation ?? 0) of a vault this device rotated to generation \(recorded) (an old copy written back)")
    }

    /// Records `vault`'s generation when it is ahead of the record: after a rotation's write, or
    /// at the next PIN attempt when a kill came between the two. Called in an exclusive section
    /// of the storage, so a record never goes back.
    private func recordGeneration(of vault: DeviceVault, for profile: UserProfile) throws(IdentityFlowError) {
        guard let generation = vault.generation, generation > (try sessions.store.vaultGeneration(for: profile) ?? 0) else { return }
        try sessions.store.saveVaultGeneration(generation, for: profile)
    }

    /// Rotates the vault as stored now without the PIN key (``DeviceVault/rotatedWithoutPin(tokens:biometrics:resume:deviceSecret:profile:recordedGeneration:)``):
    /// `tokens` sealed under a new vault key wrapped for the PIN slot, under a new biometric key
    /// when `biometrics` and biometrics are registered, under a new resume key when `resume` and
    /// a resume wrap is there. `key` must open the stored vault (the session's key). The profile is
    /// written in one atomic write, then the generation record, then the new items: a kill at
    /// any step leaves a vault that the PIN opens (the old wrap before the write, the slot
    /// after), at worst with a biometric or resume item that opens nothing (the PIN then).
    /// - Returns: The profile as written (its live tokens kept) and the new key; `nil` for a
    ///   vault without a PIN slot, left as it is.
    func rotateWithoutPin(_ profile: UserProfile, key: Redacted<[UInt8]>, tokens: TokenSet, biometrics: Bool, resume: Bool) throws(IdentityFlowError)
        -> (StoredProfile, Redacted<[UInt8]>)?
    {
        let written = try sessions.store.storage.withExclusiveAccess {
            () throws(IdentityFlowError) -> (StoredProfile, Redacted<[UInt8]>, Redacted<[UInt8]>?, Redacted<[UInt8]>?)? in
            let (stored, vault) = try usableVault(of: profile)
            guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(profile, "its device secret is missing") }
            // The session's key must open the vault as stored (another client may have rotated it).
            _ = try vault.tokens(key: key, profile: profile)
            guard
                let rotated = try vault.rotatedWithoutPin(
                    tokens: tokens, previousKey: key, biometrics: biometrics && vault.biometricWrap != nil, resume: resume && vault.resumeWrap != nil,
                    deviceSecret: deviceSecret,
                    profile: profile, recordedGeneration: try sessions.store.vaultGeneration(for: profile))
            else { return nil }
            var next = stored
            next.vault = rotated.vault
            next.hasBiometricKey = rotated.biometricKey != nil
            try sessions.store.save(next)
            try recordGeneration(of: rotated.vault, for: profile)
            next.tokens = tokens
            return (next, rotated.key, rotated.biometricKey, rotated.resumeKey)
        }
        guard let (next, newKey, biometricKey, resumeKey) = written else { return nil }
        if let biometricKey {
            do { try sessions.store.saveBiometricKey(biometricKey, for: profile) } catch {
                sessions.logger.log(.warning, "The new biometric key could not be stored; biometric logins fall back to the PIN: \(error)", flow: nil)
            }
        }
        if let resumeKey { try sessions.store.saveResumeRecord(resumeKey, for: profile) }
        return (next, newKey)
    }

    /// The secret a vault's PIN key is derived with: the device secret and, for a vault bound to
    /// a hardware key, the secret only this device's hardware computes.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the vault is bound to hardware this device
    ///   does not have (a copy from another device), never counted as a wrong PIN.
    func pinSecret(of stored: StoredProfile, _ vault: DeviceVault) throws(IdentityFlowError) -> Redacted<[UInt8]> {
        guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(stored.profile, "its device secret is missing") }
        guard let binding = vault.hardware else { return deviceSecret }
        guard let hardwareKey = dependencies.configuration.hardwareKey else {
            throw DeviceVault.damaged(stored.profile, "it is bound to a hardware key (Secure Enclave) this device does not offer")
        }
        let secret = try hardwareKey.secret(for: binding)
        guard vault.isHardwareSecret(secret) else { throw DeviceVault.damaged(stored.profile, "it is bound to another device's hardware key") }
        return DeviceVault.pinSecret(deviceSecret: deviceSecret, hardwareSecret: secret)
    }

    /// The profile and its vault as the storage holds them now (another client or process may
    /// have written them since this client loaded them), refused when the vault cannot be used on
    /// this device or is older than the generation the device recorded (an old profile item
    /// written back).
    /// - Throws: ``ErrorCode/requestInvalid`` for a profile not registered here; ``ErrorCode/sealedDataInvalid``.
    func usableVault(of profile: UserProfile) throws(IdentityFlowError) -> (StoredProfile, DeviceVault) {
        let cached = try sessions.storedProfile(profile)
        let stored = try sessions.store.load(profile) ?? cached
        guard let vault = stored.vault else { throw DeviceVault.damaged(profile, "it has no vault (it was registered with authenticators on the server)") }
        if let damage = vault.damage(
            deviceSecret: stored.deviceSecret, profile: profile, acceptedIterations: dependencies.configuration.acceptedPinKeyIterations,
            maxPinFailures: maxPinFailures)
        {
            throw damage
        }
        if let damage = try olderThanRecorded(vault, of: profile) { throw damage }
        return (stored, vault)
    }
}

extension StoredProfile {
    /// Reseals a device-mode profile's live tokens under the session's vault key before they are
    /// written; a server-mode profile, or a session without the key, is left as it is.
    mutating func resealTokens(with key: ProvenPinKey) throws(IdentityFlowError) {
        guard vault != nil, let vaultKey = key.vaultKey, let deviceSecret else { return }
        try vault?.seal(tokens, key: vaultKey, deviceSecret: deviceSecret, profile: profile)
    }
}
