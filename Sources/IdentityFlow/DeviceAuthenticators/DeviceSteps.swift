import Foundation

// The authenticators of a device-mode client (``AuthenticatorPlacement/device(maxPinFailures:)``):
// what the PIN and biometric steps of every flow do when the device, not the server, holds the
// keys and counts (`docs/device-authenticators.md`). No extension endpoint is ever called. Each
// step is a method of the steps type of the flow that makes it.

/// The PIN loop's steps on the device.
extension PinSteps {
    /// The device's counters of a profile's wrong PINs.
    func devicePinCounters(for profile: UserProfile) throws(IdentityFlowError) -> PinCounters {
        let (_, vault) = try usableVault(of: profile)
        return PinCounters(maxFailureCount: dependencies.configuration.authenticators.maxPinFailures, previousFailureCount: vault.failureCount)
    }

    /// One PIN attempt on the device. The failure is counted and stored **before** the PIN is
    /// tried, so a process killed in between has used the attempt; the right PIN resets the
    /// count. At the limit the profile's open session, if any, is revoked at the provider, the
    /// check answers `.deregistered` and the flow removes the profile.
    nonisolated(nonsending) func checkPinOnDevice(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
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

    // MARK: - The vault

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

/// A login's biometric check on the device.
extension AuthenticationSteps {
    /// A biometric attempt on the device: the biometric key (the store may ask for the user's
    /// presence) unwraps the vault key. A key that does not is a biometric failure: the flow
    /// falls back to the PIN.
    nonisolated(nonsending) func checkBiometricKeyOnDevice(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let (_, vault) = try pinLoop.usableVault(of: profile)
        guard vault.biometricWrap != nil, let biometricKey = try sessions.store.biometricKey(for: profile) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let key = vault.key(unwrapping: vault.biometricWrap, with: biometricKey, purpose: "biometric", profile: profile) else {
            throw IdentityFlowError(.biometricAuthenticatorFailure, "The biometric key does not open this profile's vault.")
        }
        return .accepted(try vault.tokens(key: key, profile: profile), key: .device(key))
    }
}

/// A PIN change on the device.
extension ChangePinSteps {
    /// A PIN change on the device: the vault key, proven by the current PIN, is wrapped under
    /// the new PIN (fresh salt); the old wrap is gone.
    func rewrapPinOnDevice(_ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey) throws(IdentityFlowError) -> ProvenPinKey {
        guard let key = currentKey.vaultKey else { throw currentKey.proofRequired }
        let (stored, vault) = try pinLoop.usableVault(of: profile)
        guard let deviceSecret = stored.deviceSecret else { throw DeviceVault.damaged(profile, "its device secret is missing") }
        let pinSecret = try pinLoop.pinSecret(of: stored, vault)
        var failure: IdentityFlowError?
        try sessions.updateStoredProfile(profile) { stored in
            do throws(IdentityFlowError) {
                try stored.vault?.wrap(key, underPin: pin, pinSecret: pinSecret, deviceSecret: deviceSecret, profile: profile)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return currentKey
    }
}

/// A biometric registration on the device.
extension AuthenticatorRegistrationSteps {
    /// Biometric registration on the device: a new biometric key, stored as an item that needs
    /// the user's presence, wraps the vault key.
    func registerBiometricKeyOnDevice(for profile: UserProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        guard let key = pinKey.vaultKey else { throw pinKey.proofRequired }
        let (stored, _) = try pinLoop.usableVault(of: profile)
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
}

/// A registration on the device: its first PIN, and the refusal of a PIN with nowhere to go.
extension RegistrationSteps {
    /// Refuses, before the user signs in, a registration whose PIN would have nowhere to go: a
    /// server-mode client whose provider has no IdentityFlow extension API (a stateless
    /// registration needs no PIN; a custom identity provider is the extension itself).
    /// - Throws: ``ErrorCode/featureNotSupported``, saying to configure device mode.
    nonisolated(nonsending) func requireAuthenticatorHome(for context: RegistrationMachine.Context) async throws(IdentityFlowError) {
        guard !dependencies.keepsAuthenticatorsOnDevice, !context.stateless, let http = service as? HTTPIdentityService else { return }
        guard try await http.servesExtensionEndpoints() else {
            throw IdentityFlowError(
                .featureNotSupported,
                "The provider has no IdentityFlow extension API, so a PIN cannot be enrolled on the server: set ClientConfiguration.authenticators = .device() to keep authenticators on the device, or register stateless."
            )
        }
    }

    /// The first PIN of a registration: a new vault for the registration's tokens.
    /// - Returns: The vault and the session's key.
    func sealFirstPin(_ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet) throws(IdentityFlowError)
        -> (DeviceVault, ProvenPinKey)
    {
        let (vault, key) = try DeviceVault.create(
            pin: pin, tokens: tokens, iterations: dependencies.configuration.pinKeyIterations, deviceSecret: deviceSecret,
            hardwareKey: dependencies.configuration.hardwareKey, profile: profile)
        return (vault, .device(key))
    }
}

/// A deregistration on the device.
extension DeregistrationSteps {
    /// Deregistration in device mode: there is no server record; the profile's tokens are
    /// revoked at the provider when the session holds them (they are sealed otherwise).
    /// - Throws: ``ErrorCode/pinProofRequired`` when the profile is not logged in; the revocation's errors.
    nonisolated(nonsending) func revokeDeviceProfileTokens(_ stored: StoredProfile, sessionKey: ProvenPinKey) async throws(IdentityFlowError) {
        guard sessionKey.vaultKey != nil else {
            throw IdentityFlowError(
                .pinProofRequired,
                "This profile's tokens are sealed under its PIN: they could not be revoked at the provider (log in first to revoke them).")
        }
        try await service.revoke(try sessions.storedProfile(stored.profile).tokens)
    }
}

/// Biometrics removed from a device-mode profile.
extension ProfileSessions {
    /// Removes biometrics from a device-mode profile: the vault's biometric wrap (the key item is
    /// deleted by the caller).
    func removeBiometricWrap(of profile: UserProfile) throws(IdentityFlowError) {
        try updateStoredProfile(profile) { stored in
            stored.hasBiometricKey = false
            stored.vault?.biometricWrap = nil
            if let deviceSecret = stored.deviceSecret { stored.vault?.bind(deviceSecret: deviceSecret, profile: profile) }
        }
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
