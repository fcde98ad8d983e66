/// A stable numeric error code, numbered as in the OneWelcome (Onegini) mobile SDK so that
/// integrators can map one to the other. Codes 11000 and up are IdentityFlow's own.
///
/// 9000-9999 describe something a user may be shown; 10000 and up usually mean misconfiguration
/// or a server that does not keep to the protocol. The full catalogue with messages is
/// `ErrorCode.catalogue` (package access); the documentation prints it as a table (<doc:ErrorCodes>).
///
/// ```swift
/// catch let error as IdentityFlowError where error.code == .invalidPin { ... }
/// ```
public struct ErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The number.
    public let rawValue: Int

    /// Wraps a number.
    /// - Parameter rawValue: The number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The number, e.g. `9009`.
    public var description: String { String(rawValue) }

    // MARK: - Generic

    /// 9000: the device has no network connection or the connection failed.
    public static let networkConnectivityFailure = ErrorCode(rawValue: 9000)
    /// 9001: the server could not be reached or answered with a server error.
    public static let serverNotReachable = ErrorCode(rawValue: 9001)
    /// 9003: too many wrong PINs; the server removed the user and the profile's local data is gone.
    public static let userDeregistered = ErrorCode(rawValue: 9003)
    /// 9006: the flow was cancelled: by the host, by a dropped or timed-out challenge, or by task cancellation.
    public static let actionCancelled = ErrorCode(rawValue: 9006)
    /// 9007: another flow is already running on this client.
    public static let actionAlreadyInProgress = ErrorCode(rawValue: 9007)
    /// 9024: secure storage could not be read or written.
    public static let dataStorageNotAvailable = ErrorCode(rawValue: 9024)
    /// 9031: the device's date and time are wrong: an ID token the server has just issued looks
    /// issued in the future or already expired by the device's clock, which differs from the
    /// server's by more than the allowed clock skew.
    public static let invalidDateTime = ErrorCode(rawValue: 9031)
    /// 10000: an unexpected error.
    public static let unknown = ErrorCode(rawValue: 10000)
    /// 10001: the client configuration is invalid.
    public static let configurationInvalid = ErrorCode(rawValue: 10001)
    /// 10015: the request was invalid: a bad argument or a call before `start()` completed.
    public static let requestInvalid = ErrorCode(rawValue: 10015)

    // MARK: - Authentication

    /// 9009: the PIN was wrong; the challenge comes back with updated counters.
    public static let invalidPin = ErrorCode(rawValue: 9009)
    /// 9030: biometric confirmation failed; a PIN challenge follows.
    public static let biometricAuthenticatorFailure = ErrorCode(rawValue: 9030)
    /// 10007: the authenticator is not registered for this profile.
    public static let authenticatorNotRegistered = ErrorCode(rawValue: 10007)

    // MARK: - Registration

    /// 10002: the browser redirect did not carry the `state` that was sent.
    public static let invalidState = ErrorCode(rawValue: 10002)
    /// 10020: the identity provider is unknown, or unsuitable for the call.
    public static let invalidIdentityProvider = ErrorCode(rawValue: 10020)
    /// 10021: the custom registration session expired on the server.
    public static let customRegistrationExpired = ErrorCode(rawValue: 10021)
    /// 10022: the custom identity provider refused the data: on a 4000-4999 status the challenge comes
    /// back carrying it, on 5000-5999 the flow fails with it; `customInfo` holds the answer.
    public static let customRegistrationFailure = ErrorCode(rawValue: 10022)
    /// 10024: the external identity provider refused (an `error=` redirect such as `access_denied`).
    public static let externalIdentityProviderFailure = ErrorCode(rawValue: 10024)

    // MARK: - PIN validation

    /// 9011: the PIN is on the block list.
    public static let pinBlackListed = ErrorCode(rawValue: 9011)
    /// 9012: the PIN is a sequence such as 12345 or 13579.
    public static let pinShouldNotBeASequence = ErrorCode(rawValue: 9012)
    /// 9013: the PIN uses one digit too often; `maxSimilarDigits` holds the maximum.
    public static let pinShouldNotUseSimilarDigits = ErrorCode(rawValue: 9013)
    /// 9014: the PIN does not have the required number of digits; `requiredPinLength` holds it.
    public static let wrongPinLength = ErrorCode(rawValue: 9014)

    // MARK: - Change PIN, logout, deregistration

    /// 9010: the call needs an authenticated user.
    public static let userNotAuthenticated = ErrorCode(rawValue: 9010)
    /// 10003: the profile was removed on this device only; the server could not be told.
    public static let localDeregistration = ErrorCode(rawValue: 10003)
    /// 10009: the user was logged out on this device only; the server could not be told.
    public static let localLogout = ErrorCode(rawValue: 10009)
    /// 9033: the call needs a profile stored on this device, and this one was registered stateless.
    public static let statelessUser = ErrorCode(rawValue: 9033)

    // MARK: - IdentityFlow's own

    /// 11001: the server's answer broke the protocol: malformed, truncated, oversized, or a
    /// custom registration status outside 2000-2999, 4000-4999 and 5000-5999.
    public static let invalidServerResponse = ErrorCode(rawValue: 11001)
    /// 11002: the browser redirect does not match the configured redirect URI.
    public static let redirectMismatch = ErrorCode(rawValue: 11002)
    /// 11003: ``UserClient/authenticatedRequest(_:)`` refused to send the access token over an
    /// insecure connection: the URL is neither `https` nor `http` to a loopback host. Nothing was sent.
    public static let insecureTransport = ErrorCode(rawValue: 11003)
    /// 11012: the browser redirect's `iss` names another issuer than the provider's, or is missing
    /// although the provider advertises `authorization_response_iss_parameter_supported`
    /// (RFC 9207, a mix-up defence). The code was not exchanged.
    public static let issuerMismatch = ErrorCode(rawValue: 11012)
    /// 11013: the server's PIN challenge asked for what the client refuses before deriving any
    /// key: an iteration count outside ``ClientConfiguration/acceptedPinKeyIterations``, a salt or
    /// nonce of an unusual length, or PIN proof v1 for a profile that speaks v2 (a downgrade).
    public static let pinParametersRefused = ErrorCode(rawValue: 11013)
    /// 11010: the checkpointed registration to resume is older than
    /// ``ClientConfiguration/checkpointLifetime``; it was deleted. Start a new registration.
    public static let registrationCheckpointExpired = ErrorCode(rawValue: 11010)
    /// 11011: there is no checkpointed registration to resume (none was waiting, it already
    /// resumed or ended, or a newer registration replaced it).
    public static let registrationCheckpointNotFound = ErrorCode(rawValue: 11011)

    // MARK: - Mobile and implicit authentication

    /// 11014: the profile is not enrolled for mobile authentication (or for push, where push is
    /// asked for), on this device or on the server. Enrol it while the user is logged in.
    public static let mobileAuthNotEnrolled = ErrorCode(rawValue: 11014)
    /// 11015: the mobile authentication request expired: before it was fetched, while its
    /// challenge waited, or before the server took the answer. Nothing was confirmed.
    public static let mobileAuthRequestExpired = ErrorCode(rawValue: 11015)
    /// 11016: the server has no open mobile authentication request of that id (or one-time code)
    /// for this profile: unknown, already answered, or for another profile. A replayed answer gets it.
    public static let mobileAuthRequestNotFound = ErrorCode(rawValue: 11016)
    /// 11017: the server refused the device's signature on a mobile authentication or implicit
    /// authentication message: the key it holds for this profile is another one.
    public static let deviceProofRefused = ErrorCode(rawValue: 11017)
    /// 11018: the profile has no key for implicit authentication on the server (a profile
    /// registered by a server without the endpoint); log in and call `enrollImplicitAuthentication(for:)`.
    public static let implicitAuthNotEnrolled = ErrorCode(rawValue: 11018)
    /// 11019: the text is not a mobile authentication one-time code for a profile on this device.
    public static let invalidMobileAuthOtp = ErrorCode(rawValue: 11019)
    /// 11020: the identity service does not offer this feature (its `IdentityService`
    /// implementation keeps the default, or the server answers 404 for the endpoint).
    public static let featureNotSupported = ErrorCode(rawValue: 11020)

    // MARK: - Other SDKs' registrations

    /// 11021: the provider refused a partial registration's attributes: an account with them
    /// exists. The ``PartialRegistrationChallenge`` comes back with it.
    public static let userAlreadyExists = ErrorCode(rawValue: 11021)
    /// 11022: the provider refused a partial registration's e-mail domain. The challenge comes back with it.
    public static let emailDomainBlocked = ErrorCode(rawValue: 11022)
    /// 11023: the provider refused a partial registration's attributes as malformed or
    /// incomplete. The challenge comes back with it.
    public static let registrationDataInvalid = ErrorCode(rawValue: 11023)
    /// 11024: the partial registration's state key expired or is unknown; start again.
    public static let partialRegistrationExpired = ErrorCode(rawValue: 11024)
    /// 11025: the login or password is wrong. The ``CredentialsChallenge`` comes back with it.
    public static let invalidCredentials = ErrorCode(rawValue: 11025)
    /// 11026: the server refused the other provider's token at a token exchange.
    public static let externalTokenRefused = ErrorCode(rawValue: 11026)
    /// 11030: the change needs a proof by the PIN key (registering or replacing a device key,
    /// revoking the biometric key, deregistering on the server), and this session holds none: it
    /// was opened with biometrics, or the profile is not logged in. Log in with the PIN, then try
    /// again (`docs/pin-proof.md`).
    public static let pinProofRequired = ErrorCode(rawValue: 11030)
    /// 11031: the server refused the access token for this call: an implicit authentication
    /// token (it serves resource servers only), or, for a first PIN enrolment, a token from a
    /// sign-in that is already bound to a profile. Nothing changed.
    public static let accessTokenNotAllowed = ErrorCode(rawValue: 11031)
    /// 11040: mobile and implicit authentication need authenticators on the server; this client keeps
    /// them on the device (``AuthenticatorPlacement``).
    public static let serverAuthenticatorsRequired = ErrorCode(rawValue: 11040)
    /// 11041: a device-mode profile's sealed data is corrupt, truncated or from another device: the
    /// profile is kept (``LaunchReport/damagedProfiles``) and cannot log in until it is deregistered.
    public static let sealedDataInvalid = ErrorCode(rawValue: 11041)
    /// 11042: a device-mode profile's sign-in at the provider has ended (a provider logout, or a
    /// refresh the provider refused): the PIN was right, but the profile holds no tokens that
    /// could call the API, so it was removed from this device; register again.
    public static let signInEnded = ErrorCode(rawValue: 11042)

    // MARK: - The host's transport and confidential clients

    /// 11050: the server's certificate holds no public key pinned for its host (SPKI SHA-256,
    /// ``HTTPTransportOptions/pinnedPublicKeys``): the connection was closed after the TLS
    /// handshake, before any request byte was sent.
    public static let certificatePinMismatch = ErrorCode(rawValue: 11050)
    /// 11051: public keys are pinned for the request's host, but this platform's transport cannot
    /// check them (no libcurl with public key pinning on this Linux system, or a libcurl that refuses
    /// the pin, the CA file, the protocols or the redirect rule): nothing was sent.
    public static let certificatePinningUnavailable = ErrorCode(rawValue: 11051)
    /// 11052: the provider's discovery document lists the client authentication methods of its
    /// token (or revocation) endpoint without the configured one
    /// (``HTTPServiceConfiguration/clientAuthentication``): nothing was sent.
    public static let clientAuthenticationMethodNotSupported = ErrorCode(rawValue: 11052)
    /// 11060: the ID token of a sign-in that asked for authorization parameters
    /// (``AuthorizationParameters``) does not show them honoured: its `acr` is not among the
    /// requested `acr_values` (when ``AuthorizationParameters/requiresRequestedACR`` is on), or its
    /// `auth_time` is missing or older than `max_age` allows. The tokens are revoked; nothing is kept.
    public static let stepUpNotSatisfied = ErrorCode(rawValue: 11060)
    /// 11061: ``AuthorizationParameters`` named a parameter the client sets itself (`state`,
    /// `nonce`, `redirect_uri`, `code_challenge`, ...); nothing was sent.
    public static let authorizationParameterReserved = ErrorCode(rawValue: 11061)
    /// 11062: the provider publishes no `end_session_endpoint`, so its browser session cannot be
    /// ended from the app. The user is logged out on this device and the tokens were revoked
    /// where the provider allows it.
    public static let providerLogoutNotSupported = ErrorCode(rawValue: 11062)
    /// 11063: the provider's logout page did not confirm the logout (the browser was cancelled,
    /// the redirect carried another `state` or an error). The user is logged out on this device
    /// all the same; the provider's browser session may remain. ``IdentityFlowError/underlying``
    /// says why.
    public static let providerLogoutUnconfirmed = ErrorCode(rawValue: 11063)

    // MARK: - Apple platform glue

    /// 11070: the system's web authentication session (`ASWebAuthenticationSession`) could not
    /// show the page or failed before the redirect came back (no presentation anchor, a callback
    /// the system does not accept, an error of the system's); the browser challenge was cancelled.
    /// ``IdentityFlowError/underlying`` carries the system's error. The user closing the sheet is
    /// ``ErrorCode/actionCancelled`` instead.
    public static let browserSessionFailed = ErrorCode(rawValue: 11070)
    /// 11071: secure storage holds the item but cannot hand it out now: the device is locked, or
    /// has not been unlocked since it started (the Keychain's `errSecInteractionNotAllowed`).
    /// Nothing was removed: at launch such profiles are listed in
    /// ``LaunchReport/unavailableProfiles``; try again once the user has unlocked the device.
    public static let dataStorageLocked = ErrorCode(rawValue: 11071)

    // MARK: - Sender-constrained tokens and pushed authorization (RFC 9449, RFC 9126, FAPI 2.0)

    /// 11080: the configuration requires DPoP, pushed authorization requests or the FAPI 2.0
    /// profile (``HTTPServiceConfiguration/dpop``, ``HTTPServiceConfiguration/pushedAuthorization``,
    /// ``HTTPServiceConfiguration/securityProfile``) and the provider's metadata lacks it; the
    /// message names what is missing. Checked before the browser opens: nothing was sent.
    public static let securityProfileNotMet = ErrorCode(rawValue: 11080)
    /// 11081: the provider answered `token_type` `Bearer` to a token request that carried a DPoP
    /// proof: its tokens would not be bound to the key. Refused (and the tokens revoked) unless
    /// ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP`` is on.
    public static let tokenNotSenderConstrained = ErrorCode(rawValue: 11081)
    /// 11082: the pushed authorization request endpoint refused the request or broke the
    /// protocol (no `request_uri`, an unusable `expires_in`, not JSON), or its `request_uri` has
    /// expired before the browser could open it; ``IdentityFlowError/oauthError`` holds the
    /// provider's OAuth error, when it named one. Start the sign-in again.
    public static let pushedAuthorizationFailed = ErrorCode(rawValue: 11082)
    /// 11083: the provider or a resource server refused the DPoP proof (`invalid_dpop_proof`, or
    /// `use_dpop_nonce` again after the one retry with the nonce it asked for).
    public static let dpopProofRefused = ErrorCode(rawValue: 11083)
}
