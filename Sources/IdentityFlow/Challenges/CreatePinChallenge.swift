/// Asks the host for a new PIN of ``pinLength`` digits.
///
/// A PIN that breaks the ``PinPolicy`` brings the challenge back with ``error`` set
/// (9011-9014); creation attempts are unlimited and never count as failures. Answer through
/// ``sender``; keep a reference until you answer.
public final class CreatePinChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The profile the PIN is for.
    public let userProfile: UserProfile
    /// The number of digits the PIN must have.
    public let pinLength: Int
    /// Why the previous PIN was refused; `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any CreatePinChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - userProfile: The profile.
    ///   - pinLength: The required number of digits.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    public convenience init(userProfile: UserProfile, pinLength: Int, error: IdentityFlowError? = nil, sender: any CreatePinChallengeSender) {
        self.init(userProfile: userProfile, pinLength: pinLength, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        userProfile: UserProfile, pinLength: Int, error: IdentityFlowError?, sender: any CreatePinChallengeSender,
        releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.userProfile = userProfile
        self.pinLength = pinLength
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no URL query, data or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the profile, length and error code.
    public var description: String {
        "CreatePinChallenge(\(userProfile.profileId), length: \(pinLength)\(error.map { ", error: \($0.code)" } ?? ""))"
    }
}

/// Answers a ``CreatePinChallenge``. The first answer wins.
public protocol CreatePinChallengeSender: Sendable {
    /// Sends the new PIN. It is checked against the policy on the device and never stored or logged.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(with pin: String, to challenge: CreatePinChallenge) -> Bool
    /// Cancels the flow; it fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: CreatePinChallenge) -> Bool
}
