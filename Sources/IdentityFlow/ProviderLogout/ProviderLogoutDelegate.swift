/// Receives a provider logout's callbacks: `didStart` → ``ProviderLogoutChallenge`` → exactly
/// one of ``userClient(_:didLogOutAtProvider:)`` / ``userClient(_:didFailProviderLogoutOf:error:)``.
///
/// - Important: The delegate is retained until the terminal callback. Callbacks arrive in order
///   on the actor that started the flow (a `@MainActor` screen conforms with an isolated
///   conformance, `extension Screen: @MainActor ProviderLogoutDelegate`), or, from nonisolated
///   code, on ``ClientConfiguration/callbackExecutor``.
public protocol ProviderLogoutDelegate {
    /// The session ended on the device; the provider's logout page comes next.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile whose session ended.
    func userClient(_ client: UserClient, didStartProviderLogoutOf profile: UserProfile)
    /// Open the provider's logout page in the browser the user signed in with and hand back the
    /// redirect. Optional: by default the logout ends unconfirmed, naming this method (the user
    /// stays logged out on the device).
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge)
    /// The provider confirmed the logout; the user is logged out here and there. Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile logged out.
    func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile)
    /// The provider did not confirm (``ErrorCode/providerLogoutUnconfirmed``) or offers no
    /// logout page (``ErrorCode/providerLogoutNotSupported``); the user is logged out on this
    /// device all the same. Also called when the logout could not start
    /// (``ErrorCode/userNotAuthenticated``, ``ErrorCode/actionAlreadyInProgress``). Terminal.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile whose session ended, `nil` when the logout could not start.
    ///   - error: Why.
    func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError)
}

extension ProviderLogoutDelegate {
    /// Does nothing.
    public func userClient(_ client: UserClient, didStartProviderLogoutOf profile: UserProfile) {}

    /// Ends the logout unconfirmed (``ErrorCode/providerLogoutUnconfirmed``, its underlying
    /// ``ErrorCode/actionCancelled`` error naming this method) and logs a warning: the user is
    /// logged out on the device, the provider's session remains.
    public func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge) {
        UnimplementedDelegateMethod.fail(
            "ProviderLogoutDelegate.userClient(_:didReceiveProviderLogoutChallenge:)", observer: challenge.releaseObserver,
            cancel: { challenge.sender.cancel(challenge) })
    }
}
