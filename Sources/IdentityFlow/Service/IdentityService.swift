import Foundation

/// The server, as the flows see it: OAuth 2.0 / OpenID Connect plus IdentityFlow's registration
/// and PIN extension endpoints.
///
/// Two implementations ship: `HTTPIdentityService` for real servers and
/// `ReferenceIdentityService` (in IdentityFlowTesting), an in-memory server for tests and demos.
/// Every method throws ``IdentityFlowError`` only: network trouble as
/// ``ErrorCode/networkConnectivityFailure`` or ``ErrorCode/serverNotReachable``, broken answers
/// as ``ErrorCode/invalidServerResponse``, and task cancellation as ``ErrorCode/actionCancelled``.
///
/// The methods are `nonisolated(nonsending)`: a flow calls them inside its step, on its runner,
/// and an implementation runs there until it first suspends (on the network, say). One that
/// answers without suspending (an in-process server) costs the flow no task switch.
@_spi(Integrator) public protocol IdentityService: Sendable {
    /// The identity providers users can register with.
    nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider]

    /// The URL of the browser page where the user signs in.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, scopes and redirect URI.
    nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL

    /// The same request addressed to an installed identity app (app-to-app login), or `nil` when
    /// the provider offers none or the request does not suit it.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, redirect URI and scopes.
    nonisolated(nonsending) func appAuthorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL?

    /// The identity app of an app-to-app login for this request: its URL, how to tell it is
    /// installed, and where to install it; `nil` when the provider offers none. The default is
    /// ``appAuthorizationURL(for:request:)`` alone.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, redirect URI and scopes.
    nonisolated(nonsending) func identityAppLink(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError)
        -> IdentityAppLink?

    /// Exchanges an authorization code for tokens (validating the ID token against the request's nonce).
    /// - Parameters:
    ///   - code: The code from the redirect.
    ///   - request: The request that obtained it (its PKCE verifier proves the device).
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet

    /// Checks the `iss` parameter of an authorization response before its code is exchanged
    /// (RFC 9207, the mix-up defence). The registration flow calls it with every authorized
    /// redirect. The default implementation accepts any value: a service that knows its issuer
    /// should refuse one that differs, and a missing one when it promises to send it.
    /// - Parameter issuer: The redirect's `iss` value, or `nil` when it carries none.
    /// - Throws: ``ErrorCode/issuerMismatch`` to refuse the response; nothing is exchanged.
    nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError)

    /// Sends the init step of a two-step custom registration.
    /// - Parameters:
    ///   - provider: A custom identity provider.
    ///   - data: The host's optional initial data.
    /// - Returns: The provider's answer and the session the finish step names.
    /// - Throws: ``ErrorCode/customRegistrationExpired`` when the server ended the session.
    nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer

    /// Sends the finish step of a custom registration.
    /// - Parameters:
    ///   - provider: A custom identity provider.
    ///   - session: The session from the init answer (`nil` for one-step).
    ///   - data: The host's registration data.
    /// - Returns: The provider's answer; on 2000-2999 with the new user's tokens.
    /// - Throws: ``ErrorCode/customRegistrationExpired`` when the session expired.
    nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer

    /// Binds a profile and its PIN public key to the user the access token belongs to;
    /// re-enrolling (a PIN change) needs the current PIN key's proof, replaces the key and resets
    /// the failure count. A first enrolment needs a token of the sign-in that just happened: the
    /// server refuses an implicit token, and one whose sign-in is bound to a profile already
    /// (``ErrorCode/accessTokenNotAllowed``), so that a copied token cannot enrol a PIN of its own.
    /// - Parameters:
    ///   - enrolment: Profile, salt, iterations, public key and, for a change, the proof.
    ///   - accessToken: The access token of the registration's sign-in, or of the session.
    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt

    /// Starts a PIN login: a fresh nonce and the derivation parameters.
    /// - Parameter profile: The profile logging in.
    /// - Throws: ``ErrorCode/userDeregistered`` when the server no longer knows the profile.
    nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge

    /// Checks a PIN proof (PIN proof v2, `docs/pin-proof.md`); the server counts wrong ones.
    ///
    /// The proof is an ECDSA P-256 (SHA-256) signature by the PIN key, derived on the device from
    /// the PIN and the device secret, over `message("identityflow-pin-proof-v2", profile_id,
    /// nonce)`; the server verifies it with the PIN public key it stores. A profile not yet
    /// upgraded from v1 (the challenge said `version: 1`) sends its v1 proof here once, at the
    /// login that upgrades it (`docs/pin-proof.md`, Migration).
    /// - Parameters:
    ///   - proof: The signature, raw `r ‖ s` (64 bytes, big-endian).
    ///   - profile: The profile logging in.
    ///   - nonce: The nonce from ``pinLoginChallenge(for:)``.
    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification

    /// Registers the profile's biometric public key. `authorization` is a proof by the PIN key
    /// over a fresh challenge's nonce and `publicKey` (`docs/pin-proof.md`); the server counts a
    /// wrong one like a wrong PIN.
    /// - Parameters:
    ///   - publicKey: The biometric public key, SEC1 uncompressed P-256 (65 bytes).
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof.
    ///   - accessToken: An access token of the profile's user.
    /// - Throws: ``ErrorCode/invalidPin`` for a wrong proof, ``ErrorCode/userDeregistered`` when it
    ///   was the last allowed one.
    nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>) async throws(IdentityFlowError)

    /// Checks a proof by the biometric key over a challenge's nonce; the server counts a wrong one.
    /// - Parameters:
    ///   - proof: ECDSA r‖s by the biometric key (`docs/pin-proof.md`).
    ///   - profile: The profile logging in.
    ///   - nonce: The nonce from ``pinLoginChallenge(for:)``.
    nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification

    /// Revokes the profile's biometric key on the server; the PIN stays. `authorization` is a
    /// proof by the PIN key over a fresh challenge's nonce (`docs/pin-proof.md`); the server
    /// counts a wrong one like a wrong PIN.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof.
    nonisolated(nonsending) func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError)

    /// Exchanges a refresh token for fresh tokens; a rotated refresh token replaces the old one.
    /// - Parameter refreshToken: The refresh token.
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet

    /// Revokes tokens (RFC 7009).
    /// - Parameter tokens: The tokens to revoke.
    nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError)

    /// The userinfo endpoint's claims for an access token (OpenID Connect Core §5.3). The
    /// answer's `sub` must be `subject`, compared as bytes: refuse any other.
    /// - Parameters:
    ///   - accessToken: The session's access token.
    ///   - subject: The `sub` of the session's ID token.
    /// - Returns: The claims.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` for a refused token;
    ///   ``ErrorCode/invalidServerResponse`` for an answer about another subject.
    nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String) async throws(IdentityFlowError) -> UserInfo

    /// The provider's logout page for a session (OpenID Connect RP-Initiated Logout 1.0): its
    /// `end_session_endpoint` with the request's `id_token_hint`, `post_logout_redirect_uri` and
    /// `state`; `nil` when the provider offers none.
    /// - Parameter request: The hint, the redirect URI and the state.
    /// - Returns: The page to open, or `nil`.
    nonisolated(nonsending) func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL?

    /// Removes a profile on the server: its PIN enrolment, device keys and tokens.
    /// `authorization` is a proof by the PIN key over a fresh challenge's nonce
    /// (`docs/pin-proof.md`): neither a copied token nor a copy of the device's storage can
    /// deregister. The server counts a wrong proof like a wrong PIN.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof.
    nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError)

    /// Whether the server still knows a profile (checked at launch).
    /// - Parameter profile: The profile.
    nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool

    // MARK: - Mobile and implicit authentication (docs/mobile-auth.md)

    /// Completes a partial registration (Zephr's `status=partial` callback) with the attributes
    /// the provider still needs.
    /// - Parameters:
    ///   - stateKey: The callback's `state_key`.
    ///   - attributes: The host's attributes.
    ///   - request: The browser step's request (redirect URI, PKCE verifier, scopes).
    /// - Returns: The new user's tokens, or why the attributes were refused.
    /// - Throws: ``ErrorCode/partialRegistrationExpired`` for an expired or unknown state key.
    nonisolated(nonsending) func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>,
        request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome

    /// Exchanges the session a provider opened for an existing user at the browser step
    /// (Zephr's `status=success&session_id=…` callback) for tokens, bound to the browser step by
    /// its PKCE verifier.
    /// - Parameters:
    ///   - session: The callback's `session_id`.
    ///   - request: The browser step's request.
    /// - Returns: The user's tokens.
    /// - Throws: ``ErrorCode/externalIdentityProviderFailure`` when the server does not know the
    ///   session for this verifier (unknown, expired, used); ``ErrorCode/featureNotSupported``
    ///   from a service without it.
    nonisolated(nonsending) func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet

    /// Signs a user in with a login and password (the OAuth password grant, RFC 6749 §4.3).
    /// - Parameters:
    ///   - login: The login.
    ///   - password: The password.
    ///   - scopes: The scopes to ask for.
    /// - Returns: Tokens, a refusal, or the browser continuation.
    nonisolated(nonsending) func passwordGrant(login: String, password: Redacted<String>, scopes: [String]) async throws(IdentityFlowError)
        -> CredentialsOutcome

    /// Exchanges another provider's token for this provider's tokens (RFC 8693).
    /// - Parameters:
    ///   - token: The other provider's token.
    ///   - scopes: The scopes to ask for.
    /// - Returns: Tokens, a refusal, or the browser continuation.
    nonisolated(nonsending) func exchangeExternalToken(_ token: ExternalToken, scopes: [String]) async throws(IdentityFlowError) -> CredentialsOutcome

    /// Registers the profile's mobile authentication public key.
    /// - Parameters:
    ///   - publicKey: The key (65-byte uncompressed P-256 point).
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: An access token of the profile's user (never an implicit one).
    nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>) async throws(IdentityFlowError)

    /// Registers the device's push token for the profile's mobile authentication requests.
    /// - Parameters:
    ///   - deviceToken: The push token (APNs on Apple platforms), as the host received it.
    ///   - profile: The profile, enrolled for mobile authentication.
    ///   - accessToken: An access token of the profile's user.
    nonisolated(nonsending) func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>)
        async throws(IdentityFlowError)

    /// Fetches open requests, authorized by the mobile authentication key's signature over a
    /// fresh nonce (``pinLoginChallenge(for:)``'s) and the lookup.
    /// - Parameters:
    ///   - lookup: Which requests.
    ///   - profile: The profile.
    ///   - authorization: The nonce and the signature.
    /// - Returns: The requests; a lookup by id or one-time code returns one or throws.
    nonisolated(nonsending) func mobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> [MobileAuthRequest]

    /// Sends the device's answer to a request.
    /// - Parameter answer: The signed answer.
    /// - Returns: Whether the server took it.
    nonisolated(nonsending) func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError) -> MobileAuthVerdict

    /// Registers or replaces the profile's implicit authentication public key, vouched for by
    /// the PIN key (`docs/mobile-auth.md`); the server counts a wrong proof like a wrong PIN.
    /// - Parameters:
    ///   - publicKey: The key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: An access token of the profile's user (never an implicit one).
    nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>) async throws(IdentityFlowError)

    /// Issues an access token for implicit scopes, authorized by the implicit key's signature
    /// over a fresh nonce and the scopes.
    /// - Parameters:
    ///   - scopes: Scopes the server marks implicit.
    ///   - profile: The profile.
    ///   - authorization: The nonce and the signature.
    /// - Returns: The tokens (an access token, without a refresh token).
    nonisolated(nonsending) func implicitAccessToken(scopes: [String], for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> TokenSet

    // MARK: - Sender-constrained tokens (DPoP, RFC 9449)

    /// Whether this sign-in's tokens are to be DPoP-bound: the configured policy against what the
    /// provider advertises. A flow asks before it opens the browser, and creates the profile's
    /// key (its thumbprint in ``AuthorizationRequest/dpopKeyThumbprint``) when the answer is yes.
    /// The default is `false`.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` when the configuration requires DPoP (or the
    ///   FAPI 2.0 profile) and the provider lacks it: before any browser opens.
    nonisolated(nonsending) func usesDPoP() async throws(IdentityFlowError) -> Bool

    /// ``exchangeCode(_:request:)`` with a DPoP proof by `proofKey` (when given): the tokens are
    /// bound to the key.
    /// - Parameters:
    ///   - code: The code from the redirect.
    ///   - request: The request that obtained it.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Throws: ``ErrorCode/tokenNotSenderConstrained`` when the provider answers `Bearer` to a
    ///   proof; ``ErrorCode/dpopProofRefused``; as ``exchangeCode(_:request:)``.
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest, proofKey: DPoPKey?) async throws(IdentityFlowError)
        -> TokenSet

    /// ``verifyPinProof(_:for:nonce:)`` with a DPoP proof by `proofKey` (when given), so that the
    /// tokens a server-side PIN login issues are bound to the profile's key from the start. A
    /// service that cannot bind answers as ``verifyPinProof(_:for:nonce:)`` does: the tokens'
    /// ``TokenSet/tokenType`` then says `Bearer`, and the session treats them so. The default
    /// forwards without the key.
    /// - Parameters:
    ///   - proof: The PIN proof, as for ``verifyPinProof(_:for:nonce:)``.
    ///   - profile: The profile logging in.
    ///   - nonce: The nonce from ``pinLoginChallenge(for:)``.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Throws: ``ErrorCode/tokenNotSenderConstrained`` when the server answers `Bearer` to a
    ///   proof; ``ErrorCode/dpopProofRefused``; as ``verifyPinProof(_:for:nonce:)``.
    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification

    /// ``verifyBiometricProof(_:for:nonce:)`` with a DPoP proof by `proofKey` (when given), as
    /// ``verifyPinProof(_:for:nonce:proofKey:)``. The default forwards without the key.
    /// - Parameters:
    ///   - proof: The biometric key's signature.
    ///   - profile: The profile logging in.
    ///   - nonce: The nonce from ``pinLoginChallenge(for:)``.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Throws: As ``verifyPinProof(_:for:nonce:proofKey:)``.
    nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification

    /// ``refresh(_:)`` with a DPoP proof by `proofKey` (when given): a refresh token bound to the
    /// key is refused without it.
    /// - Parameters:
    ///   - refreshToken: The refresh token.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError) -> TokenSet

    /// ``revoke(_:)`` with a DPoP proof by `proofKey` (when given).
    /// - Parameters:
    ///   - tokens: The tokens to revoke.
    ///   - proofKey: The profile's DPoP key, or `nil`.
    nonisolated(nonsending) func revoke(_ tokens: TokenSet, proofKey: DPoPKey?) async throws(IdentityFlowError)

    /// ``userInfo(accessToken:subject:)`` with `Authorization: DPoP <token>` and a proof by
    /// `proofKey` (with `ath`), when given.
    /// - Parameters:
    ///   - accessToken: The session's access token.
    ///   - subject: The `sub` of the session's ID token.
    ///   - proofKey: The profile's DPoP key, or `nil` for a bearer token.
    nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String, proofKey: DPoPKey?) async throws(IdentityFlowError) -> UserInfo

    /// ``enrolPin(_:accessToken:)`` with the access token as `Authorization: DPoP <token>` and a
    /// proof by `proofKey` naming it (`ath`), when given: a server that checks proofs (RFC 9449
    /// §7) refuses a DPoP-bound token sent as a bearer token, and one that does not lets whoever
    /// copied the token enrol. The flows pass the profile's key when the tokens are bound
    /// (``TokenSet/isSenderConstrained``). The default forwards without the key.
    /// - Parameters:
    ///   - enrolment: As for ``enrolPin(_:accessToken:)``.
    ///   - accessToken: The access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Throws: ``ErrorCode/dpopProofRefused``; as ``enrolPin(_:accessToken:)``.
    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)
        -> PinEnrolmentReceipt

    /// ``enrolBiometricKey(_:for:authorization:accessToken:)`` with a DPoP-proven access token
    /// when `proofKey` is given, as ``enrolPin(_:accessToken:proofKey:)``. The default forwards
    /// without the key.
    /// - Parameters:
    ///   - publicKey: The biometric public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof.
    ///   - accessToken: An access token of the profile's user.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)

    /// ``enrolMobileAuthentication(publicKey:for:authorization:accessToken:)`` with a DPoP-proven
    /// access token when `proofKey` is given, as ``enrolPin(_:accessToken:proofKey:)``. The
    /// default forwards without the key.
    /// - Parameters:
    ///   - publicKey: The key (65-byte uncompressed P-256 point).
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: An access token of the profile's user.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)

    /// ``enrolPushMobileAuthentication(deviceToken:for:accessToken:)`` with a DPoP-proven access
    /// token when `proofKey` is given, as ``enrolPin(_:accessToken:proofKey:)``. The default
    /// forwards without the key.
    /// - Parameters:
    ///   - deviceToken: The push token.
    ///   - profile: The profile, enrolled for mobile authentication.
    ///   - accessToken: An access token of the profile's user.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    nonisolated(nonsending) func enrolPushMobileAuthentication(
        deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)

    /// ``enrolImplicitAuthentication(publicKey:for:authorization:accessToken:)`` with a
    /// DPoP-proven access token when `proofKey` is given, as ``enrolPin(_:accessToken:proofKey:)``.
    /// The default forwards without the key.
    /// - Parameters:
    ///   - publicKey: The key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: An access token of the profile's user.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)

    /// When the pushed authorization request (PAR, RFC 9126) behind an authorization URL expires;
    /// `nil` when the URL carries the whole request (no PAR), or the service does not know. A flow
    /// that opens the page later than it got it (a host that waits, a resumed registration) asks
    /// ``checkAuthorizationURLFresh(_:at:)``, and asks ``authorizationURL(for:request:)`` again
    /// (which pushes again) rather than open a page the provider would answer with an error.
    /// The default is `nil`.
    /// - Parameter url: A URL ``authorizationURL(for:request:)`` returned.
    nonisolated(nonsending) func authorizationURLExpiry(_ url: URL) async -> Date?
}

