import Foundation
import Statechart

/// The PIN loop's steps (``PinEntry``), as login, PIN change, biometric registration and mobile
/// authentication make them, and PIN proof v2 on the device (`docs/pin-proof.md`): the counters,
/// one PIN attempt, proofs by the PIN key, the upgrade of v1 profiles. In device mode the same
/// steps run against the profile's vault (`DeviceAuthenticators/DeviceSteps.swift`).
/// A view of the client's ``FlowDependencies``: one word, no allocation.
struct PinSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The session steps, for revoking tokens nobody uses.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// The server's counters for a profile; a profile the server no longer knows comes back as `.deregistered`.
    nonisolated(nonsending) func pinStatus(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters? {
        if dependencies.keepsAuthenticatorsOnDevice { return try devicePinCounters(for: profile) }
        do {
            let challenge = try await service.pinLoginChallenge(for: profile)
            return PinCounters(maxFailureCount: challenge.maxFailureCount, previousFailureCount: challenge.failureCount)
        } catch  where error.code == .userDeregistered {
            return nil
        }
    }

    /// One PIN attempt: a fresh challenge, bounded before anything is derived; the PIN key; the
    /// server's verdict. A v1 profile logs in with its v1 proof and is upgraded to v2 at once.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        if dependencies.keepsAuthenticatorsOnDevice { return try await checkPinOnDevice(pin, for: profile) }
        let stored = try sessions.storedProfile(profile)
        guard let challenge = try await challenge(for: profile, speaking: stored.deviceSecret == nil ? 1 : 2) else { return .deregistered }
        guard let deviceSecret = stored.deviceSecret else { return try await checkLegacyPin(pin, for: profile, challenge: challenge) }
        let key = try PinProof.pinKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations, deviceSecret: deviceSecret, profile: profile)
        let proof = key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce))
        return PinCheck(try await service.verifyPinProof(Redacted(proof), for: profile, nonce: challenge.nonce), key: .v2(key.privateKey))
    }

    /// Revokes a biometric key on the server with the PIN key's proof, best effort: a failure is
    /// logged and the revocation stays pending until the next PIN login.
    nonisolated(nonsending) func revokeBiometricKeyOnServer(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID?) async {
        guard !dependencies.keepsAuthenticatorsOnDevice else { return }
        do throws(IdentityFlowError) {
            try await service.revokeBiometricKey(for: profile, authorization: try await pinKeyAuthorization(.biometricRevocation, for: profile, key: pinKey))
            try? sessions.updateStoredProfile(profile) { $0.biometricRevocationPending = false }
        } catch {
            try? sessions.updateStoredProfile(profile) { $0.biometricRevocationPending = true }
            dependencies.configuration.logger.log(
                .warning, "Could not revoke the biometric key on the server (tried again at the next PIN login): \(error)", flow: flow)
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
        if let refusal = PinProof.refusal(
            of: challenge, iterations: derivesPinKey ? dependencies.configuration.acceptedPinKeyIterations : nil, version: version)
        {
            throw refusal
        }
        return challenge
    }

    /// Sends an enrolment of a new PIN key; `authorize` makes the current key's proof over a
    /// fresh nonce and the new public key.
    nonisolated(nonsending) func enrol(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, accessToken: Redacted<String>,
        authorize: ([UInt8], [UInt8]) throws(IdentityFlowError) -> PinKeyAuthorization
    ) async throws(IdentityFlowError) -> DeviceKey {
        let (salt, key) = try PinProof.newPinKey(
            pin: pin, iterations: dependencies.configuration.pinKeyIterations, deviceSecret: deviceSecret, profile: profile)
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        let enrolment = PinEnrolment(
            profile: profile, salt: salt, iterations: dependencies.configuration.pinKeyIterations, publicKey: key.publicKey,
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
            dependencies.configuration.logger.log(
                .warning, "The PIN proof v1 profile was not upgraded to v2 (it will be at the next login): \(error)", flow: nil)
            return .accepted(tokens, key: .v1(legacyKey))
        }
    }

    /// Stores the device secret of an upgraded profile and drops its v1 biometric key (the v1
    /// verifier it was is gone from the server).
    func finishUpgrade(of profile: UserProfile, deviceSecret: Redacted<[UInt8]>) throws(IdentityFlowError) {
        try sessions.updateStoredProfile(profile) { stored in
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
