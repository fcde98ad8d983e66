import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart

extension UserClient {
    /// Whether the authenticated user's access token is still valid now (by the expiry the
    /// server gave). `false` when nobody is logged in.
    public var isValidAccessToken: Bool {
        guard let tokens = withState({ state in state.authenticatedProfile.flatMap { state.profiles[$0]?.tokens } }) else { return false }
        return tokens.isAccessTokenValid(at: configuration.now())
    }

    /// Sends a request to the host's API with the authenticated user's access token.
    ///
    /// An expired token is refreshed first; a `401` answer, or a `400` naming `invalid_token` (in
    /// its `WWW-Authenticate` challenge or JSON `error`), refreshes once and retries once.
    /// Concurrent requests share one refresh. When the refresh is refused the user is logged out
    /// on this device and ``sessionEvents()`` reports ``SessionEvent/loggedOut(_:reason:)``.
    ///
    /// The token goes over `https` only, or `http` to a loopback host; any other URL fails with
    /// ``ErrorCode/insecureTransport`` before anything is sent, whatever the transport. The default
    /// transport (``URLSessionTransport``) follows no redirect: a `3xx` is returned as it is.
    ///
    /// ```swift
    /// let (data, response) = try await client.authenticatedRequest(URLRequest(url: api.appending(path: "me")))
    /// ```
    /// - Parameter request: The request; its `Authorization` header is set here.
    /// - Returns: The body and HTTP response (a second refusal is returned as it is).
    /// - Throws: ``ErrorCode/insecureTransport`` for a URL that is neither `https` nor loopback
    ///   `http`; ``ErrorCode/userNotAuthenticated`` when nobody is logged in or the session could
    ///   not be refreshed; the transport's errors.
    public func authenticatedRequest(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        try requireStarted()
        if let problem = URLSessionTransport.insecurity(of: request.url) { throw problem }
        var tokens = try sessionTokens()
        if !tokens.isAccessTokenValid(at: configuration.now()) {
            tokens = try await refreshedTokens(replacing: tokens)
        }
        let (data, response) = try await send(request, authorizedWith: tokens)
        guard Self.refusesToken(response, data) else { return (data, response) }
        tokens = try await refreshedTokens(replacing: tokens)
        return try await send(request, authorizedWith: tokens)
    }

    /// Whether an API answer refuses the access token: a `401`, or a `400` naming `invalid_token`
    /// in its `WWW-Authenticate` challenge or JSON body.
    static func refusesToken(_ response: HTTPURLResponse, _ data: Data) -> Bool {
        guard response.statusCode == 400 || response.statusCode == 401 else { return false }
        let mediaType = response.value(forHTTPHeaderField: "Content-Type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        let json = HTTPResponse(status: response.statusCode, mediaType: mediaType, body: data).json
        let error = BearerTokenRefusal.errorCode(wwwAuthenticate: response.value(forHTTPHeaderField: "WWW-Authenticate"), json: json)
        return BearerTokenRefusal.refusesToken(status: response.statusCode, error: error)
    }

    /// `request` with `Authorization: Bearer <token>`.
    func authorized(_ request: URLRequest, with tokens: TokenSet) -> URLRequest {
        var request = request
        request.setValue("Bearer \(tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// Fresh tokens instead of `stale`: the ones another caller already got, or one shared refresh.
    func refreshedTokens(replacing stale: TokenSet) async throws(IdentityFlowError) -> TokenSet {
        try await refresher.run { [self] () async -> Result<TokenSet, IdentityFlowError> in
            do throws(IdentityFlowError) { return .success(try await refreshOnce(replacing: stale)) } catch { return .failure(error) }
        }.get()
    }

    /// One refresh for the current session. Its answer is written only where it still belongs,
    /// checked under the cache's lock (``ProfileSessions/storeRefreshed(_:replacing:for:)``): a
    /// session that ended while the refresh was on its way gets nothing, and its rotated refresh
    /// token is sealed for the next login or revoked, never dropped.
    private func refreshOnce(replacing stale: TokenSet) async throws(IdentityFlowError) -> TokenSet {
        let (session, current) = try sessions.currentSession()
        guard current.accessToken == stale.accessToken else { return current }
        guard let refreshToken = current.refreshToken else {
            throw endSession(
                session, .signInEnded, because: IdentityFlowError(.userNotAuthenticated, "The access token expired and there is no refresh token."))
        }
        var fresh: TokenSet
        let proofKey = sessions.dpopKey(for: session.profile)
        do { fresh = try await service.refresh(refreshToken, proofKey: proofKey) } catch {
            if PinEntry.isRecoverable(error) { throw error }
            // invalid_grant: the provider no longer honours the sign-in; another refusal (the
            // client's configuration, a malformed answer) leaves it for the next login.
            throw endSession(session, error.oauthError == "invalid_grant" ? .signInEnded : .signInKept, because: error)
        }
        if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
        if let problem = IdTokenContinuity.problem(previous: current.idToken, refreshed: fresh.idToken) {
            // Tokens for someone else, or from elsewhere: never stored, never left live.
            await revokeUnused(fresh, proofKey: proofKey, flow: nil)
            throw endSession(
                session, .signInEnded,
                because: IdentityFlowError(.invalidServerResponse, "The refresh was refused: \(problem) (OpenID Connect Core §12.2)."))
        }
        // A refresh may omit the ID token; the session keeps the one it began with.
        if fresh.idToken == nil { fresh.idToken = current.idToken }
        let landing: RefreshLanding
        do { landing = try sessions.storeRefreshed(fresh, replacing: refreshToken, for: session) } catch {
            // Nobody will hold the answer: it would stay live at the provider.
            await revokeUnused(fresh, proofKey: proofKey, flow: nil)
            throw error
        }
        if landing == .orphaned {
            await revokeUnused(fresh, proofKey: proofKey, flow: nil)
            throw IdentityFlowError(.userNotAuthenticated, "The session ended while its refresh was on its way; the refreshed tokens were revoked.")
        }
        // The refresh token was spent; the old access token, while it has not expired, would stay
        // live until it does.
        if current.isAccessTokenValid(at: configuration.now()) {
            await revokeUnused(TokenSet(accessToken: current.accessToken.value), proofKey: proofKey, flow: nil)
        }
        guard landing == .stored else {
            throw IdentityFlowError(
                .userNotAuthenticated, "The session ended while its refresh was on its way; the refreshed sign-in is kept for the next login.")
        }
        sessionBroadcast.publish(.tokensRefreshed(session.profile))
        return fresh
    }

    /// Logs the profile out on this device after a refused refresh, when `session` is still the
    /// current one, and says so.
    private func endSession(_ session: SessionHandle, _ end: SessionEnd, because cause: IdentityFlowError) -> IdentityFlowError {
        if sessions.endSession(session, end) { sessionBroadcast.publish(.loggedOut(session.profile, reason: cause.code)) }
        return IdentityFlowError(.userNotAuthenticated, "The session expired and could not be refreshed; log in again.", underlying: cause)
    }
}
