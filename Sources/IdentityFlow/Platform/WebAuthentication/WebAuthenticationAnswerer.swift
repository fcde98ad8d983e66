#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// Answers ``BrowserRegistrationChallenge`` and ``ProviderLogoutChallenge`` with the system's web
/// authentication session (`ASWebAuthenticationSession`), presented from a window the host gives.
///
/// - Redirect URIs with a custom scheme (`myapp://callback`) work on every supported system;
///   `https` ones (universal links, the host an associated domain of the app) from iOS 17.4 and
///   macOS 14.4: earlier, the answer fails with ``ErrorCode/browserSessionFailed``.
/// - Sign-in pages open in an ephemeral session when the challenge asks for one
///   (``BrowserRegistrationChallenge/prefersEphemeralSession``, from
///   ``ClientConfiguration/prefersEphemeralBrowserSession``), else in the session shared with
///   Safari (single sign-on). Logout pages follow the same configuration, so they reach the
///   cookies the sign-in left.
/// - The user closing the sheet cancels the challenge and the answer throws
///   ``ErrorCode/actionCancelled``; any other failure cancels it too and throws
///   ``ErrorCode/browserSessionFailed``, naming the system's reason.
///
/// ```swift
/// let browser = WebAuthenticationAnswerer(configuration: configuration) { window }
/// let result = try await client.registerUser(.default) { challenge in
///     if case .browserRegistration(let browserChallenge) = challenge {
///         try? await browser.answer(browserChallenge)
///     }
/// }
/// ```
///
/// Compiled for iOS 16 against the iPhoneOS 16.5 SDK by `scripts/check-ios.sh`; its logic is
/// tested on Linux. It has not run on an Apple device.
@MainActor
public final class WebAuthenticationAnswerer {
    /// The logic, on the system's sessions.
    private let answering: BrowserChallengeAnswering<SystemWebAuthenticationSessions>

    /// Creates an answerer for a client.
    /// - Parameters:
    ///   - configuration: The client's configuration: its redirect URI and browser session kind.
    ///   - anchor: The window to present the sheet from (the key window of the scene showing).
    public init(configuration: ClientConfiguration, anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        answering = BrowserChallengeAnswering(
            runner: SystemWebAuthenticationSessions(anchor: anchor), redirectURI: configuration.redirectURI,
            prefersEphemeralLogoutSession: configuration.prefersEphemeralBrowserSession)
    }

    /// Opens the sign-in page and hands the redirect to the challenge.
    /// - Parameter challenge: The challenge.
    /// - Throws: ``ErrorCode/actionCancelled`` when the user closed the sheet;
    ///   ``ErrorCode/browserSessionFailed`` when the session failed; the challenge is cancelled.
    public func answer(_ challenge: BrowserRegistrationChallenge) async throws(IdentityFlowError) {
        try await answering.answer(challenge)
    }

    /// Opens the provider's logout page and hands the redirect to the challenge.
    /// - Parameter challenge: The challenge.
    /// - Throws: ``ErrorCode/actionCancelled`` when the user closed the sheet;
    ///   ``ErrorCode/browserSessionFailed`` when the session failed; the challenge is cancelled
    ///   (the user is logged out on the device all the same).
    public func answer(_ challenge: ProviderLogoutChallenge) async throws(IdentityFlowError) {
        try await answering.answer(challenge)
    }
}
#endif
