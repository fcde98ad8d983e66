/// Receives a registration's callbacks: `didStart` → challenges → exactly one of
/// ``userClient(_:didRegisterUser:identityProvider:info:)`` /
/// ``userClient(_:didFailToRegisterUserWith:error:)``.
///
/// - Important: Retained until the terminal callback. Callbacks arrive in order on the actor
///   that started the flow: a `@MainActor` screen conforms with an isolated conformance
///   (`extension Screen: @MainActor RegistrationDelegate`) and gets them on the main actor, with no
///   `nonisolated` and no `MainActor.assumeIsolated`. Started from nonisolated code (a test, a
///   server), they arrive on ``ClientConfiguration/callbackExecutor``.
public protocol RegistrationDelegate {
    /// The registration started.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The profile being registered.
    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile)
    /// Open the challenge's URL in a browser and hand back the redirect. Optional: by
    /// default the flow fails with ``ErrorCode/actionCancelled``, naming this method.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge)
    /// Give optional initial data (two-step custom registration). The default sends none.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge)
    /// Give the registration data. Optional: by default the flow fails with
    /// ``ErrorCode/actionCancelled``, naming this method.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge)
    /// Choose a PIN. Comes back with an error while the PIN breaks the policy.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge)
    /// Give the registration attributes the provider still needs after the browser step
    /// (partial registration); a refusal brings the challenge back with its error. Optional:
    /// by default the flow fails with ``ErrorCode/actionCancelled``, naming this method.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceivePartialRegistrationChallenge challenge: PartialRegistrationChallenge)
    /// Give a login and password (a ``IdentityProvider/Kind/credentials`` provider); a wrong
    /// pair brings the challenge back with ``ErrorCode/invalidCredentials``. Optional: by default
    /// the flow fails with ``ErrorCode/actionCancelled``, naming this method.
    /// - Parameters:
    ///   - client: The client.
    ///   - challenge: The challenge.
    func userClient(_ client: UserClient, didReceiveCredentialsChallenge challenge: CredentialsChallenge)
    /// The user is registered and authenticated. Terminal: called at most once per flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - profile: The new profile.
    ///   - identityProvider: The provider used.
    ///   - info: The custom provider's success answer; `nil` for a browser provider.
    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?)
    /// The registration failed; nothing of it was kept. Terminal: called at most once per flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - identityProvider: The provider, if one was resolved.
    ///   - error: Why.
    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError)
}

extension RegistrationDelegate {
    /// Does nothing.
    public func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {}

    /// Fails the flow with ``ErrorCode/actionCancelled`` naming this method, and logs a warning:
    /// implement it to support credentials providers.
    public func userClient(_ client: UserClient, didReceiveCredentialsChallenge challenge: CredentialsChallenge) {
        UnimplementedDelegateMethod.fail(
            "RegistrationDelegate.userClient(_:didReceiveCredentialsChallenge:)", observer: challenge.releaseObserver,
            cancel: { challenge.sender.cancel(challenge) })
    }

    /// Fails the flow with ``ErrorCode/actionCancelled`` naming this method, and logs a warning:
    /// implement it to support partial registration.
    public func userClient(_ client: UserClient, didReceivePartialRegistrationChallenge challenge: PartialRegistrationChallenge) {
        UnimplementedDelegateMethod.fail(
            "RegistrationDelegate.userClient(_:didReceivePartialRegistrationChallenge:)", observer: challenge.releaseObserver,
            cancel: { challenge.sender.cancel(challenge) })
    }

    /// Fails the flow with ``ErrorCode/actionCancelled`` naming this method, and logs a warning:
    /// implement it to support browser identity providers.
    public func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        UnimplementedDelegateMethod.fail(
            "RegistrationDelegate.userClient(_:didReceiveBrowserRegistrationChallenge:)", observer: challenge.releaseObserver,
            cancel: { challenge.sender.cancel(challenge) })
    }

    /// Sends no initial data.
    public func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.respond(with: nil, to: challenge)
    }

    /// Fails the flow with ``ErrorCode/actionCancelled`` naming this method, and logs a warning:
    /// implement it to support custom identity providers.
    public func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        UnimplementedDelegateMethod.fail(
            "RegistrationDelegate.userClient(_:didReceiveCustomRegistrationFinishChallenge:)", observer: challenge.releaseObserver,
            cancel: { challenge.sender.cancel(challenge) })
    }
}

/// What a successful registration returns through the async API.
public struct RegistrationResult: Sendable, Hashable {
    private struct Fields: Sendable, Hashable {
        let profile: UserProfile
        let identityProvider: IdentityProvider
        let info: CustomInfo?
        /// The ID token the registration received, read into ``identityClaims`` when asked.
        let idToken: Redacted<String>?
    }

    /// One word, not 152 bytes: the result's slot sits in the frame of every task that awaits a
    /// registration (docs/performance-notes.md#boxed-payloads).
    private let fields: Box<Fields>

    /// The new profile, now authenticated.
    public var profile: UserProfile { fields.value.profile }
    /// The provider used.
    public var identityProvider: IdentityProvider { fields.value.identityProvider }
    /// The custom provider's success answer; `nil` for a browser provider.
    public var info: CustomInfo? { fields.value.info }
    /// Who signed in: the claims of the ID token the registration received (validated by the
    /// identity service), `nil` when it received none. The same as
    /// ``UserClient/identityClaims(of:)`` for the new profile. Read from the ID token when asked.
    public var identityClaims: IdentityClaims? { fields.value.idToken.flatMap(IdentityClaims.of) }

    /// Creates a result (test doubles of a host's own use it).
    /// - Parameters:
    ///   - profile: The profile.
    ///   - identityProvider: The provider.
    ///   - info: The custom answer.
    ///   - idToken: The ID token the registration received; its claims are read when
    ///     ``identityClaims`` is (most hosts never ask, and a registration should not pay for it).
    package init(profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?, idToken: Redacted<String>? = nil) {
        fields = Box(Fields(profile: profile, identityProvider: identityProvider, info: info, idToken: idToken))
    }
}
