@_spi(Integrator) import IdentityFlow

/// The two registrations of a ``DemoScenario``.
public enum DemoRegistration: String, Sendable, Hashable, CaseIterable {
    /// Through the reference server's browser identity provider, with the delegate API.
    case browser
    /// Through a two-step custom identity provider, with the async API.
    case custom

    /// Which public API the scenario uses for it.
    public var api: String {
        switch self {
        case .browser: "delegate"
        case .custom: "async"
        }
    }
}

/// What a ``DemoScenario`` run did: each registration's outcome and what the server and the
/// client hold afterwards.
public struct DemoReport: Sendable {
    /// One registration's outcome.
    public struct Outcome: Sendable {
        /// Which registration.
        public let registration: DemoRegistration
        /// The provider it went through.
        public let identityProvider: IdentityProvider
        /// The registered profile, or why it failed.
        public let result: Result<RegistrationResult, IdentityFlowError>
    }

    /// The outcomes, in the order the registrations ran.
    public let outcomes: [Outcome]
    /// The profiles the client holds at the end.
    public let profileCount: Int
    /// The access tokens the reference server still accepts at the end.
    public let activeAccessTokenCount: Int
    /// The state transitions recorded across both flows.
    public let transitionCount: Int
    /// Set when the client could not start; no registration ran then.
    public let startError: IdentityFlowError?
    /// The two mobile authentication requests for the second user: the first accepted with a PIN
    /// step-up, the second denied. Empty when the registrations failed.
    public var mobileAuthentication: [Result<MobileAuthResult, IdentityFlowError>] = []
    /// The second user's implicit token, `nil` when the registrations failed.
    public var implicitAuthentication: Result<ImplicitAuthentication, IdentityFlowError>?

    /// Whether every registration succeeded, the first request was accepted, the second denied,
    /// and the implicit token was issued.
    public var succeeded: Bool {
        let decisions = mobileAuthentication.map { (try? $0.get())?.accepted }
        return startError == nil && !outcomes.isEmpty && outcomes.allSatisfy { (try? $0.result.get()) != nil }
            && decisions == [true, false] && (try? implicitAuthentication?.get()) != nil
    }
}
