import Foundation
import Statechart

/// Provider logout (OpenID Connect RP-Initiated Logout 1.0): ends the provider's browser
/// session too, so that the next sign-in asks for the password again.
extension UserClient {
    /// Logs the authenticated user out here and at the provider, reporting to a delegate.
    ///
    /// The session ends on the device at once. Then a ``ProviderLogoutChallenge`` asks the host
    /// to open the provider's `end_session_endpoint` (with `id_token_hint`,
    /// `post_logout_redirect_uri` and a fresh `state`) in the browser the user signed in with, and
    /// to hand back the redirect (through the challenge's sender or ``handleRedirect(_:)``). The
    /// redirect must match `postLogoutRedirectURI` and carry the `state`. The tokens are revoked,
    /// best effort, whatever the browser did.
    ///
    /// ```swift
    /// client.providerLogout(delegate: logoutScreen)
    /// ```
    /// - Parameters:
    ///   - postLogoutRedirectURI: Where the provider sends the browser back; `nil` uses
    ///     ``ClientConfiguration/redirectURI``. It must be registered with the provider.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one of `didLogOutAtProvider` / `didFailProviderLogoutOf` is called.
    public func providerLogout(
        postLogoutRedirectURI: URL? = nil, delegate: sending some ProviderLogoutDelegate, isolation: (any Actor)? = #isolation
    ) {
        let target = CallbackTarget(delegate as any ProviderLogoutDelegate)
        let ended = Locked<UserProfile?>(nil)
        launchProviderLogout(
            postLogoutRedirectURI: postLogoutRedirectURI,
            host: .delegate(
                on: delegateExecutor(isolation),
                started: { profile in
                    ended.withLock { $0 = profile }
                    target.delegate.userClient(self, didStartProviderLogoutOf: profile)
                },
                challenge: { challenge in
                    guard case .providerLogout(let logout) = challenge else {
                        challenge.cancel()
                        return
                    }
                    target.delegate.userClient(self, didReceiveProviderLogoutChallenge: logout)
                },
                finished: { outcome in
                    switch outcome {
                    case .success(let profile): target.delegate.userClient(self, didLogOutAtProvider: profile)
                    case .failure(let error): target.delegate.userClient(self, didFailProviderLogoutOf: ended.current, error: error)
                    }
                }))
    }

    /// Logs the authenticated user out here and at the provider, answering the
    /// ``ProviderLogoutChallenge`` through a responder. See ``providerLogout(postLogoutRedirectURI:delegate:isolation:)``.
    ///
    /// ```swift
    /// do {
    ///     try await client.providerLogout(responder: browser)
    /// } catch where error.code == .providerLogoutNotSupported {
    ///     // logged out on the device; the provider has no logout page
    /// }
    /// ```
    /// - Parameters:
    ///   - postLogoutRedirectURI: Where the provider sends the browser back; `nil` uses
    ///     ``ClientConfiguration/redirectURI``.
    ///   - responder: Receives the challenge and answers through its sender.
    /// - Returns: The profile logged out.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in;
    ///   ``ErrorCode/providerLogoutNotSupported`` when the provider offers no `end_session_endpoint`;
    ///   ``ErrorCode/providerLogoutUnconfirmed`` when the browser was cancelled or came back with
    ///   another `state` or an error. In both of the last two cases the user is logged out on the device.
    @discardableResult
    public func providerLogout(postLogoutRedirectURI: URL? = nil, responder: some ChallengeResponder) async throws(IdentityFlowError) -> UserProfile {
        try await runAsync(responder: responder) { (host: FlowHost<UserProfile, UserProfile>) in
            launchProviderLogout(postLogoutRedirectURI: postLogoutRedirectURI, host: host)
        }
    }

    /// Logs the authenticated user out here and at the provider, answering the challenge with a
    /// closure. See ``providerLogout(postLogoutRedirectURI:responder:)``.
    /// - Parameters:
    ///   - postLogoutRedirectURI: Where the provider sends the browser back; `nil` uses
    ///     ``ClientConfiguration/redirectURI``.
    ///   - answer: Called with the challenge; answers through its sender.
    /// - Returns: The profile logged out.
    /// - Throws: As ``providerLogout(postLogoutRedirectURI:responder:)``.
    @discardableResult
    public func providerLogout(
        postLogoutRedirectURI: URL? = nil, answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> UserProfile {
        try await providerLogout(postLogoutRedirectURI: postLogoutRedirectURI, responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchProviderLogout(postLogoutRedirectURI: URL?, host: FlowHost<UserProfile, UserProfile>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let profile = self.authenticatedUserProfile else {
                throw IdentityFlowError(.userNotAuthenticated, "Nobody is logged in.")
            }
            let tokens = try self.storedProfile(profile).tokens
            let request = try EndSessionRequest(
                idTokenHint: tokens.idToken, postLogoutRedirectURI: postLogoutRedirectURI ?? self.configuration.redirectURI)
            return ProviderLogoutFlow(
                steps: ProviderLogoutSteps(dependencies: self.dependencies), id: id, profile: profile, tokens: tokens, request: request, host: host)
        }
    }
}
