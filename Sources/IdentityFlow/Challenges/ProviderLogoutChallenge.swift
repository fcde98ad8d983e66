import Foundation

/// Asks the host to open the provider's logout page (``url``) in the browser the user signed in
/// with, and hand back the redirect to ``postLogoutRedirectURI``.
///
/// Open it in the same browser session as the sign-in (not an ephemeral one): the provider ends
/// the session its cookies name. Answer through ``sender``: `respond(with: redirectURL, to:
/// challenge)`, or hand the redirect to ``UserClient/handleRedirect(_:)``; `cancel(challenge)`
/// when the user closed the browser. The user is logged out on the device whatever the answer.
/// Keep a reference until you answer: a challenge released unanswered counts as a cancel.
public final class ProviderLogoutChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The profile whose session ends.
    public let userProfile: UserProfile
    /// The provider's logout page: its `end_session_endpoint` with `id_token_hint`,
    /// `post_logout_redirect_uri` and `state`.
    public let url: URL
    /// Where the provider sends the browser back (register it with the provider for the client).
    public let postLogoutRedirectURI: URL
    /// Takes the host's answer.
    public let sender: any ProviderLogoutChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - userProfile: The profile.
    ///   - url: The logout page.
    ///   - postLogoutRedirectURI: Where the browser comes back.
    ///   - sender: Receives the answer.
    public convenience init(userProfile: UserProfile, url: URL, postLogoutRedirectURI: URL, sender: any ProviderLogoutChallengeSender) {
        self.init(userProfile: userProfile, url: url, postLogoutRedirectURI: postLogoutRedirectURI, sender: sender, releaseObserver: nil)
    }

    init(
        userProfile: UserProfile, url: URL, postLogoutRedirectURI: URL, sender: any ProviderLogoutChallengeSender,
        releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.userProfile = userProfile
        self.url = url
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Shows the description only, so `dump` reveals no URL query (it carries the ID token).
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the profile; the URL is left out (it carries the ID token and the state).
    public var description: String { "ProviderLogoutChallenge(\(userProfile))" }
}

/// Answers a ``ProviderLogoutChallenge``. The first answer wins.
public protocol ProviderLogoutChallengeSender: Sendable {
    /// Hands back the URL the provider redirected the browser to.
    /// - Parameters:
    ///   - redirectURL: The full redirect URL, with its query.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended; nothing changes then.
    @discardableResult func respond(with redirectURL: URL, to challenge: ProviderLogoutChallenge) -> Bool
    /// The browser was closed: the user stays logged out on the device, the provider's session
    /// may remain (``ErrorCode/providerLogoutUnconfirmed``).
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: ProviderLogoutChallenge) -> Bool
}
