@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: ProviderLogoutDelegate {
    /// Records the start.
    public func userClient(_ client: UserClient, didStartProviderLogoutOf profile: UserProfile) {
        record("didStartProviderLogoutOf(\(profile))")
    }

    /// Answers from the script.
    public func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge) {
        handle(.providerLogout(challenge))
    }

    /// Records the success.
    public func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile) {
        finish(.loggedOutAtProvider(profile))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
