import Foundation

/// The parts of an OpenID Connect discovery document (or RFC 8414 authorization server metadata)
/// that ``HTTPIdentityService`` uses.
package struct OpenIDProviderMetadata: Sendable, Hashable {
    /// The issuer identifier; ID tokens must carry it as `iss`.
    package let issuer: String
    /// The authorization endpoint.
    package let authorizationEndpoint: URL
    /// The token endpoint.
    package let tokenEndpoint: URL
    /// The userinfo endpoint, if offered.
    package let userinfoEndpoint: URL?
    /// The JWKS URL, if offered (required to validate ID tokens).
    package let jwksURI: URL?
    /// The RFC 7009 revocation endpoint, if offered.
    package let revocationEndpoint: URL?
    /// How the revocation endpoint authenticates clients (RFC 8414
    /// `revocation_endpoint_auth_methods_supported`); empty when the server does not say.
    package var revocationEndpointAuthMethods: [String] = []
    /// How the token endpoint authenticates clients (`token_endpoint_auth_methods_supported`);
    /// empty when the server does not say.
    package var tokenEndpointAuthMethods: [String] = []
    /// The PKCE methods the server names; empty when it names none.
    package let codeChallengeMethodsSupported: [String]
    /// Whether the server promises an `iss` parameter in every authorization response (RFC 9207
    /// `authorization_response_iss_parameter_supported`).
    package let sendsAuthorizationResponseIssuer: Bool
    /// Where the client's identity apps are listed (Grab's `client_public_info_endpoint`), a URL
    /// template with `{client_id}` in place of the client id: its answer's `custom_protocols`
    /// name the app's URL scheme and App Store link. Kept as text (braces are no URL).
    package var clientPublicInfoEndpoint: String?
    /// The OpenID Connect RP-Initiated Logout 1.0 `end_session_endpoint`, if offered.
    package var endSessionEndpoint: URL?
    /// The JWS algorithms the provider accepts for DPoP proofs (RFC 9449 §5.1
    /// `dpop_signing_alg_values_supported`); empty when it does not advertise DPoP.
    package var dpopSigningAlgValuesSupported: [String] = []
    /// The pushed authorization request endpoint (RFC 9126 §5 `pushed_authorization_request_endpoint`), if offered.
    package var pushedAuthorizationRequestEndpoint: URL?
    /// Whether the provider accepts authorization requests only when pushed (RFC 9126 §5
    /// `require_pushed_authorization_requests`).
    package var requirePushedAuthorizationRequests = false

    /// Creates metadata.
    /// - Parameters:
    ///   - issuer: The issuer.
    ///   - authorizationEndpoint: The authorization endpoint.
    ///   - tokenEndpoint: The token endpoint.
    ///   - userinfoEndpoint: The userinfo endpoint.
    ///   - jwksURI: The JWKS URL.
    ///   - revocationEndpoint: The revocation endpoint.
    ///   - codeChallengeMethodsSupported: The PKCE methods.
    ///   - sendsAuthorizationResponseIssuer: Whether authorization responses carry `iss`.
    package init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, userinfoEndpoint: URL? = nil, jwksURI: URL? = nil,
        revocationEndpoint: URL? = nil, codeChallengeMethodsSupported: [String] = [], sendsAuthorizationResponseIssuer: Bool = false
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.revocationEndpoint = revocationEndpoint
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.sendsAuthorizationResponseIssuer = sendsAuthorizationResponseIssuer
    }

    /// Whether an optional endpoint IdentityFlow uses (revocation, userinfo, JWKS) is missing.
    var lacksOptionalEndpoints: Bool { revocationEndpoint == nil || userinfoEndpoint == nil || jwksURI == nil }

    /// This metadata with its missing optional endpoints taken from `other` (same issuer).
    func filling(from other: OpenIDProviderMetadata) -> OpenIDProviderMetadata {
        OpenIDProviderMetadata(
            issuer: issuer, authorizationEndpoint: authorizationEndpoint, tokenEndpoint: tokenEndpoint,
            userinfoEndpoint: userinfoEndpoint ?? other.userinfoEndpoint, jwksURI: jwksURI ?? other.jwksURI,
            revocationEndpoint: revocationEndpoint ?? other.revocationEndpoint,
            codeChallengeMethodsSupported: codeChallengeMethodsSupported.isEmpty ? other.codeChallengeMethodsSupported : codeChallengeMethodsSupported,
            sendsAuthorizationResponseIssuer: sendsAuthorizationResponseIssuer || other.sendsAuthorizationResponseIssuer
        )
        .withMembersOutsideInit(from: self, or: other)
    }

    /// This metadata with the members its initializer does not take from `first`, or from
    /// `second` where `first` has none.
    private func withMembersOutsideInit(from first: OpenIDProviderMetadata, or second: OpenIDProviderMetadata) -> OpenIDProviderMetadata {
        var copy = self
        copy.clientPublicInfoEndpoint = first.clientPublicInfoEndpoint ?? second.clientPublicInfoEndpoint
        copy.endSessionEndpoint = first.endSessionEndpoint ?? second.endSessionEndpoint
        copy.revocationEndpointAuthMethods =
            first.revocationEndpointAuthMethods.isEmpty ? second.revocationEndpointAuthMethods : first.revocationEndpointAuthMethods
        copy.tokenEndpointAuthMethods = first.tokenEndpointAuthMethods.isEmpty ? second.tokenEndpointAuthMethods : first.tokenEndpointAuthMethods
        copy.dpopSigningAlgValuesSupported =
            first.dpopSigningAlgValuesSupported.isEmpty ? second.dpopSigningAlgValuesSupported : first.dpopSigningAlgValuesSupported
        copy.pushedAuthorizationRequestEndpoint = first.pushedAuthorizationRequestEndpoint ?? second.pushedAuthorizationRequestEndpoint
        copy.requirePushedAuthorizationRequests = first.requirePushedAuthorizationRequests || second.requirePushedAuthorizationRequests
        return copy
    }

    /// Reads metadata from a discovery document.
    /// - Parameter document: The parsed JSON document.
    /// - Throws: ``ErrorCode/invalidServerResponse`` when a required member is missing or not a URL,
    ///   ``ErrorCode/configurationInvalid`` when an endpoint is plain http to a non-loopback host.
    init(document: JSONValue) throws(IdentityFlowError) {
        func url(_ key: String, required: Bool) throws(IdentityFlowError) -> URL? {
            guard let text = document[key]?.stringValue else {
                if required { throw IdentityFlowError(.invalidServerResponse, "The discovery document has no '\(key)'.") }
                return nil
            }
            guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
                throw IdentityFlowError(.invalidServerResponse, "The discovery document's '\(key)' is not an absolute URL.")
            }
            if let problem = HTTPServiceConfiguration.transportProblem(url) { throw problem }
            return url
        }
        guard let issuer = document["issuer"]?.stringValue, !issuer.isEmpty else {
            throw IdentityFlowError(.invalidServerResponse, "The discovery document has no 'issuer'.")
        }
        guard let authorization = try url("authorization_endpoint", required: true),
            let token = try url("token_endpoint", required: true)
        else {
            throw IdentityFlowError(.invalidServerResponse, "The discovery document lacks the authorization or token endpoint.")
        }
        self.init(
            issuer: issuer, authorizationEndpoint: authorization, tokenEndpoint: token,
            userinfoEndpoint: try url("userinfo_endpoint", required: false), jwksURI: try url("jwks_uri", required: false),
            revocationEndpoint: try url("revocation_endpoint", required: false),
            codeChallengeMethodsSupported: document["code_challenge_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            sendsAuthorizationResponseIssuer: document["authorization_response_iss_parameter_supported"] == .bool(true))
        clientPublicInfoEndpoint = document["client_public_info_endpoint"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        endSessionEndpoint = try url("end_session_endpoint", required: false)
        revocationEndpointAuthMethods = document["revocation_endpoint_auth_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        tokenEndpointAuthMethods = document["token_endpoint_auth_methods_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        dpopSigningAlgValuesSupported = document["dpop_signing_alg_values_supported"]?.arrayValue?.compactMap(\.stringValue) ?? []
        pushedAuthorizationRequestEndpoint = try url("pushed_authorization_request_endpoint", required: false)
        requirePushedAuthorizationRequests = document["require_pushed_authorization_requests"] == .bool(true)
    }
}
