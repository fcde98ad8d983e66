/// What a successful authenticator registration registered, as ``FlowOutcomeObserver/flowEnded(_:)`` is told.
package struct RegisteredAuthenticator: Sendable, Hashable {
    /// The authenticator registered.
    package let authenticator: Authenticator
    /// The profile it was registered for.
    package let profile: UserProfile
}
