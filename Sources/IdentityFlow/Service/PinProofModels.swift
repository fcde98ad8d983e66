/// What the device sends to enrol a PIN (PIN proof v2, `docs/pin-proof.md`): the public key
/// derived from the PIN and the device secret, never the PIN, the private key or anything a PIN
/// could be tested against.
@_spi(Integrator) public struct PinEnrolment: Sendable, Hashable, CustomStringConvertible {
    /// The profile the PIN belongs to.
    public let profile: UserProfile
    /// The random salt of the PBKDF2 stretch.
    public let salt: [UInt8]
    /// The PBKDF2 iteration count.
    public let iterations: Int
    /// The PIN public key: a SEC1 uncompressed P-256 point (65 bytes).
    public let publicKey: [UInt8]
    /// For a profile that already has a PIN (a PIN change, or the upgrade of a v1 profile): the
    /// proof by the current PIN key that the server requires. `nil` for a first enrolment.
    public let authorization: PinKeyAuthorization?

    /// Creates an enrolment.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - salt: The salt.
    ///   - iterations: The iteration count.
    ///   - publicKey: The PIN public key.
    ///   - authorization: The current key's proof, for a re-enrolment.
    public init(profile: UserProfile, salt: [UInt8], iterations: Int, publicKey: [UInt8], authorization: PinKeyAuthorization? = nil) {
        self.profile = profile
        self.salt = salt
        self.iterations = iterations
        self.publicKey = publicKey
        self.authorization = authorization
    }

    /// Names the profile and whether the enrolment is authorized by a current key.
    public var description: String {
        "PinEnrolment(\(profile), iterations: \(iterations), \(authorization == nil ? "first" : "authorized re-enrolment"))"
    }
}

/// A proof by a key the server already holds (the current PIN key), over a fresh challenge's
/// nonce and the new public key it vouches for.
@_spi(Integrator) public struct PinKeyAuthorization: Sendable, Hashable, CustomStringConvertible {
    /// The nonce of the challenge the proof covers (single use).
    public let nonce: [UInt8]
    /// The signature (ECDSA r‖s, 64 bytes) or, upgrading a v1 profile, the v1 HMAC (32 bytes).
    public let proof: Redacted<[UInt8]>

    /// Creates an authorization.
    /// - Parameters:
    ///   - nonce: The nonce.
    ///   - proof: The proof.
    public init(nonce: [UInt8], proof: [UInt8]) {
        self.nonce = nonce
        self.proof = Redacted(proof)
    }

    /// The proof prints redacted.
    public var description: String { "PinKeyAuthorization(proof: <redacted>)" }
}

/// The server's answer to a PIN enrolment.
@_spi(Integrator) public struct PinEnrolmentReceipt: Sendable, Hashable {
    /// How many wrong PINs in a row the server accepts before it deregisters the user.
    public let maxFailureCount: Int

    /// Creates a receipt.
    /// - Parameter maxFailureCount: The server's limit.
    public init(maxFailureCount: Int) { self.maxFailureCount = maxFailureCount }
}

/// What the server hands out before a PIN login: a fresh nonce and the derivation parameters.
@_spi(Integrator) public struct PinLoginChallenge: Sendable, Hashable {
    /// A single-use random value the proof must cover.
    public let nonce: [UInt8]
    /// The salt given at enrolment.
    public let salt: [UInt8]
    /// The iteration count given at enrolment.
    public let iterations: Int
    /// The server's limit of wrong PINs.
    public let maxFailureCount: Int
    /// Wrong PINs so far.
    public let failureCount: Int
    /// The profile's PIN proof version on the server: 2, or 1 for a profile enrolled with a v1
    /// verifier, which the client upgrades at its next successful login.
    public let version: Int

    /// Creates a challenge.
    /// - Parameters:
    ///   - nonce: The nonce.
    ///   - salt: The salt.
    ///   - iterations: The iteration count.
    ///   - maxFailureCount: The limit.
    ///   - failureCount: Failures so far.
    ///   - version: The PIN proof version (2 unless the profile is a v1 one).
    public init(nonce: [UInt8], salt: [UInt8], iterations: Int, maxFailureCount: Int, failureCount: Int, version: Int = 2) {
        self.nonce = nonce
        self.salt = salt
        self.iterations = iterations
        self.maxFailureCount = maxFailureCount
        self.failureCount = failureCount
        self.version = version
    }
}

/// The server's verdict on a PIN proof.
@_spi(Integrator) public enum PinVerification: Sendable, Hashable {
    /// The PIN was right: fresh tokens.
    case accepted(TokenSet)
    /// The PIN was wrong and attempts remain.
    case rejected(failureCount: Int, maxFailureCount: Int)
    /// The PIN was wrong for the last allowed time: the server removed the user.
    case deregistered
}
