/// One entry of the error catalogue: a code, its domain and what it means.
package struct ErrorCatalogueEntry: Sendable, Hashable {
    /// The code.
    package let code: ErrorCode
    /// The domain it belongs to.
    package let domain: ErrorDomain
    /// The anchor SDK's name for it, or IdentityFlow's own for 11000 and up.
    package let name: String
    /// What it means, as the default message of errors with this code.
    package let meaning: String
}

extension ErrorCode {
    /// Every code IdentityFlow produces, in numeric order: the one documented catalogue.
    package static let catalogue: [ErrorCatalogueEntry] = [
        entry(.networkConnectivityFailure, .generic, "networkConnectivityFailure", "The network connection failed."),
        entry(.serverNotReachable, .generic, "serverNotReachable", "The server could not be reached or failed."),
        entry(.userDeregistered, .generic, "userDeregistered", "Too many wrong PINs: the user was deregistered and the profile's data on this device removed."),
        entry(.actionCancelled, .generic, "actionCancelled", "The flow was cancelled."),
        entry(.actionAlreadyInProgress, .generic, "actionAlreadyInProgress", "Another flow is already running on this client."),
        entry(.invalidPin, .authentication, "invalidPin", "The PIN is wrong."),
        entry(.userNotAuthenticated, .changePin, "userNotAuthenticated", "This needs an authenticated user."),
        entry(.pinBlackListed, .pinValidation, "pinBlackListed", "This PIN is not allowed."),
        entry(.pinShouldNotBeASequence, .pinValidation, "pinShouldNotBeASequence", "The PIN must not be a sequence such as 12345."),
        entry(.pinShouldNotUseSimilarDigits, .pinValidation, "pinShouldNotUseSimilarDigits", "The PIN uses the same digit too often."),
        entry(.wrongPinLength, .pinValidation, "wrongPinLength", "The PIN does not have the required number of digits."),
        entry(.dataStorageNotAvailable, .generic, "dataStorageNotAvailable", "Secure storage could not be read or written."),
        entry(.biometricAuthenticatorFailure, .authentication, "biometricAuthenticatorFailure", "Biometric confirmation failed; enter your PIN."),
        entry(.invalidDateTime, .generic, "invalidDateTime", "The device's date and time are wrong; set them automatically and try again."),
        entry(.unknown, .generic, "unknown", "An unexpected error occurred."),
        entry(.configurationInvalid, .generic, "configurationInvalid", "The client configuration is invalid."),
        entry(.invalidState, .registration, "invalidState", "The browser redirect did not carry the state that was sent."),
        entry(.localDeregistration, .deregistration, "localDeregistration", "The profile was removed on this device only: the server could not be told."),
        entry(.authenticatorNotRegistered, .authentication, "authenticatorNotRegistered", "The authenticator is not registered for this profile."),
        entry(.localLogout, .logout, "localLogout", "Logged out on this device only: the server could not be told."),
        entry(.requestInvalid, .generic, "requestInvalid", "The request is invalid."),
        entry(.invalidIdentityProvider, .registration, "invalidIdentityProvider", "The identity provider is unknown or unsuitable."),
        entry(.customRegistrationExpired, .registration, "customRegistrationExpired", "The registration session expired; start again."),
        entry(
            .customRegistrationFailure, .registration, "customRegistrationFailure",
            "The identity provider refused the registration data: with 4000-4999 the challenge comes back, with 5000-5999 the flow ends; customInfo holds the answer."
        ),
        entry(.externalIdentityProviderFailure, .registration, "externalIdentityProviderFailure", "The identity provider refused the request."),
        entry(.invalidServerResponse, .generic, "invalidServerResponse", "The server's answer broke the protocol."),
        entry(.redirectMismatch, .registration, "redirectMismatch", "The browser redirect does not match the configured redirect URI."),
        entry(
            .insecureTransport, .generic, "insecureTransport",
            "The request would carry a token over an insecure connection (only https, or http to a loopback host); nothing was sent."),
        entry(
            .registrationCheckpointExpired, .registration, "registrationCheckpointExpired",
            "The registration waited too long for its redirect and was cleaned up; start again."),
        entry(.registrationCheckpointNotFound, .registration, "registrationCheckpointNotFound", "No registration is waiting to be resumed."),
        entry(
            .issuerMismatch, .registration, "issuerMismatch",
            "The browser redirect names another issuer, or none where the provider promises one (RFC 9207): nothing was exchanged."),
        entry(
            .pinParametersRefused, .authentication, "pinParametersRefused",
            "The server asked for PIN key parameters the client refuses (iterations, salt or nonce length, protocol version); nothing was derived or sent."),
        entry(.statelessUser, .changePin, "statelessUser", "This needs a profile stored on the device; a stateless registration stores none."),
        entry(
            .mobileAuthNotEnrolled, .mobileAuthentication, "mobileAuthNotEnrolled",
            "The profile is not enrolled for mobile authentication (or push) on this device or the server."),
        entry(
            .mobileAuthRequestExpired, .mobileAuthentication, "mobileAuthRequestExpired", "The mobile authentication request expired; nothing was confirmed."),
        entry(
            .mobileAuthRequestNotFound, .mobileAuthentication, "mobileAuthRequestNotFound",
            "The server has no open mobile authentication request of that id for this profile (unknown, answered already, or another profile's)."),
        entry(
            .deviceProofRefused, .mobileAuthentication, "deviceProofRefused",
            "The server refused the device key's signature: it holds another key for this profile."),
        entry(
            .implicitAuthNotEnrolled, .mobileAuthentication, "implicitAuthNotEnrolled",
            "The profile has no implicit authentication key on the server; log in and enrol it."),
        entry(
            .invalidMobileAuthOtp, .mobileAuthentication, "invalidMobileAuthOtp",
            "This is not a mobile authentication one-time code for a profile on this device."),
        entry(.featureNotSupported, .generic, "featureNotSupported", "The identity service does not offer this feature."),
        entry(.userAlreadyExists, .registration, "userAlreadyExists", "An account with these registration attributes exists already."),
        entry(.emailDomainBlocked, .registration, "emailDomainBlocked", "The e-mail address's domain is not allowed to register."),
        entry(.registrationDataInvalid, .registration, "registrationDataInvalid", "The registration attributes are malformed or incomplete."),
        entry(.invalidCredentials, .registration, "invalidCredentials", "The login or password is wrong."),
        entry(.externalTokenRefused, .registration, "externalTokenRefused", "The server refused the other provider's token."),
        entry(.pinProofRequired, .authentication, "pinProofRequired", "This change needs a proof by the PIN key: log in with the PIN, then try again."),
        entry(
            .accessTokenNotAllowed, .generic, "accessTokenNotAllowed",
            "The server refused the access token for this call (an implicit token, or a sign-in already bound to another profile); nothing changed."),
        entry(
            .serverAuthenticatorsRequired, .generic, "serverAuthenticatorsRequired",
            "This needs authenticators on the server (IdentityFlow's extension API); the client keeps them on the device."),
        entry(
            .sealedDataInvalid, .authentication, "sealedDataInvalid",
            "The profile's sealed data is corrupt, truncated or from another device; the profile is kept, deregister it to register again."),
        entry(
            .signInEnded, .authentication, "signInEnded",
            "The profile's sign-in at the identity provider has ended (a provider logout or a refused refresh); the profile was removed, register again."),
        entry(.partialRegistrationExpired, .registration, "partialRegistrationExpired", "The partial registration expired; start again."),
        entry(
            .certificatePinMismatch, .generic, "certificatePinMismatch",
            "The server's certificate holds no public key pinned for its host; the connection was closed before any request was sent."),
        entry(
            .certificatePinningUnavailable, .generic, "certificatePinningUnavailable",
            "Public keys are pinned for this host, but this platform cannot check them; nothing was sent."),
        entry(
            .clientAuthenticationMethodNotSupported, .generic, "clientAuthenticationMethodNotSupported",
            "The provider does not accept the configured client authentication method at this endpoint; nothing was sent."),
        entry(
            .stepUpNotSatisfied, .registration, "stepUpNotSatisfied",
            "The ID token does not show the requested authentication (acr or max_age); its tokens were revoked."),
        entry(
            .authorizationParameterReserved, .registration, "authorizationParameterReserved",
            "An authorization parameter names one the client sets itself; nothing was sent."),
        entry(
            .providerLogoutNotSupported, .logout, "providerLogoutNotSupported",
            "The provider offers no end_session_endpoint; logged out on this device only."),
        entry(
            .providerLogoutUnconfirmed, .logout, "providerLogoutUnconfirmed",
            "The provider did not confirm the logout; logged out on this device, its browser session may remain."),
        entry(
            .browserSessionFailed, .generic, "browserSessionFailed",
            "The system's web authentication session failed before the redirect came back; the browser challenge was cancelled."),
        entry(
            .dataStorageLocked, .generic, "dataStorageLocked",
            "Secure storage cannot hand out the item while the device is locked; nothing was removed, try again after unlocking."),
        entry(
            .securityProfileNotMet, .generic, "securityProfileNotMet",
            "The provider lacks what the configured security profile requires (DPoP, pushed authorization, FAPI 2.0); nothing was sent."),
        entry(
            .tokenNotSenderConstrained, .generic, "tokenNotSenderConstrained",
            "The provider issued bearer tokens to a DPoP request; they were refused."),
        entry(
            .pushedAuthorizationFailed, .registration, "pushedAuthorizationFailed",
            "The pushed authorization request failed or expired; start the sign-in again."),
        entry(.dpopProofRefused, .generic, "dpopProofRefused", "The server refused the DPoP proof."),
    ].sorted { $0.code.rawValue < $1.code.rawValue }

    /// This code's catalogue entry.
    package var entry: ErrorCatalogueEntry {
        Self.catalogue.first { $0.code == self }
            ?? ErrorCatalogueEntry(code: self, domain: .generic, name: "code\(rawValue)", meaning: "Error \(rawValue).")
    }

    private static func entry(_ code: ErrorCode, _ domain: ErrorDomain, _ name: String, _ meaning: String) -> ErrorCatalogueEntry {
        ErrorCatalogueEntry(code: code, domain: domain, name: name, meaning: meaning)
    }
}
