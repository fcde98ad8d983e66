import Foundation

/// Who the logged-in user is, and tokens for the host's own HTTP stacks.
extension UserClient {
    /// The claims of the logged-in user's ID token, or `nil` when nobody is logged in or the
    /// session has no ID token (no `openid` scope).
    ///
    /// The identity service validated the token when it was issued (a refresh that returns a new
    /// one replaces it, after OpenID Connect Core §12.2's same-issuer, same-subject check).
    ///
    /// ```swift
    /// let who = client.identityClaims?.email
    /// ```
    public var identityClaims: IdentityClaims? {
        guard let profile = authenticatedUserProfile else { return nil }
        return identityClaims(of: profile)
    }

    /// The claims of a profile's last ID token, stored with its tokens on this device (also when
    /// it is not logged in), or `nil` when it has none.
    /// - Parameter profile: A profile registered on this device, or the stateless one logged in.
    /// - Returns: The claims.
    public func identityClaims(of profile: UserProfile) -> IdentityClaims? {
        withState { $0.profiles[profile]?.tokens.idToken }.flatMap(IdentityClaims.of)
    }

    /// When the logged-in user's access token expires, by the `expires_in` the provider gave;
    /// `nil` when nobody is logged in or the provider gave no expiry.
    public var accessTokenExpiresAt: Date? {
        withState { state in state.authenticatedProfile.flatMap { state.profiles[$0]?.tokens.expiresAt } }
    }

    /// The logged-in user's access token, valid for at least `minimumValidity` more seconds, for
    /// the host's own HTTP stack (an Apollo client, a gRPC channel, ...).
    ///
    /// A token closer to its expiry is refreshed first. Concurrent callers, and
    /// ``authenticatedRequest(_:)``s, share one refresh: a rotated refresh token is never sent
    /// twice. A successful refresh is reported as ``SessionEvent/tokensRefreshed(_:)``; a refused
    /// one logs the user out on this device and is reported as ``SessionEvent/loggedOut(_:reason:)``.
    ///
    /// ```swift
    /// let token = try await client.freshAccessToken()
    /// request.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization")
    /// ```
    /// - Parameter minimumValidity: How long the token must stay valid, in seconds (60 by default).
    /// - Returns: The access token. Keep it ``Redacted`` until it goes on the wire.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in or the session could
    ///   not be refreshed; ``ErrorCode/requestInvalid`` before ``start()``; network errors of the
    ///   refresh (the session stays).
    public func freshAccessToken(minimumValidity: TimeInterval = 60) async throws(IdentityFlowError) -> Redacted<String> {
        try requireStarted()
        let tokens = try sessionTokens()
        if tokens.isAccessTokenValid(at: configuration.now(), leeway: max(0, minimumValidity)) { return tokens.accessToken }
        return try await refreshedTokens(replacing: tokens).accessToken
    }

    /// Asks the provider's userinfo endpoint who the logged-in user is (OpenID Connect Core §5.3).
    ///
    /// The answer's `sub` must be the session's ID token's `sub`, compared as bytes (§5.3.2): the
    /// identity service checks it, and so does this call, whatever service answers. An access
    /// token the provider refuses is refreshed once (shared with other callers) and the call retried once.
    ///
    /// ```swift
    /// let info = try await client.userInfo()
    /// print(info.email ?? "no e-mail")
    /// ```
    /// - Returns: The claims.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in, or the session
    ///   could not be refreshed; ``ErrorCode/requestInvalid`` when the session has no ID token to
    ///   check the answer's subject against (no `openid` scope);
    ///   ``ErrorCode/invalidServerResponse`` for an answer about another subject;
    ///   ``ErrorCode/featureNotSupported`` when the service has no userinfo endpoint.
    public func userInfo() async throws(IdentityFlowError) -> UserInfo {
        try requireStarted()
        guard let claims = identityClaims else {
            _ = try sessionTokens()
            throw IdentityFlowError(.requestInvalid, "The session has no ID token, so a userinfo answer could not be checked against it.")
        }
        var info: UserInfo
        do {
            let accessToken = try await freshAccessToken()
            info = try await service.userInfo(accessToken: accessToken, subject: claims.subject, proofKey: resourceProofKey(for: try sessionTokens()))
        } catch  where error.code == .userNotAuthenticated {
            // The provider refused a token the device thought valid (revoked, or its clock differs):
            // one shared refresh, one retry, as authenticatedRequest(_:) does.
            let refreshed = try await refreshedTokens(replacing: try sessionTokens())
            info = try await service.userInfo(accessToken: refreshed.accessToken, subject: claims.subject, proofKey: resourceProofKey(for: refreshed))
        }
        guard info.subject.hasSameBytes(as: claims.subject) else {
            throw IdentityFlowError(
                .invalidServerResponse,
                "The userinfo answer is for another subject than the ID token's, so its claims are not used (OpenID Connect Core §5.3.2).")
        }
        return info
    }
}
