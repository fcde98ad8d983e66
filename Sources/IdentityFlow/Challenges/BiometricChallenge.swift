/// Asks the host to confirm the user with biometrics. The host plays the sensor: on Apple
/// platforms it evaluates a `LAContext`; in tests it answers directly.
///
/// Confirming logs in with the key stored for biometrics; a failure (``BiometricChallengeSender/reportFailure(for:)``
/// or a key the server no longer accepts) falls back to a ``PinChallenge`` carrying
/// ``ErrorCode/biometricAuthenticatorFailure``. Keep a reference until you answer.
public final class BiometricChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The profile logging in.
    public let userProfile: UserProfile
    /// The biometric authenticator.
    public let authenticator: Authenticator
    /// Takes the host's answer.
    public let sender: any BiometricChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - userProfile: The profile.
    ///   - authenticator: The authenticator.
    ///   - sender: Receives the answer.
    public convenience init(userProfile: UserProfile, authenticator: Authenticator = .biometric, sender: any BiometricChallengeSender) {
        self.init(userProfile: userProfile, authenticator: authenticator, sender: sender, releaseObserver: nil)
    }

    init(userProfile: UserProfile, authenticator: Authenticator, sender: any BiometricChallengeSender, releaseObserver: (any ChallengeReleaseObserver)?) {
        self.userProfile = userProfile
        self.authenticator = authenticator
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no URL query, data or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the profile.
    public var description: String { "BiometricChallenge(\(userProfile.profileId))" }
}

/// Answers a ``BiometricChallenge``. The first answer wins.
public protocol BiometricChallengeSender: Sendable {
    /// The sensor confirmed the user.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(to challenge: BiometricChallenge) -> Bool
    /// The user chose to enter the PIN instead; a ``PinChallenge`` follows with no error.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respondWithPinFallback(to challenge: BiometricChallenge) -> Bool
    /// The sensor refused the user; a ``PinChallenge`` follows carrying ``ErrorCode/biometricAuthenticatorFailure``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func reportFailure(for challenge: BiometricChallenge) -> Bool
    /// Cancels the flow; it fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: BiometricChallenge) -> Bool
}

/// What the host, playing the biometric sensor, answered at a ``BiometricChallenge``.
public enum BiometricAnswer: Sendable, Hashable {
    /// The sensor confirmed the user.
    case confirmed
    /// The user chose the PIN instead.
    case pinFallback
    /// The sensor refused the user.
    case failed
}
