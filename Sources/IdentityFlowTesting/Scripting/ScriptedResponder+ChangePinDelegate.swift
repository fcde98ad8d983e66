@_spi(Integrator) import IdentityFlow

extension ScriptedResponder: ChangePinDelegate {
    /// Records the start.
    public func userClient(_ client: UserClient, didStartPinChangeFor profile: UserProfile) {
        record("didStartPinChangeFor")
    }

    /// Records the success.
    public func userClient(_ client: UserClient, didChangePinFor profile: UserProfile) {
        finish(.pinChanged(profile))
    }

    /// Records the failure.
    public func userClient(_ client: UserClient, didFailToChangePinFor profile: UserProfile?, error: IdentityFlowError) {
        finish(.failed(error))
    }
}
