/// When an OpenID Connect server binds its tokens to the profile's DPoP key (RFC 9449):
/// ``HTTPServiceConfiguration/dpop``, file key `dpop` (`off`, `whenAdvertised`, `required`).
///
/// The default is ``whenAdvertised``: a provider that lists `ES256` in
/// `dpop_signing_alg_values_supported` gets DPoP, because a bound token is worth nothing to
/// whoever copies it and costs the app one signature per request; a provider that does not is
/// used with bearer tokens as before. Turning DPoP off is an explicit choice (``off``).
public enum DPoPPolicy: String, Sendable, Hashable, CaseIterable {
    /// Never: bearer tokens, no proofs.
    case off
    /// When the provider's discovery document lists `ES256` in `dpop_signing_alg_values_supported`.
    case whenAdvertised
    /// Always: a provider that does not advertise DPoP with `ES256` is refused before the browser
    /// opens (``ErrorCode/securityProfileNotMet``), and the grants that issue bearer tokens (the
    /// password grant, token exchange, provider sessions, partial registration) are refused with
    /// ``ErrorCode/featureNotSupported``.
    case required
}

/// When the authorization request is pushed (PAR, RFC 9126) before the browser opens:
/// ``HTTPServiceConfiguration/pushedAuthorization``, file key `pushedAuthorization`
/// (`off`, `whenAdvertised`, `required`).
///
/// The default is ``whenAdvertised``: a provider that names a
/// `pushed_authorization_request_endpoint` gets the parameters over the back channel, where the
/// browser, its history and other apps cannot read or alter them; the browser then carries
/// `client_id` and `request_uri` only.
public enum PushedAuthorizationPolicy: String, Sendable, Hashable, CaseIterable {
    /// Not pushed, unless the provider sets `require_pushed_authorization_requests` (it would
    /// refuse the request otherwise).
    case off
    /// Pushed when the provider names a `pushed_authorization_request_endpoint`.
    case whenAdvertised
    /// Always: a provider without a `pushed_authorization_request_endpoint` is refused before
    /// the browser opens (``ErrorCode/securityProfileNotMet``).
    case required
}

/// A set of rules the client holds itself to: ``HTTPServiceConfiguration/securityProfile``, file
/// key `securityProfile` (`standard`, `fapi2`).
public enum SecurityProfile: String, Sendable, Hashable, CaseIterable {
    /// The configured ``DPoPPolicy`` and ``PushedAuthorizationPolicy`` apply as they are.
    case standard
    /// The FAPI 2.0 Security Profile's client side (see the "FAPI 2.0 client profile" article):
    /// pushed authorization requests, PKCE S256, DPoP-bound tokens signed with `ES256`, and `iss`
    /// in every authorization response (RFC 9207) are all required, whatever ``DPoPPolicy`` and
    /// ``PushedAuthorizationPolicy`` say; a provider that lacks one is refused before the browser
    /// opens (``ErrorCode/securityProfileNotMet``), and the password grant and token exchange are
    /// refused (``ErrorCode/featureNotSupported``). A `Bearer` answer to a DPoP request is
    /// refused even with ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP``.
    case fapi2
}
