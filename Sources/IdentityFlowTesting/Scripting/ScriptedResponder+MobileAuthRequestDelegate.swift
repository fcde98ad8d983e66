@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: MobileAuthRequestDelegate {
    /// Matches the confirmation challenge against the script.
    public func userClient(_ client: UserClient, didReceiveConfirmationChallenge challenge: MobileAuthConfirmationChallenge) {
        handle(.mobileAuthConfirmation(challenge))
    }

    /// Records the decision.
    public func userClient(_ client: UserClient, didHandle result: MobileAuthResult) {
        finish(.mobileAuthHandled(result))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailToHandle source: MobileAuthSource, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
