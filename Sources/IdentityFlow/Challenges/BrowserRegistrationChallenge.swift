import Foundation

/// Asks the host to open ``url`` in a browser and hand back the redirect to the app's redirect URI.
///
/// Answer through ``sender``: `respond(with: redirectURL, to: challenge)` or `cancel(challenge)`.
/// Keep a reference until you answer: when every reference to an unanswered challenge is
/// released, the flow ends with ``ErrorCode/actionCancelled``.
public final class BrowserRegistrationChallenge: Sendable, CustomStringConvertible, CustomReflectable {
    /// The provider the user signs in with.
    public let identityProvider: IdentityProvider
    /// The page to open.
    public let url: URL
    /// The same request for an installed identity app (Grab-style app-to-app login), when the
    /// provider offers one and the request suits it. Open it instead of ``url`` if that app is
    /// installed; the redirect answers the challenge either way.
    public let appURL: URL?
    /// A URL whose scheme tells whether a version of the identity app that takes sign-ins is
    /// installed (Grab's `protocol_pax_ios`; list its scheme in `LSApplicationQueriesSchemes` and
    /// ask `canOpenURL`); `nil`: ask about ``appURL`` itself.
    public let appInstallationCheckURL: URL?
    /// Where to install the identity app when it is not installed (Grab's App Store link), when
    /// the host chose ``AppLoginFallback/appStore`` and the provider names one; `nil` otherwise.
    public let appStoreURL: URL?
    /// Whether to open ``url`` in an ephemeral browser session, without shared cookies (no single
    /// sign-on): `prefersEphemeralWebBrowserSession` of `ASWebAuthenticationSession`. From
    /// ``ClientConfiguration/prefersEphemeralBrowserSession``.
    public let prefersEphemeralSession: Bool
    /// Why the previous answer failed; `nil` the first time.
    public let error: IdentityFlowError?
    /// Takes the host's answer.
    public let sender: any BrowserRegistrationChallengeSender
    let releaseObserver: (any ChallengeReleaseObserver)?

    /// Creates a challenge with a sender of your own, for testing UI code.
    /// - Parameters:
    ///   - identityProvider: The provider.
    ///   - url: The page to open.
    ///   - error: The previous answer's error.
    ///   - sender: Receives the answer.
    ///   - appURL: The identity app's URL, if any.
    ///   - prefersEphemeralSession: Whether an ephemeral browser session is asked for.
    ///   - appInstallationCheckURL: The URL that tells whether the identity app is installed.
    ///   - appStoreURL: Where to install the identity app.
    public convenience init(
        identityProvider: IdentityProvider, url: URL, appURL: URL? = nil, prefersEphemeralSession: Bool = false,
        error: IdentityFlowError? = nil, sender: any BrowserRegistrationChallengeSender,
        appInstallationCheckURL: URL? = nil, appStoreURL: URL? = nil
    ) {
        self.init(
            identityProvider: identityProvider, url: url, appURL: appURL, appInstallationCheckURL: appInstallationCheckURL,
            appStoreURL: appStoreURL, prefersEphemeralSession: prefersEphemeralSession, error: error, sender: sender, releaseObserver: nil)
    }

    init(
        identityProvider: IdentityProvider, url: URL, appURL: URL? = nil, appInstallationCheckURL: URL? = nil, appStoreURL: URL? = nil,
        prefersEphemeralSession: Bool = false, error: IdentityFlowError?,
        sender: any BrowserRegistrationChallengeSender, releaseObserver: (any ChallengeReleaseObserver)?
    ) {
        self.identityProvider = identityProvider
        self.url = url
        self.appURL = appURL
        self.appInstallationCheckURL = appInstallationCheckURL
        self.appStoreURL = appStoreURL
        self.prefersEphemeralSession = prefersEphemeralSession
        self.error = error
        self.sender = sender
        self.releaseObserver = releaseObserver
    }

    deinit { releaseObserver?.challengeReleased() }

    /// Where to send the user, given whether the identity app is installed.
    public enum Destination: Sendable, Hashable {
        /// Open this URL (``url``) in a browser session.
        case browser(URL)
        /// Open the identity app at this URL (``appURL``); its redirect answers the challenge.
        case identityApp(URL)
        /// Send the user to install the identity app (``appStoreURL``). The challenge stays open:
        /// answer it later (the user may come back and sign in) or cancel it.
        case appStore(URL)
    }

    /// Where to send the user: the identity app when it is installed and offered, else the App
    /// Store page when the host chose ``AppLoginFallback/appStore`` and the provider names one,
    /// else the browser.
    ///
    /// ```swift
    /// let installed = UIApplication.shared.canOpenURL(challenge.appInstallationCheckURL ?? challenge.appURL ?? challenge.url)
    /// switch challenge.destination(identityAppInstalled: installed) {
    /// case .identityApp(let url), .appStore(let url): await UIApplication.shared.open(url)
    /// case .browser(let url): startWebAuthenticationSession(url, challenge)
    /// }
    /// ```
    /// - Parameter identityAppInstalled: Whether the host found the identity app installed.
    /// - Returns: The destination.
    public func destination(identityAppInstalled: Bool) -> Destination {
        if let appURL, identityAppInstalled { return .identityApp(appURL) }
        if let appStoreURL, !identityAppInstalled { return .appStore(appStoreURL) }
        return .browser(url)
    }

    /// Shows the description only, so `dump` reveals no URL query, data or sender internals.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// Names the provider and the error code; the URL is left out (it carries state and nonce).
    public var description: String {
        "BrowserRegistrationChallenge(\(identityProvider.identifier)\(error.map { ", error: \($0.code)" } ?? ""))"
    }
}

/// Answers a ``BrowserRegistrationChallenge``. The first answer wins.
public protocol BrowserRegistrationChallengeSender: Sendable {
    /// Hands back the URL the browser was redirected to.
    /// - Parameters:
    ///   - redirectURL: The full redirect URL, with its query.
    ///   - challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended; nothing changes then.
    @discardableResult func respond(with redirectURL: URL, to challenge: BrowserRegistrationChallenge) -> Bool
    /// Cancels the registration; the flow fails with ``ErrorCode/actionCancelled``.
    /// - Parameter challenge: The challenge being answered.
    /// - Returns: `false` when the challenge was already answered, is stale, or its flow ended.
    @discardableResult func cancel(_ challenge: BrowserRegistrationChallenge) -> Bool
}
