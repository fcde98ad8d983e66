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
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet,
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

    /// The device's counters of a profile's wrong PINs, read from its vault.
    func vaultCounters(for profile: UserProfile) throws(IdentityFlowError) -> PinCounters {
        let (_, vault) = try usableVault(of: profile)
        return PinCounters(maxFailureCount: dependencies.configuration.authenticators.maxPinFailures, previousFailureCount: vault.failureCount)
    }

    /// One PIN attempt on the device. The failure is counted and stored **before** the PIN is
    /// tried, so a process killed in between has used the attempt; the right PIN resets the
    /// count. At the limit the profile's open session, if any, is revoked at the provider, the
    /// check answers `.deregistered` and the flow removes the profile.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let (stored, vault) = try usableVault(of: profile)
        let maximum = dependencies.configuration.authenticators.maxPinFailures
        guard vault.failureCount < maximum else { return .deregistered }
        try sessions.updateStoredProfile(profile) { $0.vault?.failureCount = vault.failureCount + 1 }
        guard let key = try vault.key(pin: pin, pinSecret: try pinSecret(of: stored, vault), profile: profile) else {
            let failures = vault.failureCount + 1
            guard failures >= maximum else { return .rejected(PinCounters(maxFailureCount: maximum, previousFailureCount: failures)) }
            // The profile goes: a session it has open (a PIN change, a biometric registration) is
            // revoked at the provider; sealed tokens cannot be, nobody gave their PIN.
            if let live = sessions.withState({ $0.authenticatedProfile == profile ? $0.profiles[profile]?.tokens : nil }) {
                await session.revokeUnused(live, flow: nil)
            }
            return .deregistered
        }
        let tokens = try vault.tokens(key: key, profile: profile)
        try sessions.updateStoredProfile(profile) { $0.vault?.failureCount = 0 }
        return .accepted(tokens, key: .device(key))
    }

    /// No: a login unseals the profile's one token set, which must stay live (revoking it would
    /// end the profile's sign-in).
    var issuesTokensPerLogin: Bool { false }

    // MARK: - Biometrics

    /// A biometric attempt on the device: the biometric key (the store may ask for the user's
    /// presence) unwraps the vault key. A key that does not is a biometric failure: the flow
    /// falls back to the PIN.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let (_, vault) = try usableVault(of: profile)
        guard vault.biometricWrap != nil, let biometricKey = try sessions.store.biometricKey(for: profile) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let key = vault.key(unwrapping: vault.biometricWrap, with: biometricKey, purpose: "biometric", profile: profile) else {
            throw IdentityFlowError(.biometricAuthenticatorFailure, "The biometric key does not open this profile's vault.")
        }
        return .accepted(try vault.tokens(key: key, profile: profile), key: .device(key))
    }

    /// Biometric registration on the device: a new biometric key, stored as an item that needs
    /// the user's presence, wraps the vault key.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, accessToken: Redacted<String>, flow: FlowID)
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

    /// Removes the vault's biometric wrap (the key item is deleted by the caller).
    func removeBiometricKey(of stored: StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        let profile = stored.profile
        try sessions.updateStoredProfile(profile) { stored in
            stored.hasBiometricKey = false
            stored.vault?.biometricWrap = nil
            if let deviceSecret = stored.deviceSecret { stored.vault?.bind(deviceSecret: deviceSecret, profile: profile) }
        }
    }

    // MARK: - PIN change

    /// A PIN change on the device: the vault key, proven by the current PIN, is wrapped under
    /// the new PIN (fresh salt); the old wrap is gone.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey, accessToken: Redacted<String>
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        guard let key = currentKey.vaultKey else { throw currentKey.proofRequired }
        let (stored, vault) = try usableVault(of: profile)
        guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(profile, "its device secret is missing") }
        let pinSecret = try self.pinSecret(of: stored, vault)
        var failure: IdentityFlowError?
        try sessions.updateStoredProfile(profile) { stored in
            do throws(IdentityFlowError) {
                try stored.vault?.wrap(key, underPin: pin, pinSecret: pinSecret, deviceSecret: deviceSecret, profile: profile)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return currentKey
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
        try await service.revoke(try sessions.storedProfile(stored.profile).tokens)
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

    /// The vault keeps the refresh token sealed with the access token forgotten (the next login
    /// refreshes) and no resume wrap.
    func sessionEnded(_ stored: StoredProfile, key: ProvenPinKey) {
        guard !stored.profile.isStateless else { return }
        var closed = stored
        closed.vault?.resumeWrap = nil
        closed.tokens.accessToken = Redacted("")
        closed.tokens.expiresAt = .distantPast
        do throws(IdentityFlowError) {
            try closed.resealTokens(with: key)
            if let deviceSecret = closed.deviceSecret { closed.vault?.bind(deviceSecret: deviceSecret, profile: closed.profile) }
            try sessions.store.save(closed)
            closed.lockVault()
            sessions.withState { state in
                if state.profiles[closed.profile] != nil, state.authenticatedProfile != closed.profile { state.profiles[closed.profile] = closed }
            }
        } catch {
            sessions.logger.log(.warning, "Could not reseal the ended session's tokens: \(error)", flow: nil)
        }
    }

    // MARK: - The vault

    /// Whether a stored profile's vault cannot be used on this device (named damaged at launch).
    func isDamaged(_ stored: StoredProfile) -> Bool {
        guard let vault = stored.vault else { return false }
        return vault.damage(deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: dependencies.configuration.acceptedPinKeyIterations)
            != nil || (try? pinSecret(of: stored, vault)) == nil
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

    /// The stored profile and its vault, refused when the vault cannot be used on this device.
    func usableVault(of profile: UserProfile) throws(IdentityFlowError) -> (StoredProfile, DeviceVault) {
        let stored = try sessions.storedProfile(profile)
        guard let vault = stored.vault else { throw DeviceVault.damaged(profile, "it has no vault (it was registered with authenticators on the server)") }
        if let damage = vault.damage(
            deviceSecret: stored.deviceSecret, profile: profile, acceptedIterations: dependencies.configuration.acceptedPinKeyIterations)
        {
            throw damage
        }
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
