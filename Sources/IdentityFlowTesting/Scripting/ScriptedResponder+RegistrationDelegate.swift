@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: RegistrationDelegate {
    /// Records the start.
    public func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {
        record("didStartRegistrationOf")
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        handle(.browserRegistration(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        handle(.customRegistration(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        handle(.customRegistration(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        handle(.createPin(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveCredentialsChallenge challenge: CredentialsChallenge) {
        handle(.credentials(challenge))
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceivePartialRegistrationChallenge challenge: PartialRegistrationChallenge) {
        handle(.partialRegistration(challenge))
    }

    /// Records the success.
    public func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        finish(.registered(RegistrationResult(profile: profile, identityProvider: identityProvider, info: info)))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
