import Foundation

/// Runs one system web authentication session (`ASWebAuthenticationSession` on Apple platforms;
/// a fake in the Linux tests) and tells how it ended.
package protocol WebAuthenticationSessionRunner: Sendable {
    /// Opens the page and waits until the browser reaches the callback or the session ends.
    /// - Parameter request: The page, the callback and the session kind.
    /// - Returns: The redirect, or why there is none.
    @MainActor func run(_ request: WebAuthenticationRequest) async -> WebAuthenticationOutcome
}

/// One web authentication session to run.
package struct WebAuthenticationRequest: Sendable, Hashable {
    /// What ends the session: a navigation to a URL the callback matches.
    package enum Callback: Sendable, Hashable {
        /// A URL with this custom scheme (`myapp://callback`): every supported system.
        case customScheme(String)
        /// An `https` URL on this host and path: iOS 17.4, macOS 14.4 and later (the host must be
        /// an associated domain of the app, `webcredentials:`).
        case https(host: String, path: String)
    }

    /// The page to open.
    package var url: URL
    /// The redirect that ends the session.
    package var callback: Callback
    /// Whether the session shares no cookies with the browser (`prefersEphemeralWebBrowserSession`).
    package var prefersEphemeralSession: Bool
}

/// How a web authentication session ended.
package enum WebAuthenticationOutcome: Sendable, Hashable {
    /// The browser reached the callback with this URL.
    case redirected(URL)
    /// The user closed the sheet or said no to signing in (`canceledLogin`).
    case cancelledByUser
    /// The session failed: the reason, as a ``ErrorCode/browserSessionFailed`` message says it.
    case failed(WebAuthenticationFailure)
}

/// Why a web authentication session failed.
package enum WebAuthenticationFailure: Sendable, Hashable {
    /// The host gave no window to present the sheet from (`presentationContextNotProvided`).
    case presentationContextNotProvided
    /// The window the host gave cannot present it (`presentationContextInvalid`).
    case presentationContextInvalid
    /// The redirect URI is `https`, which needs iOS 17.4 / macOS 14.4 or later.
    case httpsCallbackUnavailable
    /// The system refused to start the session (`start()` returned `false`).
    case notStarted
    /// Any other error of the system's, by domain and code.
    case system(domain: String, code: Int)

    /// The sentence the error carries.
    var explanation: String {
        switch self {
        case .presentationContextNotProvided: "no presentation anchor was given (presentationContextNotProvided)"
        case .presentationContextInvalid: "the presentation anchor cannot present it (presentationContextInvalid)"
        case .httpsCallbackUnavailable: "an https redirect URI needs iOS 17.4 or macOS 14.4; use a custom scheme on older systems"
        case .notStarted: "the system did not start the session (another one is showing, or the app is in the background)"
        case .system(let domain, let code): "the system reported \(domain) \(code)"
        }
    }
}
