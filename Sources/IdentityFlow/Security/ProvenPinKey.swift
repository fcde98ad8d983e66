/// The key a proven PIN derived, held in memory only: while its flow needs it, and then for the
/// session it opened, so that the session can prove the PIN for a credential change (a PIN
/// change, a biometric, mobile or implicit authentication key, a biometric revocation, a
/// deregistration) without asking for it again. It is never stored; a logout forgets it.
package enum ProvenPinKey: Sendable, Hashable {
    /// A v2 PIN key: a P-256 private scalar.
    case v2(Redacted<[UInt8]>)
    /// A v1 profile's PBKDF2 key (its upgrade to v2 did not complete yet).
    case v1(Redacted<[UInt8]>)
    /// A device-mode session's vault key (`docs/device-authenticators.md`): it reseals the
    /// tokens when they change; it proves nothing to a server.
    case device(Redacted<[UInt8]>)
    /// No PIN key: the login was biometric.
    case none

    /// This key's proof over a fresh nonce and what it vouches for (`docs/pin-proof.md`).
    /// - Parameters:
    ///   - purpose: What the proof authorizes: a PIN change, a key registration, a revocation, a
    ///     deregistration.
    ///   - profile: The profile.
    ///   - nonce: A fresh challenge's nonce.
    ///   - publicKey: The new public key it vouches for; empty for a revocation or deregistration.
    /// - Returns: What the server checks.
    /// - Throws: ``ErrorCode/pinProofRequired`` when this key cannot vouch for it: a v1 key can
    ///   only authorize the upgrade to a v2 PIN key, and a biometric login none.
    package func authorization(
        for purpose: PinProof.Purpose, profile: UserProfile, nonce: [UInt8],
        publicKey: [UInt8] = []
    ) throws(IdentityFlowError) -> PinKeyAuthorization {
        switch (self, purpose) {
        case (.v2(let scalar), _):
            guard let key = DeviceKey(privateKey: scalar) else {
                throw IdentityFlowError(.unknown, "The PIN key is not a valid P-256 key.")
            }
            return PinKeyAuthorization(nonce: nonce, proof: key.sign(PinProof.message(purpose.rawValue, profile: profile, nonce: nonce, subject: publicKey)))
        case (.v1(let key), .change):
            return PinKeyAuthorization(nonce: nonce, proof: LegacyPinProof.upgradeProof(key: key, profile: profile, nonce: nonce, publicKey: publicKey))
        case (.v1, _), (.none, _):
            throw proofRequired
        case (.device, _):
            throw Self.serverAuthenticatorsRequired
        }
    }

    /// Why this key cannot prove the PIN for a credential change other than a v1 upgrade
    /// (``ErrorCode/pinProofRequired``).
    package var proofRequired: IdentityFlowError {
        switch self {
        case .v1:
            IdentityFlowError(.pinProofRequired, "This profile's PIN key is not upgraded to PIN proof v2 yet: log in with the PIN once more, then try again.")
        case .device:
            Self.serverAuthenticatorsRequired
        case .v2, .none:
            IdentityFlowError(
                .pinProofRequired,
                "This change needs a proof by the PIN key, which only a session opened with the PIN holds: log in with the PIN, then try again.")
        }
    }

    /// A server proof asked of a device-mode session.
    package static let serverAuthenticatorsRequired = IdentityFlowError(
        .serverAuthenticatorsRequired, "This needs authenticators on the server; this client keeps them on the device (ClientConfiguration.authenticators).")

    /// The vault key of a device-mode session, if this is one.
    package var vaultKey: Redacted<[UInt8]>? {
        if case .device(let key) = self { key } else { nil }
    }

    /// Whether the key can prove the PIN for any credential change (a v2 key).
    package var provesPin: Bool {
        if case .v2 = self { true } else { false }
    }
}
