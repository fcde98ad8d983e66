/// PIN proof v2 (`docs/pin-proof.md`): the PIN never leaves the device, and nothing the device
/// or the server stores lets anyone test a PIN offline. The PIN key is a P-256 key derived from
/// the PIN *and* a random device secret; the server holds only its public key and checks
/// signatures over its single-use nonces. Servers written in Swift use the same functions.
package enum PinProof {
    /// The length of the enrolment salt the client draws, in bytes.
    package static let saltLength = 16
    /// The length of the device secret, in bytes (256 bits).
    package static let deviceSecretLength = 32
    /// Salt lengths the client accepts from a server's challenge, in bytes.
    package static let acceptedSaltLengths = 16...64
    /// Nonce lengths the client accepts from a server's challenge, in bytes.
    package static let acceptedNonceLengths = 16...64

    /// What a signature is for; each purpose signs under its own versioned label.
    package enum Purpose: String, Sendable {
        /// A PIN login, signed by the PIN key.
        case login = "identityflow-pin-proof-v2"
        /// A PIN change: the current PIN key vouches for the new public key.
        case change = "identityflow-pin-change-v2"
        /// A biometric enrolment: the PIN key vouches for the biometric public key.
        case biometricEnrolment = "identityflow-biometric-enrol-v2"
        /// A biometric login, signed by the biometric key.
        case biometricLogin = "identityflow-biometric-proof-v2"
        /// Registering or replacing the mobile authentication key: the PIN key vouches for it.
        case mobileAuthEnrolment = "identityflow-mobile-auth-enrol-v2"
        /// Registering or replacing the implicit authentication key: the PIN key vouches for it.
        case implicitEnrolment = "identityflow-implicit-enrol-v2"
        /// Revoking the biometric key on the server (no subject).
        case biometricRevocation = "identityflow-biometric-revoke-v2"
        /// Deregistering the profile on the server (no subject).
        case deregistration = "identityflow-deregister-v2"
    }

    /// `UTF-8(label) ‖ 0x00 ‖ UTF-8(profile id) ‖ 0x00 ‖ nonce ‖ subject`.
    /// - Parameters:
    ///   - label: The purpose's label.
    ///   - profile: The profile.
    ///   - nonce: The server's nonce.
    ///   - subject: The public key vouched for, or empty.
    /// - Returns: The bytes to sign.
    package static func message(_ label: String, profile: UserProfile, nonce: [UInt8], subject: [UInt8] = []) -> [UInt8] {
        Array(label.utf8) + [0] + Array(profile.profileId.utf8) + [0] + nonce + subject
    }

    /// A fresh device secret from the system's secure generator.
    /// - Throws: ``ErrorCode/unknown`` if the generator fails.
    package static func newDeviceSecret() throws(IdentityFlowError) -> Redacted<[UInt8]> {
        Redacted(try randomBytes(deviceSecretLength))
    }

    /// The PIN key: `PBKDF2-HMAC-SHA256(PIN, salt, iterations, 32)` stretched, then HKDF-SHA256
    /// with the device secret as salt and the profile in `info`, reduced to a P-256 scalar.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - salt: The enrolment salt.
    ///   - iterations: The PBKDF2 iteration count.
    ///   - deviceSecret: The profile's device secret.
    ///   - profile: The profile.
    /// - Returns: The key pair.
    /// - Throws: ``ErrorCode/configurationInvalid`` for invalid parameters.
    package static func pinKey(
        pin: Redacted<String>, salt: [UInt8], iterations: Int, deviceSecret: Redacted<[UInt8]>,
        profile: UserProfile
    ) throws(IdentityFlowError) -> DeviceKey {
        let stretched = try LegacyPinProof.derivedKey(pin: pin, salt: salt, iterations: iterations)
        let material = HKDF.sha256(
            inputKeyMaterial: stretched.value, salt: deviceSecret.value,
            info: Array("identityflow-pin-key-v2".utf8) + [0] + Array(profile.profileId.utf8),
            outputLength: DeviceKey.keyMaterialLength)
        return DeviceKey(keyMaterial: material)
    }

    /// A new PIN key with a fresh salt, for an enrolment.
    /// - Parameters:
    ///   - pin: The new PIN.
    ///   - iterations: The PBKDF2 iteration count.
    ///   - deviceSecret: The profile's device secret.
    ///   - profile: The profile.
    /// - Returns: The salt to send and the key (whose public half is sent).
    package static func newPinKey(
        pin: Redacted<String>, iterations: Int, deviceSecret: Redacted<[UInt8]>,
        profile: UserProfile
    ) throws(IdentityFlowError) -> (salt: [UInt8], key: DeviceKey) {
        let salt = try randomBytes(saltLength)
        return (salt, try pinKey(pin: pin, salt: salt, iterations: iterations, deviceSecret: deviceSecret, profile: profile))
    }

    /// Why the client refuses a server's challenge before deriving anything, or `nil` when it
    /// accepts it: a protocol version the profile does not speak, a nonce of a length outside the
    /// accepted ones and, when a PIN key will be derived, iterations outside `iterations` or a
    /// salt of an unusual length.
    /// - Parameters:
    ///   - challenge: The server's challenge.
    ///   - iterations: The iteration counts the client accepts, or `nil` when no PIN key is derived
    ///     (a biometric login), so neither they nor the salt matter.
    ///   - version: The version the profile speaks (2 once it has a device secret).
    /// - Returns: ``ErrorCode/pinParametersRefused`` naming the parameter, or `nil`.
    package static func refusal(of challenge: PinLoginChallenge, iterations: ClosedRange<Int>?, version: Int) -> IdentityFlowError? {
        func refuse(_ reason: String) -> IdentityFlowError { IdentityFlowError(.pinParametersRefused, "The server's PIN challenge was refused: \(reason).") }
        if challenge.version != version {
            return refuse("it asks for PIN proof v\(challenge.version), and this profile speaks v\(version)")
        }
        if !acceptedNonceLengths.contains(challenge.nonce.count) { return refuse("a \(challenge.nonce.count)-byte nonce") }
        guard let iterations else { return nil }
        if !iterations.contains(challenge.iterations) {
            return refuse("\(challenge.iterations) iterations is outside \(iterations.lowerBound)...\(iterations.upperBound)")
        }
        if !acceptedSaltLengths.contains(challenge.salt.count) { return refuse("a \(challenge.salt.count)-byte salt") }
        return nil
    }

    static func randomBytes(_ count: Int) throws(IdentityFlowError) -> [UInt8] {
        do { return try SecureRandom.bytes(count: count) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
    }
}
