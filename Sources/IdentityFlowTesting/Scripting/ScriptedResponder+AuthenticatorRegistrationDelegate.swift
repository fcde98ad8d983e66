@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: AuthenticatorRegistrationDelegate {
    /// Records the start.
    public func userClient(_ client: UserClient, didStartRegistering authenticator: Authenticator, for profile: UserProfile) {
        record("didStartRegistering(\(authenticator))")
    }

    /// Records the success.
    public func userClient(_ client: UserClient, didRegister authenticator: Authenticator, for profile: UserProfile) {
        finish(.authenticatorRegistered(authenticator, profile))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailToRegister authenticator: Authenticator, for profile: UserProfile, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
