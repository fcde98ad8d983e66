/// The key a proven PIN derived, held in memory only while its flow needs it: a PIN change
/// authorizes the new key with it, a biometric registration the biometric key.
package enum ProvenPinKey: Sendable, Hashable {
    /// A v2 PIN key: a P-256 private scalar.
    case v2(Redacted<[UInt8]>)
    /// A v1 profile's PBKDF2 key (its upgrade to v2 did not complete yet).
    case v1(Redacted<[UInt8]>)
    /// No PIN key: the login was biometric.
    case none

    /// This key's proof over a fresh nonce and the public key it vouches for (`docs/pin-proof.md`).
    /// - Parameters:
    ///   - purpose: ``PinProof/Purpose/change`` or ``PinProof/Purpose/biometricEnrolment``.
    ///   - profile: The profile.
    ///   - nonce: A fresh challenge's nonce.
    ///   - publicKey: The new PIN public key, or the biometric public key.
    /// - Returns: What the server checks.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered`` when this key cannot vouch for it: a v1
    ///   key can only authorize the upgrade to a v2 PIN key, and a biometric login none.
    package func authorization(for purpose: PinProof.Purpose, profile: UserProfile, nonce: [UInt8],
                               publicKey: [UInt8]) throws(IdentityFlowError) -> PinKeyAuthorization {
        switch (self, purpose) {
        case (.v2(let scalar), _):
            guard let key = DeviceKey(privateKey: scalar) else {
                throw IdentityFlowError(.unknown, "The PIN key is not a valid P-256 key.")
            }
            return PinKeyAuthorization(nonce: nonce, proof: key.sign(PinProof.message(purpose.rawValue, profile: profile, nonce: nonce, subject: publicKey)))
        case (.v1(let key), .change):
            return PinKeyAuthorization(nonce: nonce, proof: LegacyPinProof.upgradeProof(key: key, profile: profile, nonce: nonce, publicKey: publicKey))
        default:
            throw IdentityFlowError(.authenticatorNotRegistered, "This profile's PIN key is not upgraded to PIN proof v2 yet: log in with the PIN once, then register biometrics.")
        }
    }
}
