import Foundation

// 7Pass-style native login at the token endpoint: the password grant (RFC 6749 §4.3, legacy per
// RFC 9700 §2.4) and social login by token exchange (RFC 8693).
extension HTTPIdentityService {
    /// `grant_type=password` at the token endpoint.
    /// - Parameters:
    ///   - login: The login (`username`).
    ///   - password: The password.
    ///   - scopes: The scopes; empty uses the configured ones.
    /// - Returns: `.granted` (200), `.invalid` (400 `invalid_grant`), `.interactionRequired`
    ///   (`interaction_required` with an `autologin_token`).
    /// - Throws: 10001 when the client may not use the grant (`unauthorized_client`,
    ///   `unsupported_grant_type`); as the table otherwise.
    public func passwordGrant(login: String, password: Redacted<String>, scopes: [String]) async throws(IdentityFlowError) -> CredentialsOutcome {
        try await credentialsGrant(
            [("grant_type", "password"), ("username", login), ("password", password.value)], scopes: scopes, context: "the password grant")
    }

    /// RFC 8693 token exchange at the token endpoint: `subject_token` and `subject_token_type`,
    /// with the issuing provider's name in `subject_issuer`.
    /// - Parameters:
    ///   - token: The other provider's token.
    ///   - scopes: The scopes; empty uses the configured ones.
    /// - Returns: As ``passwordGrant(login:password:scopes:)``; a refused token is `.invalid`.
    public func exchangeExternalToken(_ token: ExternalToken, scopes: [String]) async throws(IdentityFlowError) -> CredentialsOutcome {
        try await credentialsGrant(
            [
                ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("subject_token", token.token.value),
                ("subject_token_type", token.tokenType), ("subject_issuer", token.provider),
                ("requested_token_type", "urn:ietf:params:oauth:token-type:refresh_token"),
            ], scopes: scopes, context: "the token exchange")
    }

    private func credentialsGrant(_ parameters: [(String, String)], scopes: [String], context: String) async throws(IdentityFlowError) -> CredentialsOutcome {
        try refuseUnboundGrant(context)
        let metadata = try await providerMetadata()
        let asked = scopes.isEmpty ? configuration.scopes : scopes
        let response = try await transport.send(
            clientRequest(metadata.tokenEndpoint, parameters + [("scope", asked.joined(separator: " "))], metadata: metadata))
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _):
            let tokens = try await tokenSet(from: try Self.jsonObject(response, context: "The token response"), requestedScopes: asked)
            if let idToken = tokens.idToken {
                do throws(IdentityFlowError) {
                    _ = try await validateIdToken(idToken, nonce: nil, accessToken: tokens.accessToken, serverDate: response.date)
                } catch {
                    try? await revoke(tokens)
                    throw error
                }
            }
            return .granted(tokens)
        case (400, "invalid_grant"), (401, "invalid_grant"):
            return .invalid
        case (_, "interaction_required"):
            guard let autologin = response.json?["autologin_token"]?.stringValue, !autologin.isEmpty else {
                throw Self.malformed("The interaction_required answer", member: "autologin_token")
            }
            return .interactionRequired(autologinToken: Redacted(autologin))
        default:
            throw Self.oauthError(response, context: context)
        }
    }
}
