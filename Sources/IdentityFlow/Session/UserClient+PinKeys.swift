import Foundation
import Statechart

/// PIN proof v2 on the device (`docs/pin-proof.md`): PIN and biometric logins, the PIN change's
/// and the biometric registration's proofs, and the upgrade of v1 profiles.
extension UserClient {
    /// One PIN attempt: a fresh challenge, bounded before anything is derived; the PIN key; the
    /// server's verdict. A v1 profile logs in with its v1 proof and is upgraded to v2 at once.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        if keepsAuthenticatorsOnDevice { return try await checkPinOnDevice(pin, for: profile) }
        let stored = try storedProfile(profile)
        guard let challenge = try await challenge(for: profile, speaking: stored.deviceSecret == nil ? 1 : 2) else { return .deregistered }
        guard let deviceSecret = stored.deviceSecret else { return try await checkLegacyPin(pin, for: profile, challenge: challenge) }
        let key = try PinProof.pinKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations, deviceSecret: deviceSecret, profile: profile)
        let proof = key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce))
        return PinCheck(try await service.verifyPinProof(Redacted(proof), for: profile, nonce: challenge.nonce), key: .v2(key.privateKey))
    }

    /// A biometric attempt: the biometric key (the store may ask for the user's presence) signs
    /// a fresh nonce. A v1 profile's biometric login uses its stored v1 key until it upgrades.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        if keepsAuthenticatorsOnDevice { return try await checkBiometricKeyOnDevice(for: profile) }
        let stored = try storedProfile(profile)
        if let legacyKey = stored.biometricKey, stored.deviceSecret == nil {
            guard let challenge = try await challenge(for: profile, speaking: 1) else { return .deregistered }
            let proof = LegacyPinProof.proof(key: legacyKey, profile: profile, nonce: challenge.nonce)
            return PinCheck(try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce), key: .none)
        }
        guard stored.hasBiometricKey, let scalar = try profileStore.biometricKey(for: profile), let key = DeviceKey(privateKey: scalar) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let challenge = try await challenge(for: profile, speaking: 2, derivesPinKey: false) else { return .deregistered }
        let proof = key.sign(PinProof.message(PinProof.Purpose.biometricLogin.rawValue, profile: profile, nonce: challenge.nonce))
        return PinCheck(try await service.verifyBiometricProof(Redacted(proof), for: profile, nonce: challenge.nonce), key: .none)
    }

    /// Enrols a registration's first PIN: with the server (then the implicit key it offers), or,
    /// in device mode, in a new vault that seals the registration's tokens.
    /// `keyDerived` receives the PIN key before anything is sent, so that a flow cancelled while
    /// the enrolment is on its way can still discard it on the server.
    /// - Returns: In device mode, the vault to store.
    nonisolated(nonsending) func enrolFirstPin(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet,
        keyDerived: (ProvenPinKey) -> Void
    ) async throws(IdentityFlowError) -> DeviceVault? {
        if keepsAuthenticatorsOnDevice {
            let (vault, key) = try sealFirstPin(pin, for: profile, deviceSecret: deviceSecret, tokens: tokens)
            keyDerived(key)
            return vault
        }
        let iterations = configuration.pinKeyIterations
        let (salt, key) = try PinProof.newPinKey(pin: pin, iterations: iterations, deviceSecret: deviceSecret, profile: profile)
        let pinKey = ProvenPinKey.v2(key.privateKey)
        keyDerived(pinKey)
        _ = try await service.enrolPin(
            PinEnrolment(profile: profile, salt: salt, iterations: iterations, publicKey: key.publicKey), accessToken: tokens.accessToken)
        await enrolImplicitKeyIfOffered(of: profile, deviceSecret: deviceSecret, pinKey: pinKey, accessToken: tokens.accessToken)
        return nil
    }

    /// Enrols a new PIN, authorized by the current PIN key (a v1 key authorizes the upgrade).
    /// - Returns: The new PIN key, for the session.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        if keepsAuthenticatorsOnDevice { return try rewrapPinOnDevice(pin, for: profile, currentKey: currentKey) }
        let stored = try storedProfile(profile)
        let deviceSecret: Redacted<[UInt8]>
        if let existing = stored.deviceSecret { deviceSecret = existing } else { deviceSecret = try PinProof.newDeviceSecret() }
        let key = try await enrol(pin, for: profile, deviceSecret: deviceSecret, accessToken: accessToken) { nonce, publicKey throws(IdentityFlowError) in
            try currentKey.authorization(for: .change, profile: profile, nonce: nonce, publicKey: publicKey)
        }
        if stored.deviceSecret == nil { try finishUpgrade(of: profile, deviceSecret: deviceSecret) }
        return .v2(key.privateKey)
    }

    /// Creates the biometric key, registers it with the server under the PIN key's proof, and
    /// stores it as an item of its own that needs the user's presence. A failure to store it
    /// revokes it on the server.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, accessToken: Redacted<String>, flow: FlowID)
        async throws(IdentityFlowError)
    {
        if keepsAuthenticatorsOnDevice { return try registerBiometricKeyOnDevice(for: profile, pinKey: pinKey) }
        let biometric = try DeviceKey.random()
        let authorization = try await pinKeyAuthorization(.biometricEnrolment, for: profile, key: pinKey, publicKey: biometric.publicKey)
        try await service.enrolBiometricKey(biometric.publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        do throws(IdentityFlowError) {
            try profileStore.saveBiometricKey(biometric.privateKey, for: profile)
            try updateStoredProfile(profile) { stored in
                stored.hasBiometricKey = true
                stored.biometricRevocationPending = false
            }
        } catch {
            try? profileStore.deleteBiometricKey(for: profile)
            await revokeBiometricKeyOnServer(of: profile, pinKey: pinKey, flow: flow)
            throw error
        }
    }

    /// Revokes a biometric key on the server with the PIN key's proof, best effort: a failure is
    /// logged and the revocation stays pending until the next PIN login.
    nonisolated(nonsending) func revokeBiometricKeyOnServer(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID?) async {
        guard !keepsAuthenticatorsOnDevice else { return }
        do throws(IdentityFlowError) {
            try await service.revokeBiometricKey(for: profile, authorization: try await pinKeyAuthorization(.biometricRevocation, for: profile, key: pinKey))
            try? updateStoredProfile(profile) { $0.biometricRevocationPending = false }
        } catch {
            try? updateStoredProfile(profile) { $0.biometricRevocationPending = true }
            configuration.logger.log(.warning, "Could not revoke the biometric key on the server (tried again at the next PIN login): \(error)", flow: flow)
        }
    }

    /// A proof by `key` over a fresh challenge's nonce and `publicKey` for `purpose`
    /// (`docs/pin-proof.md`). A key that cannot prove the PIN (a biometric session, a v1 key
    /// outside the upgrade) is refused before anything is sent.
    /// - Throws: ``ErrorCode/pinProofRequired``; the challenge's errors.
    nonisolated(nonsending) func pinKeyAuthorization(
        _ purpose: PinProof.Purpose, for profile: UserProfile, key: ProvenPinKey,
        publicKey: [UInt8] = []
    ) async throws(IdentityFlowError) -> PinKeyAuthorization {
        guard key.provesPin else { throw key.proofRequired }
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        return try key.authorization(for: purpose, profile: profile, nonce: nonce, publicKey: publicKey)
    }

    /// The PIN key of `profile`'s session, if it is the logged-in profile and logged in with the PIN.
    func sessionPinKey(for profile: UserProfile) -> ProvenPinKey {
        withState { $0.authenticatedProfile == profile ? $0.sessionPinKey : .none }
    }

    // MARK: - Steps

    /// A fresh challenge, refused when its parameters are out of bounds (11013); `nil` when the
    /// server no longer knows the profile.
    nonisolated(nonsending) func challenge(for profile: UserProfile, speaking version: Int, derivesPinKey: Bool = true) async throws(IdentityFlowError)
        -> PinLoginChallenge?
    {
        let challenge: PinLoginChallenge
        do { challenge = try await service.pinLoginChallenge(for: profile) } catch  where error.code == .userDeregistered {
            return nil
        }
        if let refusal = PinProof.refusal(of: challenge, iterations: derivesPinKey ? configuration.acceptedPinKeyIterations : nil, version: version) {
            throw refusal
        }
        return challenge
    }

    /// Sends an enrolment of a new PIN key; `authorize` makes the current key's proof over a
    /// fresh nonce and the new public key.
    private nonisolated(nonsending) func enrol(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, accessToken: Redacted<String>,
        authorize: ([UInt8], [UInt8]) throws(IdentityFlowError) -> PinKeyAuthorization
    ) async throws(IdentityFlowError) -> DeviceKey {
        let (salt, key) = try PinProof.newPinKey(pin: pin, iterations: configuration.pinKeyIterations, deviceSecret: deviceSecret, profile: profile)
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        let enrolment = PinEnrolment(
            profile: profile, salt: salt, iterations: configuration.pinKeyIterations, publicKey: key.publicKey,
            authorization: try authorize(nonce, key.publicKey))
        _ = try await service.enrolPin(enrolment, accessToken: accessToken)
        return key
    }

    /// A v1 login: the v1 proof, then (once accepted) the upgrade to v2 with the same PIN. An
    /// upgrade that fails is logged and tried again at the next login; the login stands.
    private nonisolated(nonsending) func checkLegacyPin(_ pin: Redacted<String>, for profile: UserProfile, challenge: PinLoginChallenge)
        async throws(IdentityFlowError) -> PinCheck
    {
        let legacyKey = try LegacyPinProof.derivedKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations)
        let proof = LegacyPinProof.proof(key: legacyKey, profile: profile, nonce: challenge.nonce)
        let verdict = try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce)
        guard case .accepted(let tokens) = verdict else { return PinCheck(verdict, key: .v1(legacyKey)) }
        do throws(IdentityFlowError) {
            let deviceSecret = try PinProof.newDeviceSecret()
            let key = try await enrol(pin, for: profile, deviceSecret: deviceSecret, accessToken: tokens.accessToken) { nonce, publicKey in
                PinKeyAuthorization(nonce: nonce, proof: LegacyPinProof.upgradeProof(key: legacyKey, profile: profile, nonce: nonce, publicKey: publicKey))
            }
            try finishUpgrade(of: profile, deviceSecret: deviceSecret)
            return .accepted(tokens, key: .v2(key.privateKey))
        } catch {
            configuration.logger.log(.warning, "The PIN proof v1 profile was not upgraded to v2 (it will be at the next login): \(error)", flow: nil)
            return .accepted(tokens, key: .v1(legacyKey))
        }
    }

    /// Stores the device secret of an upgraded profile and drops its v1 biometric key (the v1
    /// verifier it was is gone from the server).
    private func finishUpgrade(of profile: UserProfile, deviceSecret: Redacted<[UInt8]>) throws(IdentityFlowError) {
        try updateStoredProfile(profile) { stored in
            stored.deviceSecret = deviceSecret
            stored.biometricKey = nil
        }
    }
}

extension PinCheck {
    /// The check for a server's verdict on a proof made with `key`.
    init(_ verification: PinVerification, key: ProvenPinKey) {
        switch verification {
        case .accepted(let tokens): self = .accepted(tokens, key: key)
        case .rejected(let failures, let maximum): self = .rejected(PinCounters(maxFailureCount: maximum, previousFailureCount: failures))
        case .deregistered: self = .deregistered
        }
    }
}
