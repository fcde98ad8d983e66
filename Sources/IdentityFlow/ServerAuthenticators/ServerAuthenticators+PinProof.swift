import Foundation
import Statechart

/// PIN proof v2 on the device (`docs/pin-proof.md`): fresh challenges, proofs by the PIN key, the
/// enrolment of a new PIN key, the upgrade of v1 profiles. Mobile and implicit authentication sign
/// over the same challenges.
extension ServerAuthenticators {
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
    /// fresh nonce and the new public key. `proofKey` (the key DPoP-bound tokens are bound to)
    /// proves the access token's use.
    nonisolated(nonsending) func enrol(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, accessToken: Redacted<String>, proofKey: DPoPKey?,
        authorize: ([UInt8], [UInt8]) throws(IdentityFlowError) -> PinKeyAuthorization
    ) async throws(IdentityFlowError) -> DeviceKey {
        let (salt, key) = try PinProof.newPinKey(
            pin: pin, iterations: dependencies.configuration.pinKeyIterations, deviceSecret: deviceSecret, profile: profile)
        let nonce = try await service.pinLoginChallenge(for: profile).nonce
        let enrolment = PinEnrolment(
            profile: profile, salt: salt, iterations: dependencies.configuration.pinKeyIterations, publicKey: key.publicKey,
            authorization: try authorize(nonce, key.publicKey))
        _ = try await service.enrolPin(enrolment, accessToken: accessToken, proofKey: proofKey)
        return key
    }

    /// A v1 login: the v1 proof, then (once accepted) the upgrade to v2 with the same PIN. An
    /// upgrade that fails is logged and tried again at the next login; the login stands.
    /// `proofKey` (the profile's DPoP key, when it has one) binds the login's tokens as a v2
    /// login's are, and proves their use at the upgrade's enrolment.
    nonisolated(nonsending) func checkLegacyPin(_ pin: Redacted<String>, for profile: UserProfile, challenge: PinLoginChallenge, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinCheck
    {
        let legacyKey = try LegacyPinProof.derivedKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations)
        let proof = LegacyPinProof.proof(key: legacyKey, profile: profile, nonce: challenge.nonce)
        let verdict = try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce, proofKey: proofKey)
        guard case .accepted(let tokens) = verdict else { return PinCheck(verdict, key: .v1(legacyKey)) }
        do throws(IdentityFlowError) {
            let deviceSecret = try PinProof.newDeviceSecret()
            let upgradeKey = try Self.accessProofKey(for: tokens, key: proofKey)
            let key = try await enrol(pin, for: profile, deviceSecret: deviceSecret, accessToken: tokens.accessToken, proofKey: upgradeKey) {
                nonce, publicKey in
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