@_spi(Integrator) extension IdentityService {
    /// A service without biometric keys refuses to register one.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered``.
    public nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        throw IdentityFlowError(.authenticatorNotRegistered, "This identity service does not support biometric keys.")
    }

    /// A service without biometric keys has none to check.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered``.
    public nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8])
        async throws(IdentityFlowError) -> PinVerification
    {
        throw IdentityFlowError(.authenticatorNotRegistered, "This identity service does not support biometric keys.")
    }

    /// A service without biometric keys has none to revoke.
    public nonisolated(nonsending) func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {}

    /// No identity app: the browser URL alone.
    /// - Returns: `nil`.
    public nonisolated(nonsending) func appAuthorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError)
        -> URL?
    { nil }

    /// ``appAuthorizationURL(for:request:)`` as a link without installation check or App Store URL.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: The authorization request.
    /// - Returns: The link, or `nil` when there is no app URL.
    public nonisolated(nonsending) func identityAppLink(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError)
        -> IdentityAppLink?
    {
        try await appAuthorizationURL(for: provider, request: request).map { IdentityAppLink(appURL: $0) }
    }

    /// Accepts any `iss`: a service that cannot name its issuer has nothing to compare with.
    /// - Parameter issuer: The redirect's `iss` value, ignored.
    public nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {}

    /// A service without a userinfo endpoint refuses.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String) async throws(IdentityFlowError) -> UserInfo {
        throw Self.unsupported("userinfo")
    }

    /// A service without provider logout has no logout page.
    /// - Returns: `nil`.
    public nonisolated(nonsending) func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? { nil }

    /// A service without the password grant refuses it.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func passwordGrant(login: String, password: Redacted<String>, scopes: [String]) async throws(IdentityFlowError)
        -> CredentialsOutcome
    {
        throw Self.unsupported("the password grant")
    }

    /// A service without token exchange refuses it.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func exchangeExternalToken(_ token: ExternalToken, scopes: [String]) async throws(IdentityFlowError) -> CredentialsOutcome {
        throw Self.unsupported("token exchange")
    }

    /// A service without partial registration refuses it.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>,
        request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome {
        throw Self.unsupported("partial registration")
    }

    /// A service without provider sessions refuses them.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError)
        -> TokenSet
    {
        throw Self.unsupported("provider session login")
    }

    /// A service without mobile authentication refuses to enrol.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        throw Self.unsupported("mobile authentication")
    }

    /// A service without mobile authentication refuses to enrol.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>)
        async throws(IdentityFlowError)
    {
        throw Self.unsupported("push mobile authentication")
    }

    /// A service without mobile authentication has no requests.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func mobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> [MobileAuthRequest]
    {
        throw Self.unsupported("mobile authentication")
    }

    /// A service without mobile authentication takes no answers.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError) -> MobileAuthVerdict {
        throw Self.unsupported("mobile authentication")
    }

    /// A service without implicit authentication refuses to enrol.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        throw Self.unsupported("implicit authentication")
    }

    /// A service without implicit authentication issues no implicit tokens.
    /// - Throws: ``ErrorCode/featureNotSupported``.
    public nonisolated(nonsending) func implicitAccessToken(scopes: [String], for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> TokenSet
    {
        throw Self.unsupported("implicit authentication")
    }

    /// A service without DPoP issues bearer tokens.
    /// - Returns: `false`.
    public nonisolated(nonsending) func usesDPoP() async throws(IdentityFlowError) -> Bool { false }

    /// Forwards to ``exchangeCode(_:request:)`` without a key.
    /// - Throws: ``ErrorCode/featureNotSupported`` when a key is given.
    public nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> TokenSet
    {
        guard proofKey == nil else { throw Self.unsupported("DPoP") }
        return try await exchangeCode(code, request: request)
    }

    /// Forwards to ``verifyPinProof(_:for:nonce:)`` without the key: the tokens are what that
    /// answers (bearer, as their ``TokenSet/tokenType`` says).
    public nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification
    {
        try await verifyPinProof(proof, for: profile, nonce: nonce)
    }

    /// Forwards to ``verifyBiometricProof(_:for:nonce:)`` without the key: the tokens are what
    /// that answers (bearer, as their ``TokenSet/tokenType`` says).
    public nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification
    {
        try await verifyBiometricProof(proof, for: profile, nonce: nonce)
    }

    /// Forwards to ``refresh(_:)`` without a key.
    /// - Throws: ``ErrorCode/featureNotSupported`` when a key is given.
    public nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError) -> TokenSet {
        guard proofKey == nil else { throw Self.unsupported("DPoP") }
        return try await refresh(refreshToken)
    }

    /// Forwards to ``revoke(_:)`` without a key.
    /// - Throws: ``ErrorCode/featureNotSupported`` when a key is given.
    public nonisolated(nonsending) func revoke(_ tokens: TokenSet, proofKey: DPoPKey?) async throws(IdentityFlowError) {
        guard proofKey == nil else { throw Self.unsupported("DPoP") }
        try await revoke(tokens)
    }

    /// Forwards to ``userInfo(accessToken:subject:)`` without a key.
    /// - Throws: ``ErrorCode/featureNotSupported`` when a key is given.
    public nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String, proofKey: DPoPKey?) async throws(IdentityFlowError)
        -> UserInfo
    {
        guard proofKey == nil else { throw Self.unsupported("DPoP") }
        return try await userInfo(accessToken: accessToken, subject: subject)
    }

    /// Forwards to ``enrolPin(_:accessToken:)`` without the key: the token goes as a bearer
    /// token, as before DPoP.
    public nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinEnrolmentReceipt
    {
        try await enrolPin(enrolment, accessToken: accessToken)
    }

    /// Forwards to ``enrolBiometricKey(_:for:authorization:accessToken:)`` without the key.
    public nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: accessToken)
    }

    /// Forwards to ``enrolMobileAuthentication(publicKey:for:authorization:accessToken:)`` without the key.
    public nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolMobileAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken)
    }

    /// Forwards to ``enrolPushMobileAuthentication(deviceToken:for:accessToken:)`` without the key.
    public nonisolated(nonsending) func enrolPushMobileAuthentication(
        deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolPushMobileAuthentication(deviceToken: deviceToken, for: profile, accessToken: accessToken)
    }

    /// Forwards to ``enrolImplicitAuthentication(publicKey:for:authorization:accessToken:)`` without the key.
    public nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolImplicitAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken)
    }

    /// Without pushed authorization requests, an authorization URL does not expire.
    /// - Returns: `nil`.
    public nonisolated(nonsending) func authorizationURLExpiry(_ url: URL) async -> Date? { nil }

    /// Refuses an authorization URL whose pushed request has expired (or expires within `leeway`
    /// seconds), so that no browser opens on a dead page.
    /// - Parameters:
    ///   - url: A URL ``authorizationURL(for:request:)`` returned.
    ///   - date: Now.
    ///   - leeway: How long before expiry the URL already counts as expired (the user needs a
    ///     moment to get through the page's first step).
    /// - Throws: ``ErrorCode/pushedAuthorizationFailed`` when it has expired: ask
    ///   ``authorizationURL(for:request:)`` again.
    package nonisolated(nonsending) func checkAuthorizationURLFresh(_ url: URL, at date: Date, leeway: TimeInterval = 5) async throws(IdentityFlowError) {
        guard let expiry = await authorizationURLExpiry(url), expiry <= date.addingTimeInterval(leeway) else { return }
        throw IdentityFlowError(
            .pushedAuthorizationFailed, "The pushed authorization request expired before the browser opened it; push it again (authorizationURL).")
    }

    private static func unsupported(_ feature: String) -> IdentityFlowError {
        IdentityFlowError(.featureNotSupported, "This identity service does not support \(feature).")
    }
}
