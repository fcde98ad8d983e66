/// Asks the host for the registration attributes the provider still needs after the browser
/// step (Zephr's partial registration): show a form for ``identifier``'s account and answer with
/// the attributes. A refusal (``ErrorCode/userAlreadyExists``, ``ErrorCode/emailDomainBlocked``,
/// ``ErrorCode/registrationDataInvalid``) brings the challenge back with ``error``. Keep a
/// reference until you answer.
public final class PartialRegistrationChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The provider.
    public let identityProvider: IdentityProvider
    /// What the provider knows the user by (an e-mail address, say).
    public let identifier: String
    /// Why the previous attributes were refused; `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any PartialRegistrationChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - identityProvider: The provider.
    ///   - identifier: The identifier the provider knows.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    public convenience init(
        identityProvider: IdentityProvider, identifier: String, error: IdentityFlowError? = nil, sender: any PartialRegistrationChallengeSender
    ) {
        self.init(identityProvider: identityProvider, identifier: identifier, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        identityProvider: IdentityProvider, identifier: String, error: IdentityFlowError?, sender: any PartialRegistrationChallengeSender,
        releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.identityProvider = identityProvider
        self.identifier = identifier
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no identifier or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the provider and the error code (the identifier is personal data: left out).
    public var description: String {
        "PartialRegistrationChallenge(\(identityProvider.identifier)\(error.map { ", error: \($0.code)" } ?? ""))"
    }
}

/// Answers a ``PartialRegistrationChallenge``. The first answer wins.
public protocol PartialRegistrationChallengeSender: Sendable {
    /// Sends the missing registration attributes.
    /// - Parameters:
    ///   - attributes: Attribute names and values, as the provider defines them.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(with attributes: [String: String], to challenge: PartialRegistrationChallenge) -> Bool
    /// Cancels the registration; the flow fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: PartialRegistrationChallenge) -> Bool
}
