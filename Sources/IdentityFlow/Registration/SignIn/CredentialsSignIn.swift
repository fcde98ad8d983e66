import Statechart

extension RegistrationMachine {
    /// Sign-in with a login and password (the OAuth password grant, 7Pass's native login) as a
    /// child machine of the registration.
    ///
    /// A wrong pair asks again with ``ErrorCode/invalidCredentials``; `interaction_required`
    /// continues in the browser (``BrowserSignIn``) with the autologin token the server gave.
    /// Its transitions are ``transitions``.
    package struct CredentialsSignIn: Sendable, Equatable, ChildMachineState {
        /// The credentials sign-in's states.
        package enum State: Sendable, Equatable {
            /// The host gives a login and password.
            case awaitingCredentials
            /// The server checks them (the password grant).
            case sendingCredentials
        }

        /// The leaf states, in drawing order (the chart's compound state `credentialsSignIn`).
        package static let leaves = ["awaitingCredentials", "sendingCredentials"]

        /// The current state.
        package private(set) var state: State

        /// Creates the sign-in in a state.
        /// - Parameter state: The state to start in; the parent entering it names the effect that state waits for.
        package init(state: State = .awaitingCredentials) { self.state = state }

        /// The chart name of the current leaf state.
        package var chartStateName: String { caseName(of: state) }

        /// A new sign-in: the host is asked for a login and password.
        static func start() -> (CredentialsSignIn, Effect) { (CredentialsSignIn(), .emitCredentialsChallenge(error: nil)) }

        /// Reacts to an event; see ``transitions``.
        /// - Parameter event: What happened.
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   current state has no transition for the event (the state is then unchanged).
        @inline(__always)
        package mutating func handle(_ event: Event) -> (guardName: String?, step: SignInStep)? {
            switch state {
            case .awaitingCredentials:
                switch event {
                case .credentialsProvided(let credentials):
                    state = .sendingCredentials
                    return (nil, .next(Effects(.sendCredentials(credentials))))
                case .challengeAbandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .sendingCredentials:
                switch event {
                case .credentialsAnswered(.granted(let tokens)): return (nil, .tokensIssued(Credentials(tokens: tokens, info: nil)))
                case .credentialsAnswered(.invalid):
                    state = .awaitingCredentials
                    return ("invalid", .next(Effects(.emitCredentialsChallenge(error: IdentityFlowError(.invalidCredentials)))))
                case .credentialsAnswered(.interactionRequired(let token)): return ("interactionRequired", .continueInBrowser(autologinToken: token))
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .awaitOutcome)
                default: return nil
                }
            }
        }

        /// The credentials sign-in's transitions on the registration's chart (leaving it for the
        /// browser sign-in, `awaitingPin`, `storingProfile`, `cancelling` or `failed`).
        package static let transitions: [ChartTransition] =
            [
                .init(from: "awaitingCredentials", on: "credentialsProvided", to: "sendingCredentials"),
                .init(from: "sendingCredentials", on: "credentialsAnswered", guard: "invalid", to: "awaitingCredentials"),
                .init(from: "sendingCredentials", on: "credentialsAnswered", guard: "interactionRequired", to: "preparingAuthorization"),
            ]
            + RegistrationMachine.Enrolment.entries(from: "sendingCredentials", on: "credentialsAnswered")
            + SignIn.endings(calling: ["sendingCredentials"], awaiting: ["awaitingCredentials"], issuing: ["sendingCredentials"])
    }
}
