#if canImport(AuthenticationServices)
import AuthenticationServices
import Foundation

/// ``WebAuthenticationSessionRunner`` on `ASWebAuthenticationSession`, presented from the window
/// the host gives. Compiled for iOS by `scripts/check-ios.sh`; its logic
/// (``BrowserChallengeAnswering``) runs in the Linux tests on a fake.
@MainActor
final class SystemWebAuthenticationSessions: WebAuthenticationSessionRunner {
    /// The window each sheet is presented from.
    private let anchor: @MainActor () -> ASPresentationAnchor
    /// The last session and its presentation context, kept alive until it ends (replaced by the next).
    private var current: (session: ASWebAuthenticationSession, context: PresentationContext)?

    init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
        self.anchor = anchor
    }

    func run(_ request: WebAuthenticationRequest) async -> WebAuthenticationOutcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<WebAuthenticationOutcome, Never>) in
            let completion: ASWebAuthenticationSession.CompletionHandler = { url, error in
                continuation.resume(returning: Self.outcome(url: url, error: error))
            }
            guard let session = Self.session(for: request, completion: completion) else {
                continuation.resume(returning: .failed(.httpsCallbackUnavailable))
                return
            }
            let context = PresentationContext(window: anchor())
            session.prefersEphemeralWebBrowserSession = request.prefersEphemeralSession
            session.presentationContextProvider = context
            current = (session, context)
            // A session that does not start never calls its completion handler.
            if !session.start() {
                current = nil
                continuation.resume(returning: .failed(.notStarted))
            }
        }
    }

    /// Hands the system the window the host gave when the session started.
    private final class PresentationContext: NSObject, ASWebAuthenticationPresentationContextProviding {
        let window: ASPresentationAnchor

        init(window: ASPresentationAnchor) { self.window = window }

        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { window }
    }

    /// A session waiting for the request's callback, or `nil` for an `https` one this system cannot wait for.
    private static func session(
        for request: WebAuthenticationRequest, completion: @escaping ASWebAuthenticationSession.CompletionHandler
    ) -> ASWebAuthenticationSession? {
        switch request.callback {
        case .customScheme(let scheme):
            return ASWebAuthenticationSession(url: request.url, callbackURLScheme: scheme, completionHandler: completion)
        case .https(let host, let path):
            // Xcode 15.3 (Swift 5.10) is the first with the iOS 17.4 SDK that declares `Callback`.
            #if compiler(>=5.10)
            if #available(iOS 17.4, macOS 14.4, *) {
                return ASWebAuthenticationSession(url: request.url, callback: .https(host: host, path: path), completionHandler: completion)
            }
            #endif
            return nil
        }
    }

    /// How the system's completion ended the session.
    private static func outcome(url: URL?, error: (any Error)?) -> WebAuthenticationOutcome {
        if let url, error == nil { return .redirected(url) }
        if let error = error as? ASWebAuthenticationSessionError {
            switch error.code {
            case .canceledLogin: return .cancelledByUser
            case .presentationContextNotProvided: return .failed(.presentationContextNotProvided)
            case .presentationContextInvalid: return .failed(.presentationContextInvalid)
            @unknown default: break
            }
        }
        let nsError = (error ?? URLError(.unknown)) as NSError
        return .failed(.system(domain: nsError.domain, code: nsError.code))
    }
}
#endif
