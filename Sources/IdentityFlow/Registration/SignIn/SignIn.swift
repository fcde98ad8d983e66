import Statechart

extension RegistrationMachine {
    /// The sign-in step of a registration: one child machine per variant, held by the parent as
    /// its state value (``RegistrationMachine/State/signingIn(_:)``).
    ///
    /// Every variant ends in the same outcome, tokens issued (``SignInStep/tokensIssued(_:)``,
    /// then the ``Enrolment``), or a failure. The variants share the parent's ``Event`` and
    /// ``Effect`` vocabulary, so the performer (``RegistrationFlow``) does not know the
    /// composition. The runner names the parent's state by the variant's leaf state
    /// (``ChildMachineState``), and the chart draws each variant as a compound state.
    package enum SignIn: Sendable, Equatable, ChildMachineState {
        /// Browser sign-in: authorization URL, checkpoint, redirect, code or session exchange,
        /// partial registration.
        case browser(BrowserSignIn)
        /// A custom identity provider, one-step or two-step.
        case custom(CustomSignIn)
        /// A login and password (the password grant).
        case credentials(CredentialsSignIn)
        /// Another provider's token (RFC 8693 token exchange).
        case tokenExchange(TokenExchangeSignIn)

        /// The chart name of the variant's current leaf state.
        package var chartStateName: String {
            switch self {
            case .browser(let machine): machine.chartStateName
            case .custom(let machine): machine.chartStateName
            case .credentials(let machine): machine.chartStateName
            case .tokenExchange(let machine): machine.chartStateName
            }
        }

        /// Forwards an event to the running variant.
        /// - Parameters:
        ///   - event: What happened.
        ///   - context: The registration's context (the browser variant checks redirects against its
        ///     ``Context/authorization``).
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   variant's state has no transition for the event (it is then unchanged).
        @inline(__always)
        package mutating func handle(_ event: Event, context: Context) -> (guardName: String?, step: SignInStep)? {
            switch self {
            case .browser(var machine):
                guard let reaction = machine.handle(event, request: context.authorization) else { return nil }
                self = .browser(machine)
                return reaction
            case .custom(var machine):
                guard let reaction = machine.handle(event) else { return nil }
                self = .custom(machine)
                return reaction
            case .credentials(var machine):
                guard let reaction = machine.handle(event) else { return nil }
                self = .credentials(machine)
                return reaction
            case .tokenExchange(var machine):
                guard let reaction = machine.handle(event) else { return nil }
                self = .tokenExchange(machine)
                return reaction
            }
        }
    }

    /// What a sign-in variant tells the registration after an event.
    package enum SignInStep: Sendable, Equatable {
        /// Still signing in: the variant moved on; perform these effects.
        case next(Effects<Effect>)
        /// The server issued the new user's tokens: the enrolment follows.
        case tokensIssued(Credentials)
        /// The server issued tokens the registration cannot use (a step-up the ID token does not
        /// show): discard them, then fail with the error.
        case refused(TokenSet, IdentityFlowError)
        /// Cancelled while the server may be issuing tokens: await the call's outcome
        /// (``RegistrationMachine/State/cancelling``) and discard what it issued.
        case awaitOutcome
        /// The provider asks for interaction (`interaction_required`): continue in the browser,
        /// signed in there by this autologin token.
        case continueInBrowser(autologinToken: Redacted<String>)
        /// The sign-in failed; nothing was issued.
        case fail(IdentityFlowError)

        /// The host cancelled before anything could be issued.
        static var cancelled: SignInStep { .fail(ChallengeAbandonment.flowCancelled) }
    }

    /// What a successful sign-in left: tokens and the provider's last answer.
    ///
    /// Its fields sit in one box (docs/performance-notes.md#boxed-payloads). It compares and
    /// hashes by value.
    package struct Credentials: Sendable, Hashable {
        private struct Fields: Sendable, Hashable {
            let tokens: TokenSet
            let info: CustomInfo?
        }

        private let fields: Box<Fields>

        /// The new user's tokens.
        package var tokens: TokenSet { fields.value.tokens }
        /// The custom provider's success answer, `nil` for the other providers.
        package var info: CustomInfo? { fields.value.info }

        init(tokens: TokenSet, info: CustomInfo?) { fields = Box(Fields(tokens: tokens, info: info)) }
    }
}

extension RegistrationMachine.SignIn {
    /// The transitions every sign-in variant shares at its edges: failures of its calls and
    /// challenges, and a cancel, which fails at once unless the call may issue tokens.
    /// - Parameters:
    ///   - calling: The states that wait for a server call or the storage.
    ///   - awaiting: The states that wait for the host's answer to a challenge.
    ///   - issuing: The calling states whose call may issue tokens: a cancel there awaits the
    ///     outcome in `cancelling`.
    /// - Returns: The transitions.
    static func endings(calling: [String], awaiting: [String], issuing: [String] = []) -> [ChartTransition] {
        calling.map { .init(from: $0, on: "serviceFailed", to: "failed") }
            + awaiting.map { .init(from: $0, on: "challengeAbandoned", to: "failed") }
            + (calling + awaiting).map { .init(from: $0, on: "cancelRequested", to: issuing.contains($0) ? "cancelling" : "failed") }
    }
}
