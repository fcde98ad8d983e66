import Foundation

/// What `WebAuthenticationAnswerer` does with a browser challenge, on any
/// ``WebAuthenticationSessionRunner``: the callback a redirect URI needs, the session kind, and
/// the answer each outcome gives. Portable, so the Linux tests run it on a fake session.
package struct BrowserChallengeAnswering<Runner: WebAuthenticationSessionRunner>: Sendable {
    /// Runs the sessions.
    package let runner: Runner
    /// The redirect URI of the client's registrations (``ClientConfiguration/redirectURI``).
    package let redirectURI: URL
    /// Whether provider logout pages open in an ephemeral session too (the client's
    /// ``ClientConfiguration/prefersEphemeralBrowserSession``).
    package let prefersEphemeralLogoutSession: Bool

    /// Creates the logic.
    /// - Parameters:
    ///   - runner: Runs the sessions.
    ///   - redirectURI: The registrations' redirect URI.
    ///   - prefersEphemeralLogoutSession: The session kind of logout pages.
    package init(runner: Runner, redirectURI: URL, prefersEphemeralLogoutSession: Bool) {
        self.runner = runner
        self.redirectURI = redirectURI
        self.prefersEphemeralLogoutSession = prefersEphemeralLogoutSession
    }

    /// Opens the sign-in page in the session kind the challenge asks for and answers it.
    /// - Throws: ``ErrorCode/actionCancelled`` when the user closed the sheet,
    ///   ``ErrorCode/browserSessionFailed`` when the session failed; the challenge is cancelled then.
    @MainActor
    package func answer(_ challenge: BrowserRegistrationChallenge) async throws(IdentityFlowError) {
        let outcome = await run(url: challenge.url, redirectURI: redirectURI, ephemeral: challenge.prefersEphemeralSession)
        switch outcome {
        case .success(let redirect): challenge.sender.respond(with: redirect, to: challenge)
        case .failure(let error):
            challenge.sender.cancel(challenge)
            throw error
        }
    }

    /// Opens the logout page and answers the challenge.
    /// - Throws: ``ErrorCode/actionCancelled`` when the user closed the sheet,
    ///   ``ErrorCode/browserSessionFailed`` when the session failed; the challenge is cancelled
    ///   then (the user is logged out on the device all the same).
    @MainActor
    package func answer(_ challenge: ProviderLogoutChallenge) async throws(IdentityFlowError) {
        let outcome = await run(url: challenge.url, redirectURI: challenge.postLogoutRedirectURI, ephemeral: prefersEphemeralLogoutSession)
        switch outcome {
        case .success(let redirect): challenge.sender.respond(with: redirect, to: challenge)
        case .failure(let error):
            challenge.sender.cancel(challenge)
            throw error
        }
    }

    /// Runs one session; the redirect, or the error to report.
    @MainActor
    private func run(url: URL, redirectURI: URL, ephemeral: Bool) async -> Result<URL, IdentityFlowError> {
        let callback: WebAuthenticationRequest.Callback
        do { callback = try Self.callback(for: redirectURI) } catch { return .failure(error) }
        switch await runner.run(WebAuthenticationRequest(url: url, callback: callback, prefersEphemeralSession: ephemeral)) {
        case .redirected(let redirect): return .success(redirect)
        case .cancelledByUser: return .failure(IdentityFlowError(.actionCancelled, "The user closed the sign-in sheet."))
        case .failed(let failure):
            return .failure(IdentityFlowError(.browserSessionFailed, "The web authentication session failed: \(failure.explanation)."))
        }
    }

    /// The callback that ends a session at `redirectURI`: its custom scheme, or its `https` host and path.
    /// - Throws: ``ErrorCode/configurationInvalid`` for an `http` URI or one without a scheme or host.
    package static func callback(for redirectURI: URL) throws(IdentityFlowError) -> WebAuthenticationRequest.Callback {
        guard let scheme = redirectURI.scheme?.lowercased(), !scheme.isEmpty else {
            throw IdentityFlowError(.configurationInvalid, "The redirect URI has no scheme; a web authentication session cannot wait for it.")
        }
        switch scheme {
        case "https":
            guard let host = redirectURI.host, !host.isEmpty else {
                throw IdentityFlowError(.configurationInvalid, "The https redirect URI has no host; a web authentication session cannot wait for it.")
            }
            return .https(host: host, path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        case "http":
            throw IdentityFlowError(
                .configurationInvalid, "A web authentication session cannot wait for an http redirect URI; use a custom scheme or https.")
        default:
            return .customScheme(scheme)
        }
    }
}
