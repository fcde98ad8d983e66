import Foundation

extension HTTPIdentityService {
    /// What the configuration requires of the provider, checked before any browser opens:
    /// under ``SecurityProfile/fapi2`` everything ``checkFAPI2(_:)`` checks and a DPoP key for
    /// the sign-in; with ``DPoPPolicy/required``, DPoP with `ES256`. (Pushed authorization is
    /// checked where the endpoint is chosen, ``pushedAuthorizationEndpoint(_:)``.)
    /// - Parameters:
    ///   - metadata: The provider's metadata.
    ///   - request: The sign-in's request.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` naming what is missing.
    func checkAuthorizationRequirements(_ metadata: OpenIDProviderMetadata, request: AuthorizationRequest) throws(IdentityFlowError) {
        if configuration.securityProfile == .fapi2 {
            try checkFAPI2(metadata)
            guard request.dpopKeyThumbprint != nil else {
                throw IdentityFlowError(
                    .securityProfileNotMet,
                    "The FAPI 2.0 profile (securityProfile: fapi2) requires DPoP-bound tokens, but the sign-in has no DPoP key (dpopKeyThumbprint); nothing was sent."
                )
            }
        } else if configuration.dpop == .required, !metadata.dpopSigningAlgValuesSupported.contains("ES256") {
            throw Self.dpopMissing(metadata, requiredBy: "The configuration requires DPoP (dpop: required)")
        }
    }

    /// The FAPI 2.0 Security Profile's requirements on the provider's metadata (client side):
    /// a `pushed_authorization_request_endpoint`, `ES256` in `dpop_signing_alg_values_supported`,
    /// `authorization_response_iss_parameter_supported` true, and `S256` among the PKCE methods
    /// when the provider lists them.
    /// - Parameter metadata: The provider's metadata.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` naming every requirement the provider lacks.
    func checkFAPI2(_ metadata: OpenIDProviderMetadata) throws(IdentityFlowError) {
        var missing: [String] = []
        if metadata.pushedAuthorizationRequestEndpoint == nil { missing.append("a pushed_authorization_request_endpoint (PAR, RFC 9126)") }
        if !metadata.dpopSigningAlgValuesSupported.contains("ES256") {
            missing.append("DPoP with ES256 in dpop_signing_alg_values_supported (RFC 9449)")
        }
        if !metadata.sendsAuthorizationResponseIssuer { missing.append("authorization_response_iss_parameter_supported: true (RFC 9207)") }
        if !metadata.codeChallengeMethodsSupported.isEmpty, !metadata.codeChallengeMethodsSupported.contains("S256") {
            missing.append("S256 in code_challenge_methods_supported (PKCE)")
        }
        guard missing.isEmpty else {
            throw IdentityFlowError(
                .securityProfileNotMet,
                "The FAPI 2.0 profile (securityProfile: fapi2) requires \(missing.joined(separator: "; ")), which the provider's metadata lacks; nothing was sent."
            )
        }
    }

    /// Refuses a grant that issues tokens without the browser's PKCE, PAR and `iss` checks and
    /// without a DPoP proof (the password grant, token exchange, provider sessions, partial
    /// registration) when the configuration asks for bound tokens: under
    /// ``SecurityProfile/fapi2`` (which allows only the authorization code flow) or with
    /// ``DPoPPolicy/required``.
    /// - Parameter grant: What the grant is called in the message.
    /// - Throws: ``ErrorCode/featureNotSupported`` under either setting; nothing is sent.
    func refuseUnboundGrant(_ grant: String) throws(IdentityFlowError) {
        if configuration.securityProfile == .fapi2 {
            throw IdentityFlowError(
                .featureNotSupported,
                "The FAPI 2.0 profile (securityProfile: fapi2) allows only the authorization code flow: \(grant) is refused; nothing was sent.")
        }
        if configuration.dpop == .required {
            throw IdentityFlowError(
                .featureNotSupported,
                "The configuration requires DPoP-bound tokens (dpop: required), and \(grant) issues bearer tokens: it is refused; nothing was sent.")
        }
    }
}

extension HTTPIdentityService {
    /// Under ``SecurityProfile/fapi2`` every token request carries a DPoP proof, and so does
    /// every extension call that carries an access token (the profile's tokens are all bound).
    /// - Parameters:
    ///   - key: The call's DPoP key.
    ///   - call: What the message names, when it is not a token request.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` when `key` is `nil` under the profile.
    func requireKeyUnderFAPI2(_ key: DPoPKey?, for call: String? = nil) throws(IdentityFlowError) {
        guard configuration.securityProfile == .fapi2, key == nil else { return }
        let what =
            call.map { "on \($0): every access token it uses is bound to a key (a bearer token from a grant outside the profile is refused too)" }
            ?? "on every token request"
        throw IdentityFlowError(
            .securityProfileNotMet, "The FAPI 2.0 profile (securityProfile: fapi2) requires a DPoP proof \(what); nothing was sent.")
    }
}
