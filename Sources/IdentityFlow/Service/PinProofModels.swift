/// What the device sends to enrol a PIN: a verifier derived from it, never the PIN itself.
/// See `docs/pin-proof.md` for the protocol.
public struct PinEnrolment: Sendable, Hashable, CustomStringConvertible {
    /// The profile the PIN belongs to.
    public let profile: UserProfile
    /// The random salt of the derivation.
    public let salt: [UInt8]
    /// The PBKDF2 iteration count.
    public let iterations: Int
    /// `PBKDF2-HMAC-SHA256(PIN, salt, iterations, 32)`: password-equivalent, so redacted.
    public let verifier: Redacted<[UInt8]>

    /// Creates an enrolment.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - salt: The salt.
    ///   - iterations: The iteration count.
    ///   - verifier: The derived key.
    public init(profile: UserProfile, salt: [UInt8], iterations: Int, verifier: [UInt8]) {
        self.profile = profile
        self.salt = salt
        self.iterations = iterations
        self.verifier = Redacted(verifier)
    }

    /// Names the profile; the verifier prints redacted.
    public var description: String { "PinEnrolment(\(profile), iterations: \(iterations), verifier: <redacted>)" }
}

/// The server's answer to a PIN enrolment.
public struct PinEnrolmentReceipt: Sendable, Hashable {
    /// How many wrong PINs in a row the server accepts before it deregisters the user.
    public let maxFailureCount: Int

    /// Creates a receipt.
    /// - Parameter maxFailureCount: The server's limit.
    public init(maxFailureCount: Int) { self.maxFailureCount = maxFailureCount }
}

/// What the server hands out before a PIN login: a fresh nonce and the derivation parameters.
public struct PinLoginChallenge: Sendable, Hashable {
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

    /// Creates a challenge.
    /// - Parameters:
    ///   - nonce: The nonce.
    ///   - salt: The salt.
    ///   - iterations: The iteration count.
    ///   - maxFailureCount: The limit.
    ///   - failureCount: Failures so far.
    public init(nonce: [UInt8], salt: [UInt8], iterations: Int, maxFailureCount: Int, failureCount: Int) {
        self.nonce = nonce
        self.salt = salt
        self.iterations = iterations
        self.maxFailureCount = maxFailureCount
        self.failureCount = failureCount
    }
}

/// The server's verdict on a PIN proof.
public enum PinVerification: Sendable, Hashable {
    /// The PIN was right: fresh tokens.
    case accepted(TokenSet)
    /// The PIN was wrong and attempts remain.
    case rejected(failureCount: Int, maxFailureCount: Int)
    /// The PIN was wrong for the last allowed time: the server removed the user.
    case deregistered
}
