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
        let (data, response) = try await transport.send(authorized(request, with: tokens))
        guard Self.refusesToken(response, data) else { return (data, response) }
        tokens = try await refreshedTokens(replacing: tokens)
        return try await transport.send(authorized(request, with: tokens))
    }

    /// Whether an API answer refuses the access token: a `401`, or a `400` naming `invalid_token`
    /// in its `WWW-Authenticate` challenge or JSON body.
    private static func refusesToken(_ response: HTTPURLResponse, _ data: Data) -> Bool {
        guard response.statusCode == 400 || response.statusCode == 401 else { return false }
        let mediaType = response.value(forHTTPHeaderField: "Content-Type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        let json = HTTPResponse(status: response.statusCode, mediaType: mediaType, body: data).json
        let error = BearerTokenRefusal.errorCode(wwwAuthenticate: response.value(forHTTPHeaderField: "WWW-Authenticate"), json: json)
        return BearerTokenRefusal.refusesToken(status: response.statusCode, error: error)
    }

    private func authorized(_ request: URLRequest, with tokens: TokenSet) -> URLRequest {
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

    private func refreshOnce(replacing stale: TokenSet) async throws(IdentityFlowError) -> TokenSet {
        let current = try sessionTokens()
        guard current.accessToken == stale.accessToken else { return current }
        guard let profile = authenticatedUserProfile else { throw IdentityFlowError(.userNotAuthenticated) }
        guard let refreshToken = current.refreshToken else {
            throw endSession(of: profile, because: IdentityFlowError(.userNotAuthenticated, "The access token expired and there is no refresh token."))
        }
        var fresh: TokenSet
        do { fresh = try await service.refresh(refreshToken) } catch {
            if PinEntry.isRecoverable(error) { throw error }
            throw endSession(of: profile, because: error)
        }
        if fresh.refreshToken == nil { fresh.refreshToken = refreshToken }
        if let problem = IdTokenContinuity.problem(previous: current.idToken, refreshed: fresh.idToken) {
            // Tokens for someone else, or from elsewhere: never stored, never left live.
            await revokeUnused(fresh, flow: nil)
            throw endSession(
                of: profile, because: IdentityFlowError(.invalidServerResponse, "The refresh was refused: \(problem) (OpenID Connect Core §12.2)."))
        }
        // A refresh may omit the ID token; the session keeps the one it began with.
        if fresh.idToken == nil { fresh.idToken = current.idToken }
        try updateStoredProfile(profile) { $0.tokens = fresh }
        sessionBroadcast.publish(.tokensRefreshed(profile))
        // The refresh token was spent; the old access token would stay live until it expires.
        await revokeUnused(TokenSet(accessToken: current.accessToken.value), flow: nil)
        return fresh
    }

    /// Logs the profile out on this device after a refused refresh and says so.
    private func endSession(of profile: UserProfile, because cause: IdentityFlowError) -> IdentityFlowError {
        let ended = withState { state -> (StoredProfile, ProvenPinKey)? in
            guard state.authenticatedProfile == profile, let stored = state.profiles[profile] else { return nil }
            defer { state.authenticatedProfile = nil }
            return (stored, state.sessionPinKey)
        }
        if let (stored, key) = ended { sessions.closeSession(of: stored, key: key) }
        sessionBroadcast.publish(.loggedOut(profile, reason: cause.code))
        return IdentityFlowError(.userNotAuthenticated, "The session expired and could not be refreshed; log in again.", underlying: cause)
    }
}
