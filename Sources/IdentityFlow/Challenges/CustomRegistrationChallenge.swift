/// Asks the host for custom registration data, at the init step (optional initial data) or the
/// finish step (the registration data; ``info`` carries the server's last answer).
///
/// After a 4000-4999 answer the same step's challenge comes back with ``info`` and ``error`` set,
/// and the user may try again. Answer through ``sender``; keep a reference until you answer.
public final class CustomRegistrationChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// Which step asks.
    public let step: CustomRegistrationStep
    /// The profile being registered.
    public let userProfile: UserProfile
    /// The custom provider.
    public let identityProvider: IdentityProvider
    /// The server's last answer: the init answer at the finish step, or the answer to retry.
    public let info: CustomInfo?
    /// Why the previous answer failed (a 4000-4999 status); `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any CustomRegistrationChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - step: Init or finish.
    ///   - userProfile: The profile being registered.
    ///   - identityProvider: The provider.
    ///   - info: The server's last answer.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    public convenience init(
        step: CustomRegistrationStep, userProfile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo? = nil, error: IdentityFlowError? = nil,
        sender: any CustomRegistrationChallengeSender
    ) {
        self.init(step: step, userProfile: userProfile, identityProvider: identityProvider, info: info, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        step: CustomRegistrationStep, userProfile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?, error: IdentityFlowError?,
        sender: any CustomRegistrationChallengeSender, releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.step = step
        self.userProfile = userProfile
        self.identityProvider = identityProvider
        self.info = info
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no URL query, data or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the step, provider, status and error code; the data is left out.
    public var description: String {
        var text = "CustomRegistrationChallenge(\(step), \(identityProvider.identifier)"
        if let info { text += ", status: \(info.status)" }
        if let error { text += ", error: \(error.code)" }
        return text + ")"
    }
}

/// The step of a custom registration a ``CustomRegistrationChallenge`` belongs to.
public enum CustomRegistrationStep: String, Sendable, Hashable, CustomStringConvertible {
    /// The first step of a two-step registration: optional initial data.
    case initialization
    /// The last step: the registration data.
    case finish

    /// `init` or `finish`.
    public var description: String { self == .initialization ? "init" : "finish" }
}

/// Answers a ``CustomRegistrationChallenge``. The first answer wins.
public protocol CustomRegistrationChallengeSender: Sendable {
    /// Sends the data (it is treated as a secret and never logged).
    /// - Parameters:
    ///   - data: The registration data, or `nil` for none.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(with data: String?, to challenge: CustomRegistrationChallenge) -> Bool
    /// Cancels the registration; the flow fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: CustomRegistrationChallenge) -> Bool
}
