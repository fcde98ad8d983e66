@_spi(Integrator) import IdentityFlow

/// A call of the ``ReferenceIdentityService``, to aim faults at.
public enum ServiceCall: String, Sendable, Hashable, CaseIterable {
    /// `identityProviders()`.
    case identityProviders
    /// `authorizationURL(for:request:)`.
    case authorizationURL
    /// `exchangeCode(_:request:)`.
    case exchangeCode
    /// `initCustomRegistration(provider:data:)`.
    case initCustomRegistration
    /// `completeCustomRegistration(provider:session:data:)`.
    case completeCustomRegistration
    /// `enrolPin(_:accessToken:)`.
    case enrolPin
    /// `pinLoginChallenge(for:)`.
    case pinLoginChallenge
    /// `verifyPinProof(_:for:nonce:)`.
    case verifyPinProof
    /// `enrolBiometricKey(_:for:authorization:accessToken:)`.
    case enrolBiometricKey
    /// `verifyBiometricProof(_:for:nonce:)`.
    case verifyBiometricProof
    /// `revokeBiometricKey(for:authorization:)`.
    case revokeBiometricKey
    /// `refresh(_:)`.
    case refresh
    /// `revoke(_:)`.
    case revoke
    /// `deregister(_:authorization:)`.
    case deregister
    /// `profileExists(_:)`.
    case profileExists
    /// `enrolMobileAuthentication(publicKey:for:authorization:accessToken:)`.
    case enrolMobileAuthentication
    /// `enrolPushMobileAuthentication(deviceToken:for:accessToken:)`.
    case enrolPushMobileAuthentication
    /// `mobileAuthRequests(_:for:authorization:)`.
    case mobileAuthRequests
    /// `answerMobileAuthRequest(_:)`.
    case answerMobileAuthRequest
    /// `enrolImplicitAuthentication(publicKey:for:authorization:accessToken:)`.
    case enrolImplicitAuthentication
    /// `implicitAccessToken(scopes:for:authorization:)`.
    case implicitAccessToken
    /// `completePartialRegistration(stateKey:attributes:request:)`.
    case completePartialRegistration
    /// `passwordGrant(login:password:scopes:)`.
    case passwordGrant
    /// `exchangeExternalToken(_:scopes:)`.
    case exchangeExternalToken
    /// `userInfo(accessToken:subject:)`.
    case userInfo
    /// `endSessionURL(for:)`.
    case endSessionURL
}

/// Something going wrong with a call, injected into the ``ReferenceIdentityService``.
public enum ServiceFault: Sendable, Hashable {
    /// The network fails: `ErrorCode/networkConnectivityFailure`; the server never sees the call.
    case networkError
    /// The server fails: `ErrorCode/serverNotReachable`; the server never applies the call.
    case serverError
    /// The answer is malformed: `ErrorCode/invalidServerResponse`; the server applied the call.
    case malformedAnswer
    /// The answer comes after a delay on the service's clock, then the call proceeds.
    case latency(Duration)

    var error: IdentityFlowError? {
        switch self {
        case .networkError: IdentityFlowError(.networkConnectivityFailure, "The reference server was unreachable (injected).")
        case .serverError: IdentityFlowError(.serverNotReachable, "The reference server failed (injected).")
        case .malformedAnswer: IdentityFlowError(.invalidServerResponse, "The reference server's answer was malformed (injected).")
        case .latency: nil
        }
    }
}

/// What a scripted custom identity provider answers for one step.
public enum CustomProviderAnswer: Sendable, Hashable {
    /// A status and data (2xxx success, 4xxx retry, 5xxx refusal, anything else invalid).
    case status(Int, data: String = "")
    /// The registration session expired: `ErrorCode/customRegistrationExpired`.
    case expired
}

/// Decides a custom identity provider's answer from the step and the host's data.
public typealias CustomProviderScript = @Sendable (_ step: CustomRegistrationStep, _ data: String?) -> CustomProviderAnswer
