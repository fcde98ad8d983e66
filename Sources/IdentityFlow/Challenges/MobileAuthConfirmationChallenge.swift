/// Asks the user to accept or deny a ``MobileAuthRequest``: show ``request``'s message and
/// answer with ``MobileAuthConfirmationChallengeSender/respond(with:to:)``.
///
/// Denying ends the flow with a denied ``MobileAuthResult`` (not an error). Accepting a request
/// of type ``MobileAuthType/pin`` or ``MobileAuthType/biometric`` continues with a
/// ``PinChallenge`` or ``BiometricChallenge``. The challenge ends with
/// ``ErrorCode/mobileAuthRequestExpired`` when the request expires first. Keep a reference until you answer.
public final class MobileAuthConfirmationChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The request to confirm.
    public let request: MobileAuthRequest
    /// Takes the host's answer.
    public let sender: any MobileAuthConfirmationChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// The profile asked to confirm.
    public var userProfile: UserProfile { request.userProfile }

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - request: The request.
    ///   - sender: Receives the answer.
    public convenience init(request: MobileAuthRequest, sender: any MobileAuthConfirmationChallengeSender) {
        self.init(request: request, sender: sender, releaseObserver: nil)
    }

    init(request: MobileAuthRequest, sender: any MobileAuthConfirmationChallengeSender, releaseObserver: (any ChallengeReleaseObserver)?) {
        self.request = request
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no message or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the request.
    public var description: String { "MobileAuthConfirmationChallenge(\(request.id), \(request.userProfile.profileId))" }
}

/// Answers a ``MobileAuthConfirmationChallenge``. The first answer wins.
public protocol MobileAuthConfirmationChallengeSender: Sendable {
    /// Accepts or denies the request.
    /// - Parameters:
    ///   - accepted: `true` to accept, `false` to deny.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(with accepted: Bool, to challenge: MobileAuthConfirmationChallenge) -> Bool
    /// Cancels the flow without answering the server (the request stays open until it expires);
    /// it fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: MobileAuthConfirmationChallenge) -> Bool
}
