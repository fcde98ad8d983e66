/// Asks the host for a login and password (a native login form, 7Pass style). A wrong pair brings
/// the challenge back with ``ErrorCode/invalidCredentials``. Keep a reference until you answer.
public final class CredentialsChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The provider the user signs in with.
    public let identityProvider: IdentityProvider
    /// Why the previous answer failed; `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any CredentialsChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - identityProvider: The provider.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    public convenience init(identityProvider: IdentityProvider, error: IdentityFlowError? = nil, sender: any CredentialsChallengeSender) {
        self.init(identityProvider: identityProvider, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        identityProvider: IdentityProvider, error: IdentityFlowError?, sender: any CredentialsChallengeSender, releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.identityProvider = identityProvider
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the provider and the error code.
    public var description: String {
        "CredentialsChallenge(\(identityProvider.identifier)\(error.map { ", error: \($0.code)" } ?? ""))"
    }
}

/// Answers a ``CredentialsChallenge``. The first answer wins.
public protocol CredentialsChallengeSender: Sendable {
    /// Sends the login and password.
    /// - Parameters:
    ///   - login: The login (an e-mail address, say).
    ///   - password: The password; never logged.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func respond(withLogin login: String, password: String, to challenge: CredentialsChallenge) -> Bool
    /// Cancels the registration; the flow fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: CredentialsChallenge) -> Bool
}

/// A login and password, as a credentials challenge's answer (the password redacted).
package struct LoginCredentials: Sendable, Hashable {
    /// The login.
    package let login: String
    /// The password.
    package let password: Redacted<String>

    /// A login and password.
    package init(login: String, password: Redacted<String>) {
        self.login = login
        self.password = password
    }
}
