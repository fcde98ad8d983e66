/// The PIN proof protocol (`docs/pin-proof.md`): the PIN never leaves the device. At enrolment
/// the server receives a verifier derived from the PIN; at login the device proves it knows the
/// PIN with an HMAC over a fresh server nonce. Servers written in Swift use the same functions.
package enum PinProof {
    /// The length of the derived key, in bytes.
    package static let keyLength = 32
    /// The length of the enrolment salt, in bytes.
    package static let saltLength = 16
    private static let context = Array("identityflow-pin-proof-v1".utf8)

    /// A fresh enrolment: a random salt and `PBKDF2-HMAC-SHA256(PIN, salt, iterations, 32)`.
    /// - Parameters:
    ///   - profile: The profile the PIN belongs to.
    ///   - pin: The PIN.
    ///   - iterations: The PBKDF2 iteration count.
    /// - Returns: What the server stores.
    /// - Throws: ``ErrorCode/configurationInvalid`` for invalid parameters.
    package static func enrolment(for profile: UserProfile, pin: Redacted<String>, iterations: Int) throws(IdentityFlowError) -> PinEnrolment {
        let salt: [UInt8]
        do { salt = try SecureRandom.bytes(count: saltLength) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        let key = try derivedKey(pin: pin, salt: salt, iterations: iterations)
        return PinEnrolment(profile: profile, salt: salt, iterations: iterations, verifier: key.value)
    }

    /// `PBKDF2-HMAC-SHA256(UTF-8 PIN, salt, iterations, 32)`.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - salt: The enrolment salt.
    ///   - iterations: The iteration count.
    /// - Returns: The key (the verifier).
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
