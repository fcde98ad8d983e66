/// PIN proof v1, kept to log in v1 profiles once and upgrade them to v2 (`docs/pin-proof.md`,
/// "Migration from v1"): the key is `PBKDF2-HMAC-SHA256(PIN, salt, iterations, 32)`, the
/// server's verifier, and the proof an HMAC with it. v2 uses the same stretch as its first step.
package enum LegacyPinProof {
    /// The length of the derived key, in bytes.
    package static let keyLength = 32
    private static let context = Array("identityflow-pin-proof-v1".utf8)

    /// `PBKDF2-HMAC-SHA256(UTF-8 PIN, salt, iterations, 32)`.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - salt: The salt.
    ///   - iterations: The iteration count.
    /// - Returns: The key.
    /// - Throws: ``ErrorCode/configurationInvalid`` for invalid parameters.
    package static func derivedKey(pin: Redacted<String>, salt: [UInt8], iterations: Int) throws(IdentityFlowError) -> Redacted<[UInt8]> {
        do {
            return Redacted(try KeyDerivation.pbkdf2SHA256(password: Array(pin.value.utf8), salt: salt, iterations: iterations, keyLength: keyLength))
        } catch {
            throw IdentityFlowError(.configurationInvalid, "The PIN key derivation parameters are invalid.", underlying: error)
        }
    }

    /// `HMAC-SHA256(key, "identityflow-pin-proof-v1" ‖ 0x00 ‖ UTF-8 profile id ‖ 0x00 ‖ nonce)`.
    /// - Parameters:
    ///   - key: The derived key (or, on the server, the stored verifier).
    ///   - profile: The profile logging in.
    ///   - nonce: The server's nonce.
    /// - Returns: The proof.
    package static func proof(key: Redacted<[UInt8]>, profile: UserProfile, nonce: [UInt8]) -> Redacted<[UInt8]> {
        Redacted(Hashing.hmacSHA256(key: key.value, message: context + [0] + Array(profile.profileId.utf8) + [0] + nonce))
    }

    /// The upgrade's proof: `HMAC-SHA256(key, message("identityflow-pin-upgrade-v2", profile, nonce, new public key))`.
    /// - Parameters:
    ///   - key: The v1 key.
    ///   - profile: The profile.
    ///   - nonce: A fresh challenge's nonce.
    ///   - publicKey: The v2 PIN public key the v1 key vouches for.
    /// - Returns: The proof.
    package static func upgradeProof(key: Redacted<[UInt8]>, profile: UserProfile, nonce: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        Hashing.hmacSHA256(key: key.value, message: PinProof.message("identityflow-pin-upgrade-v2", profile: profile, nonce: nonce, subject: publicKey))
    }

    /// Compares two proofs in time that does not depend on where they differ.
    /// - Parameters:
    ///   - lhs: One proof.
    ///   - rhs: The other.
    /// - Returns: Whether they are equal.
    package static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
