/// Asks the host for the PIN of ``userProfile``, to log in, to confirm a PIN change, or to
/// register biometrics.
///
/// A wrong PIN brings the challenge back with ``error`` ``ErrorCode/invalidPin`` and updated
/// counters; a network error brings it back with the counters untouched. When no attempts
/// remain the profile is deregistered and the flow fails with ``ErrorCode/userDeregistered``.
/// Answer through ``sender``; keep a reference until you answer.
public final class PinChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The profile the PIN belongs to.
    public let userProfile: UserProfile
    /// The server's counters.
    public let counters: PinCounters
    /// Why the previous answer failed (9009, 9030, 9000, 9001); `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any PinChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - userProfile: The profile.
    ///   - counters: The server's counters.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    public convenience init(userProfile: UserProfile, counters: PinCounters, error: IdentityFlowError? = nil, sender: any PinChallengeSender) {
        self.init(userProfile: userProfile, counters: counters, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        userProfile: UserProfile, counters: PinCounters, error: IdentityFlowError?, sender: any PinChallengeSender,
        releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.userProfile = userProfile
        self.counters = counters
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no URL query, data or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Wrong PINs in a row the server accepts.
    public var maxFailureCount: Int { counters.maxFailureCount }
    /// Wrong PINs so far.
    public var previousFailureCount: Int { counters.previousFailureCount }
    /// Attempts left.
    public var remainingFailureCount: Int { counters.remainingFailureCount }

    /// Names the profile, counters and error code.
    public var description: String {
        "PinChallenge(\(userProfile.profileId), \(counters)\(error.map { ", error: \($0.code)" } ?? ""))"
    }
}

/// Answers a ``PinChallenge``. The first answer wins.
public protocol PinChallengeSender: Sendable {
    /// Sends the PIN. It is turned into a proof on the device; it is never stored, sent or logged.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(with pin: String, to challenge: PinChallenge) -> Bool
    /// Cancels the flow; it fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: PinChallenge) -> Bool
}
