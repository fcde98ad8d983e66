import Foundation

// Zephr-style partial registration (docs/extension-api.openapi.yaml, registration/partial).
extension HTTPIdentityService {
    /// `POST /registration/partial`: the attributes, bound to the browser step by its PKCE verifier.
    /// - Parameters:
    ///   - stateKey: The callback's `state_key`.
    ///   - attributes: The host's attributes.
    ///   - request: The browser step's request.
    /// - Returns: The new user's tokens (200), or the refusal: 409 `user_already_exists`, 403
    ///   `email_domain_blocked`, 400 `invalid_attributes`.
    /// - Throws: 11024 for 410 `state_expired`, 11020 for a bare 404; as the table otherwise.
    public func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>,
        request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome {
        let context = "the partial registration"
        try refuseUnboundGrant(context)
        let body: JSONValue = [
            "state_key": .string(stateKey.value), "attributes": .object(attributes.value.mapValues(JSONValue.string)),
            "code_verifier": .string(request.codeVerifier.value), "redirect_uri": .string(request.redirectURI.absoluteString),
        ]
        let response = try await send("POST", path: "registration/partial", body: body, context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _):
            return .registered(
                try await tokenSet(from: try Self.jsonObject(response, context: "The partial registration answer"), requestedScopes: request.scopes))
        case (409, "user_already_exists"): return .refused(.userAlreadyExists)
        case (403, "email_domain_blocked"): return .refused(.emailDomainBlocked)
        case (400, "invalid_attributes"): return .refused(.badRequest)
        case (410, "state_expired"):
            var error = IdentityFlowError(.partialRegistrationExpired)
            error.oauthError = "state_expired"
            throw error
        case (404, nil): throw IdentityFlowError(.featureNotSupported, "The server does not offer partial registration (HTTP 404).")
        default: throw Self.extensionError(response, context: context)
        }
    }

    /// `POST /registration/session`: Zephr's session of an existing user (its `status=success`
    /// callback), exchanged for tokens with the browser step's PKCE verifier and redirect URI.
    /// - Parameters:
    ///   - session: The callback's `session_id`.
    ///   - request: The browser step's request.
    /// - Returns: The user's tokens (200, a token response).
    /// - Throws: 10024 with `oauthError` `session_expired` for 410 (unknown, expired, used, or not
    ///   this verifier's session), 11020 for a bare 404; as the table otherwise.
    public func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        let context = "the session exchange"
        try refuseUnboundGrant(context)
        let body: JSONValue = [
            "session_id": .string(session.value), "code_verifier": .string(request.codeVerifier.value),
            "redirect_uri": .string(request.redirectURI.absoluteString),
        ]
        let response = try await send("POST", path: "registration/session", body: body, context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _):
            return try await tokenSet(from: try Self.jsonObject(response, context: "The session exchange answer"), requestedScopes: request.scopes)
        case (410, let code?):
            var error = IdentityFlowError(.externalIdentityProviderFailure, "The provider's session is unknown, expired, used, or not this sign-in's.")
            error.oauthError = code
            throw error
        case (404, nil): throw IdentityFlowError(.featureNotSupported, "The server does not offer the session exchange (HTTP 404).")
        default: throw Self.extensionError(response, context: context)
        }
    }
}
