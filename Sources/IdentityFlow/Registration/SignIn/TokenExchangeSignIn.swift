import Statechart

extension RegistrationMachine {
    /// Sign-in with another provider's token (RFC 8693 token exchange, social login) as a child
    /// machine of the registration: one call.
    ///
    /// A refused token fails with ``ErrorCode/externalTokenRefused``; `interaction_required`
    /// continues in the browser (``BrowserSignIn``) with the autologin token the server gave.
    /// Its transitions are ``transitions``.
    package struct TokenExchangeSignIn: Sendable, Equatable, ChildMachineState {
        /// The token exchange's one state.
        package enum State: Sendable, Equatable {
            /// The server exchanges the other provider's token.
            case exchangingExternalToken
        }

        /// The leaf states (the chart's compound state `tokenExchangeSignIn`).
        package static let leaves = ["exchangingExternalToken"]

        /// The current state.
        package private(set) var state: State = .exchangingExternalToken

        /// Creates the sign-in, exchanging the token.
        package init() {}

        /// The chart name of the current leaf state.
        package var chartStateName: String { caseName(of: state) }

        /// A new sign-in: the server exchanges the token.
        static func start() -> (TokenExchangeSignIn, Effect) { (TokenExchangeSignIn(), .exchangeExternalToken) }

        /// Reacts to an event; see ``transitions``.
        /// - Parameter event: What happened.
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   state has no transition for the event.
        @inline(__always)
        package mutating func handle(_ event: Event) -> (guardName: String?, step: SignInStep)? {
            switch event {
            case .credentialsAnswered(.granted(let tokens)): (nil, .tokensIssued(Credentials(tokens: tokens, info: nil)))
            case .credentialsAnswered(.invalid): ("invalid", .fail(IdentityFlowError(.externalTokenRefused)))
            case .credentialsAnswered(.interactionRequired(let token)): ("interactionRequired", .continueInBrowser(autologinToken: token))
            case .serviceFailed(let error): (nil, .fail(error))
            case .cancelRequested: (nil, .awaitOutcome)
            default: nil
            }
        }

        /// The token exchange's transitions on the registration's chart (leaving it for the
        /// browser sign-in, `awaitingPin`, `storingProfile`, `cancelling` or `failed`).
        package static let transitions: [ChartTransition] =
            [
                .init(from: "exchangingExternalToken", on: "credentialsAnswered", guard: "invalid", to: "failed"),
                .init(from: "exchangingExternalToken", on: "credentialsAnswered", guard: "interactionRequired", to: "preparingAuthorization"),
            ]
            + RegistrationMachine.Enrolment.entries(from: "exchangingExternalToken", on: "credentialsAnswered")
            + SignIn.endings(calling: ["exchangingExternalToken"], awaiting: [], issuing: ["exchangingExternalToken"])
    }
}
