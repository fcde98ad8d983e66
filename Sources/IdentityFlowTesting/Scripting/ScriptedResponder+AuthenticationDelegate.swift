@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: AuthenticationDelegate {
    /// Records the start.
    public func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator) {
        record("didStartAuthenticating")
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge) {
        handle(.pin(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) {
        handle(.biometric(challenge))
    }

    /// Records the success.
    public func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) {
        finish(.authenticated(AuthenticationResult(profile: profile, authenticator: authenticator, info: info)))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
