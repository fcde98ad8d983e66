import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPIdentityService {
    // MARK: - Authorization

    /// The authorization endpoint URL with `response_type=code`, the client id, redirect URI,
    /// scopes, `state`, `nonce`, the S256 PKCE challenge, the request's own
    /// ``AuthorizationRequest/parameters`` and the configured optional parameters (a parameter of
    /// the request replaces the configured one of the same name).
    ///
    /// With ``AuthorizationRequest/dpopKeyThumbprint`` the request carries `dpop_jkt` (RFC 9449
    /// §10). When the request is pushed (PAR, RFC 9126: the provider requires it, or
    /// ``HTTPServiceConfiguration/pushedAuthorization`` says so and the provider names an
    /// endpoint), the parameters go to the `pushed_authorization_request_endpoint` with the
    /// client's authentication, and the URL carries `client_id` and `request_uri` only; it expires
    /// (``authorizationURLExpiry(_:)``), so a flow that waits asks again. What the configuration
    /// requires (``HTTPServiceConfiguration/securityProfile``, ``HTTPServiceConfiguration/dpop``,
    /// ``HTTPServiceConfiguration/pushedAuthorization``) is checked first: before the browser opens.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, scopes and redirect URI.
    /// - Returns: The page to open.
    /// - Throws: ``ErrorCode/invalidIdentityProvider`` for a custom provider;
    ///   ``ErrorCode/securityProfileNotMet`` when the provider lacks what the configuration
    ///   requires; ``ErrorCode/pushedAuthorizationFailed`` when the push fails; discovery errors.
    public func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        if case .custom = provider.kind {
            throw IdentityFlowError(.invalidIdentityProvider, "\(provider.identifier) is not a browser identity provider.")
        }
        let metadata = try await providerMetadata()
        try checkAuthorizationRequirements(metadata, request: request)
        if let endpoint = try pushedAuthorizationEndpoint(metadata) {
            let parameters = try authorizationParameters(request: request, provider: provider)
            return try await pushAuthorizationRequest(to: endpoint, parameters: parameters, metadata: metadata)
        }
        return try authorizationURL(at: metadata.authorizationEndpoint, request: request, provider: provider)
    }

    /// The same request addressed to an installed identity app (Grab's app-to-app login):
    /// ``identityAppLink(for:request:)``'s app URL.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, redirect URI and scopes.
    /// - Returns: The app URL, or `nil` to use the browser URL alone.
    /// - Throws: As ``identityAppLink(for:request:)``.
    public func appAuthorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL? {
        try await identityAppLink(for: provider, request: request)?.appURL
    }

    /// The request's parameters at `endpoint`; the configured hint parameter names `provider`.
    func authorizationURL(at endpoint: URL, request: AuthorizationRequest, provider: IdentityProvider) throws(IdentityFlowError) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw IdentityFlowError(.invalidServerResponse, "The authorization endpoint is not a valid URL.")
        }
        let parameters = try authorizationParameters(request: request, provider: provider)
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + parameters.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        guard let url = components.url else {
            throw IdentityFlowError(.invalidServerResponse, "The authorization URL could not be built.")
        }
        return url
    }

    /// The request's authorization parameters, in the order they are sent.
    func authorizationParameters(request: AuthorizationRequest, provider: IdentityProvider) throws(IdentityFlowError) -> [(String, String)] {
        let scopes = request.scopes.isEmpty ? configuration.scopes : request.scopes
        var parameters: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", configuration.clientID),
            ("redirect_uri", request.redirectURI.absoluteString),
            ("scope", scopes.joined(separator: " ")),
            ("state", request.state.value),
            ("nonce", request.nonce.value),
            ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod),
        ]
        let optional: [(String, String?)] = [
            ("prompt", configuration.prompt), ("login_hint", configuration.loginHint),
            ("id_token_hint", configuration.idTokenHint?.value), ("acr_values", configuration.acrValues),
            ("request", configuration.requestObject), ("autologin_token", request.autologinToken?.value),
            ("dpop_jkt", request.dpopKeyThumbprint),
        ]
        // The sign-in's own parameters (AuthorizationParameters) replace the configured ones of the same name.
        let own = request.parameters.queryItems
        let ownNames = Set(own.map(\.0))
        parameters += optional.compactMap { name, value in ownNames.contains(name) ? nil : value.map { (name, $0) } }
        parameters += own
        if let hint = configuration.identityProviderHint(for: provider), !ownNames.contains(hint.0) { parameters.append(hint) }
        let reserved = Set(parameters.map(\.0))
        parameters += configuration.extraAuthorizationParameters.sorted { $0.key < $1.key }.filter { !reserved.contains($0.key) }.map { ($0.key, $0.value) }
        return parameters
    }

    /// The RFC 9207 mix-up defence: an `iss` in the authorization response must be the
    /// discovered issuer, compared as bytes (a template issuer such as Entra ID's
    /// `…/{tenantid}/v2.0`: the template with a GUID tenant in its place); when the provider advertises
    /// `authorization_response_iss_parameter_supported`, a response without `iss` is refused too.
    /// - Parameter issuer: The redirect's `iss` value, or `nil` when it carries none.
    /// - Throws: ``ErrorCode/issuerMismatch``; discovery errors.
    public func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {
        let metadata = try await providerMetadata()
        guard let issuer else {
            guard !metadata.sendsAuthorizationResponseIssuer, configuration.securityProfile != .fapi2 else {
                throw IdentityFlowError(.issuerMismatch, "The redirect carries no 'iss' although the provider promises one (RFC 9207).")
            }
            return
        }
        if let template = IssuerTemplate(metadata.issuer) {
            // A multi-tenant issuer: the response names the user's tenant, a GUID; the ID token's
            // own iss and tid are checked at the exchange.
            guard let tenant = template.segment(of: issuer), IssuerTemplate.isPlausibleTenantID(tenant),
                issuer.hasSameBytes(as: template.issuer(forTenant: tenant))
            else {
                throw IdentityFlowError(.issuerMismatch, "The redirect's 'iss' is not the provider's issuer \(metadata.issuer) for any tenant (RFC 9207).")
            }
            return
        }
        guard issuer.hasSameBytes(as: metadata.issuer) else {
            throw IdentityFlowError(.issuerMismatch, "The redirect's 'iss' is not the provider's issuer \(metadata.issuer) (RFC 9207).")
        }
    }

    // MARK: - Tokens

    /// Exchanges the code at the token endpoint with the PKCE verifier, then validates the ID
    /// token (required when `openid` was asked for) against the request's nonce.
    /// - Parameters:
    ///   - code: The code from the redirect.
    ///   - request: The request that obtained it.
    /// - Returns: The tokens.
    /// - Throws: As the table in the type's discussion.
    public func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await exchangeCode(code, request: request, proofKey: nil)
    }

    /// ``exchangeCode(_:request:)`` with a DPoP proof by `proofKey` when one is given (RFC 9449
    /// §5): the provider binds the tokens to the key, and must answer `token_type` `DPoP`. A
    /// `use_dpop_nonce` answer is retried once with the provider's nonce.
    /// - Parameters:
    ///   - code: The code from the redirect.
    ///   - request: The request that obtained it.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Returns: The tokens, ``TokenSet/tokenType`` set.
    /// - Throws: ``ErrorCode/tokenNotSenderConstrained`` for a `Bearer` answer to a proof (unless
    ///   ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP``; the tokens are revoked);
    ///   ``ErrorCode/dpopProofRefused``; ``ErrorCode/securityProfileNotMet`` without a key under
    ///   ``SecurityProfile/fapi2``; as ``exchangeCode(_:request:)``.
    public func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest, proofKey: DPoPKey?) async throws(IdentityFlowError) -> TokenSet {
        try requireKeyUnderFAPI2(proofKey)
        let metadata = try await providerMetadata()
        let response = try await sendWithDPoP(
            clientRequest(
                metadata.tokenEndpoint,
                [
                    ("grant_type", "authorization_code"),
                    ("code", code.value),
                    ("redirect_uri", request.redirectURI.absoluteString),
                    ("code_verifier", request.codeVerifier.value),
                ], metadata: metadata), key: proofKey)
        guard response.status == 200 else { throw Self.oauthError(response, context: Self.codeExchange) }
        let scopes = request.scopes.isEmpty ? configuration.scopes : request.scopes
        let tokens = try await tokenSet(from: try Self.jsonObject(response, context: "The token response"), requestedScopes: scopes, proofKey: proofKey)
        do throws(IdentityFlowError) {
            if let idToken = tokens.idToken {
                _ = try await validateIdToken(idToken, nonce: request.nonce.value, accessToken: tokens.accessToken, serverDate: response.date)
            } else if scopes.contains("openid") {
                throw IdentityFlowError(.invalidServerResponse, "The token response has no ID token although 'openid' was asked for.")
            }
        } catch {
            // The server issued tokens the flow will not use: revoke them rather than leave them live.
            try? await revoke(tokens, proofKey: proofKey)
            throw error
        }
        return tokens
    }

    /// Exchanges a refresh token for fresh tokens. A rotated refresh token in the answer replaces
    /// the old one; when the server sends none, the old one is kept. A new ID token is validated
    /// (its nonce is not checked: refresh has no request nonce); when it fails, the tokens of the
    /// answer are revoked, so that none the client will not use stays live.
    /// - Parameter refreshToken: The refresh token.
    /// - Returns: The fresh tokens.
    /// - Throws: 10024 with `oauthError` `invalid_grant` when the refresh token is no longer valid.
    public func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        try await refresh(refreshToken, proofKey: nil)
    }

    /// ``refresh(_:)`` with a DPoP proof by `proofKey` when one is given: a refresh token bound to
    /// the key (a public client's, RFC 9449 §5) is refused without it.
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Returns: The fresh tokens, ``TokenSet/tokenType`` set.
    /// - Throws: As ``exchangeCode(_:request:proofKey:)`` and ``refresh(_:)``.
    public func refresh(_ refreshToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError) -> TokenSet {
        try requireKeyUnderFAPI2(proofKey)
        let metadata = try await providerMetadata()
        let response = try await sendWithDPoP(
            clientRequest(
                metadata.tokenEndpoint,
                [
                    ("grant_type", "refresh_token"),
                    ("refresh_token", refreshToken.value),
                ], metadata: metadata), key: proofKey)
        guard response.status == 200 else { throw Self.oauthError(response, context: "the token refresh") }
        var tokens = try await tokenSet(
            from: try Self.jsonObject(response, context: "The token response"), requestedScopes: configuration.scopes, proofKey: proofKey)
        if tokens.refreshToken == nil { tokens.refreshToken = refreshToken }
        if let idToken = tokens.idToken {
            do throws(IdentityFlowError) {
                _ = try await validateIdToken(idToken, nonce: nil, accessToken: tokens.accessToken, serverDate: response.date)
            } catch {
                try? await revoke(tokens, proofKey: proofKey)
                throw error
            }
        }
        return tokens
    }

    /// Revokes the refresh token, then the access token (RFC 7009, with `token_type_hint`).
    /// - Parameter tokens: The tokens.
    /// - Throws: ``ErrorCode/configurationInvalid`` when the server names no revocation endpoint,
    ///   or refuses this public client because it lets only clients with a secret revoke, or
    ///   refuses the client's secret (`invalid_client`);
    ///   ``ErrorCode/clientAuthenticationMethodNotSupported`` when it lists its methods without
    ///   the configured one;
    ///   otherwise as the table in the type's discussion.
    public func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        try await revoke(refreshToken: tokens.refreshToken, accessToken: tokens.accessToken, proofKey: nil)
    }

    /// ``revoke(_:)`` with a DPoP proof by `proofKey` on each revocation request, when one is given.
    /// - Parameters:
    ///   - tokens: The tokens.
    ///   - proofKey: The profile's DPoP key, or `nil`.
    /// - Throws: As ``revoke(_:)``; ``ErrorCode/dpopProofRefused``.
    public func revoke(_ tokens: TokenSet, proofKey: DPoPKey?) async throws(IdentityFlowError) {
        try await revoke(refreshToken: tokens.refreshToken, accessToken: tokens.accessToken, proofKey: proofKey)
    }

    /// Revokes whichever of the two tokens is given, the refresh token first.
    private func revoke(refreshToken: Redacted<String>?, accessToken: Redacted<String>?, proofKey: DPoPKey?) async throws(IdentityFlowError) {
        let metadata = try await providerMetadata()
        guard let endpoint = metadata.revocationEndpoint else {
            throw IdentityFlowError(.configurationInvalid, "The provider names no revocation_endpoint in its discovery document.")
        }
        var pending: [(Redacted<String>, String)] = []
        if let refreshToken { pending.append((refreshToken, "refresh_token")) }
        if let accessToken { pending.append((accessToken, "access_token")) }
        for (token, hint) in pending {
            let response = try await sendWithDPoP(
                clientRequest(endpoint, [("token", token.value), ("token_type_hint", hint)], metadata: metadata, revocation: true), key: proofKey)
            guard response.status == 200 else {
                throw Self.revocationError(response, metadata: metadata, publicClient: configuration.clientAuthentication == .none)
            }
        }
    }

    /// A revocation's error; `invalid_client`, or a bare `401` without an OAuth error (glewlwyd),
    /// from an endpoint that names its client authentication methods without `none` is a
    /// provider that lets only confidential clients revoke, and says so.
    private static func revocationError(_ response: HTTPResponse, metadata: OpenIDProviderMetadata, publicClient: Bool) -> IdentityFlowError {
        var error = oauthError(response, context: "the revocation")
        let methods = metadata.revocationEndpointAuthMethods
        let refusesClient = error.oauthError == "invalid_client" || (response.status == 401 && errorCode(of: response) == nil)
        if publicClient, refusesClient, !methods.isEmpty, !methods.contains("none") {
            error = IdentityFlowError(
                .configurationInvalid,
                "The provider lets only clients with a secret revoke tokens (revocation_endpoint_auth_methods_supported: \(methods.joined(separator: ", "))) and refused this public client (HTTP \(response.status)): its tokens stay valid until they expire."
            )
            error.oauthError = "invalid_client"
        }
        return error
    }

    /// The userinfo endpoint's claims for an access token, for the subject of the session's ID token.
    ///
    /// OpenID Connect Core §5.3.2: the answer's `sub` must be exactly the ID token's `sub` (compared
    /// as bytes), or its claims must not be used; such an answer is refused.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - subject: The `sub` of the session's validated ID token.
    /// - Returns: The claims (`sub`, and e.g. `email`, `name`).
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when the token is refused (401, 403, or 400
    ///   naming `invalid_token`);
    ///   ``ErrorCode/configurationInvalid`` when the server names no userinfo endpoint;
    ///   ``ErrorCode/invalidServerResponse`` when the answer is for another subject.
    public func userInfo(accessToken: Redacted<String>, subject: String) async throws(IdentityFlowError) -> UserInfo {
        try await userInfo(accessToken: accessToken, subject: subject, proofKey: nil)
    }

    /// ``userInfo(accessToken:subject:)`` for a DPoP-bound access token when `proofKey` is given:
    /// `Authorization: DPoP <token>` and a proof with `ath` (RFC 9449 §7); a 401
    /// `WWW-Authenticate: DPoP error="use_dpop_nonce"` is retried once with the nonce it gives.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - subject: The `sub` of the session's validated ID token.
    ///   - proofKey: The profile's DPoP key, or `nil` for a bearer token.
    /// - Returns: The claims.
    /// - Throws: As ``userInfo(accessToken:subject:)``; ``ErrorCode/dpopProofRefused``.
    public func userInfo(accessToken: Redacted<String>, subject: String, proofKey: DPoPKey?) async throws(IdentityFlowError) -> UserInfo {
        let metadata = try await providerMetadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw IdentityFlowError(.configurationInvalid, "The provider names no userinfo_endpoint in its discovery document.")
        }
        var request = URLRequest(url: endpoint)
        if proofKey == nil { request.setValue("Bearer \(accessToken.value)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let response = try await sendWithDPoP(request, key: proofKey, accessToken: accessToken)
        let named = BearerTokenRefusal.errorCode(wwwAuthenticate: response.header("WWW-Authenticate"), json: response.json)
        if response.status == 403 || BearerTokenRefusal.refusesToken(status: response.status, error: named) {
            var error = IdentityFlowError(.userNotAuthenticated, "The userinfo endpoint refused the access token (HTTP \(response.status)).")
            error.oauthError = named ?? "invalid_token"
            throw error
        }
        guard response.status == 200 else { throw Self.statusError(response, context: "userinfo") }
        guard let claims = try Self.jsonObject(response, context: "The userinfo answer").objectValue, let answered = claims["sub"]?.stringValue else {
            throw Self.malformed("The userinfo answer", member: "sub")
        }
        guard answered.hasSameBytes(as: subject) else {
            throw IdentityFlowError(
                .invalidServerResponse,
                "The userinfo answer is for another subject than the ID token's, so its claims are not used (OpenID Connect Core §5.3.2).")
        }
        return try UserInfo(claims: claims.mapValues(IdentityClaims.Value.init))
    }

    // MARK: - Provider logout

    /// The discovered `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0) with
    /// `id_token_hint`, `client_id`, `post_logout_redirect_uri` and `state`, appended to any query
    /// the endpoint has; `nil` when the provider publishes no such endpoint.
    /// - Parameter request: The hint, the redirect URI and the state.
    /// - Returns: The logout page, or `nil`.
    /// - Throws: Discovery errors.
    public func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        guard let endpoint = try await providerMetadata().endSessionEndpoint else { return nil }
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else {
            throw IdentityFlowError(.invalidServerResponse, "The end_session_endpoint is not a valid URL.")
        }
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery =
            existing + request.parameters(clientID: configuration.clientID).map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return components.url
    }

    // MARK: - Token responses

    /// Reads an OAuth token response (RFC 6749 §5.1): `token_type` `Bearer` in any case, and
    /// `expires_in` as a number or a string of digits. An answer refused here (another
    /// `token_type`, a malformed member) has its access and refresh tokens revoked, best effort,
    /// before the error is thrown, as every refused token answer does: none stays live unused.
    ///
    /// With `proofKey` (the request carried a DPoP proof) `token_type` must be `DPoP`, or `Bearer`
    /// when ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP`` allows it; the type is kept
    /// in ``TokenSet/tokenType``.
    func tokenSet(from json: JSONValue, requestedScopes: [String], proofKey: DPoPKey? = nil) async throws(IdentityFlowError) -> TokenSet {
        do throws(IdentityFlowError) {
            return try parsedTokenSet(from: json, requestedScopes: requestedScopes, proofSent: proofKey != nil)
        } catch {
            func token(_ member: String) -> Redacted<String>? {
                json[member]?.stringValue.flatMap { $0.isEmpty ? nil : Redacted($0) }
            }
            let refreshToken = token("refresh_token"), accessToken = token("access_token")
            if refreshToken != nil || accessToken != nil {
                try? await revoke(refreshToken: refreshToken, accessToken: accessToken, proofKey: proofKey)
            }
            throw error
        }
    }

    private func parsedTokenSet(from json: JSONValue, requestedScopes: [String], proofSent: Bool) throws(IdentityFlowError) -> TokenSet {
        let context = "The token response"
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else { throw Self.malformed(context, member: "access_token") }
        let type = try checkedTokenType(json["token_type"]?.stringValue, proofSent: proofSent)
        let refreshToken = try optionalString(json, "refresh_token", context: context)
        let idToken = try optionalString(json, "id_token", context: context)
        var expiresAt: Date?
        if let expiresIn = json["expires_in"], !expiresIn.isNull {
            // RFC 6749 says a number; some servers send the number as a string ("3600").
            let digits = expiresIn.stringValue.flatMap { text in text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? Double(text) : nil }
            guard let seconds = expiresIn.doubleValue ?? digits, seconds >= 0 else { throw Self.malformed(context, member: "expires_in") }
            expiresAt = now().addingTimeInterval(seconds)
        }
        let scope = try optionalString(json, "scope", context: context)
        var tokens = TokenSet(
            accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, expiresAt: expiresAt,
            scopes: scope.map { $0.split(separator: " ").map(String.init) } ?? requestedScopes)
        tokens.tokenType = type
        return tokens
    }

    private func optionalString(_ json: JSONValue, _ member: String, context: String) throws(IdentityFlowError) -> String? {
        guard let value = json[member], !value.isNull else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw Self.malformed(context, member: member) }
        return text
    }
}
