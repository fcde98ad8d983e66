import Statechart

extension RegistrationMachine {
    /// The enrolment step of a registration as a child machine: after the sign-in issued the
    /// tokens, the host chooses a PIN (the policy is checked on the device, and a violation asks
    /// again, without limit), the server enrols the PIN verifier, the device stores the profile.
    /// A stateless registration only stores its session (in memory).
    ///
    /// The parent holds it as its state value (``RegistrationMachine/State/enrolling(_:)``). It
    /// ends in registered, or in a failure that first discards the server-side registration
    /// (``EnrolmentStep/discard(_:_:)``). Its transitions are ``transitions``.
    package struct Enrolment: Sendable, Equatable, ChildMachineState {
        /// The enrolment's states; each holds the credentials the sign-in left.
        package enum State: Sendable, Equatable {
            /// The host chooses a PIN.
            case awaitingPin(Credentials)
            /// The server enrols the PIN verifier.
            case enrollingPin(Credentials)
            /// The device stores the profile and tokens.
            case storingProfile(Credentials)
        }

        /// The leaf states, in drawing order (the chart's compound state `enrolling`).
        package static let leaves = ["awaitingPin", "enrollingPin", "storingProfile"]

        /// The current state.
        package private(set) var state: State

        /// Creates the enrolment in a state.
        /// - Parameter state: The state to start in; the parent entering it names the effect that state waits for.
        package init(state: State) { self.state = state }

        /// The chart name of the current leaf state.
        package var chartStateName: String { caseName(of: state) }

        /// The enrolment after a sign-in issued `credentials`: a PIN is asked, or (stateless) the
        /// session is stored at once.
        /// - Parameters:
        ///   - credentials: What the sign-in left.
        ///   - stateless: Whether the registration keeps no PIN and no profile.
        ///   - signInGuard: The guard the sign-in's last transition took (`success` for a custom
        ///     provider); a stateless registration's guard is derived from it (``statelessGuard(after:)``).
        /// - Returns: The enrolment, the guard of the transition into it, and the effect.
        static func start(_ credentials: Credentials, stateless: Bool, signInGuard: String?) -> (Enrolment, guardName: String?, Effect) {
            if stateless { return (Enrolment(state: .storingProfile(credentials)), statelessGuard(after: signInGuard), .storeProfile(credentials)) }
            return (Enrolment(state: .awaitingPin(credentials)), signInGuard, .emitCreatePinChallenge(error: nil))
        }

        /// The guard of a stateless registration's step into storing: `stateless`, or the
        /// sign-in's guard prefixed (`statelessSuccess`).
        /// - Parameter signInGuard: The guard the sign-in's last transition took.
        /// - Returns: The guard name.
        static func statelessGuard(after signInGuard: String?) -> String {
            guard let signInGuard, let first = signInGuard.first else { return "stateless" }
            return "stateless" + first.uppercased() + signInGuard.dropFirst()
        }

        /// The credentials the enrolment holds (server-side, until it ends).
        package var credentials: Credentials {
            switch state {
            case .awaitingPin(let credentials), .enrollingPin(let credentials), .storingProfile(let credentials): credentials
            }
        }

        /// Reacts to an event; see ``transitions``.
        /// - Parameters:
        ///   - event: What happened.
        ///   - policy: The rules the new PIN must follow.
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   current state has no transition for the event (the state is then unchanged).
        @inline(__always)
        package mutating func handle(_ event: Event, policy: PinPolicy) -> (guardName: String?, step: EnrolmentStep)? {
            let credentials = credentials
            switch state {
            case .awaitingPin:
                switch event {
                case .pinProvided(let pin):
                    if let violation = policy.violation(of: pin.value) {
                        return ("policyViolated", .next(Effects(.emitCreatePinChallenge(error: violation))))
                    }
                    state = .enrollingPin(credentials)
                    return ("policySatisfied", .next(Effects(.enrolPin(pin, tokens: credentials.tokens))))
                case .challengeAbandoned(let how): return (nil, .discard(credentials.tokens, how.error))
                case .cancelRequested: return (nil, .discard(credentials.tokens, ChallengeAbandonment.flowCancelled))
                default: return nil
                }
            case .enrollingPin:
                switch event {
                case .pinEnrolled:
                    state = .storingProfile(credentials)
                    return (nil, .next(Effects(.storeProfile(credentials))))
                case .serviceFailed(let error): return (nil, .discard(credentials.tokens, error))
                case .cancelRequested: return (nil, .discard(credentials.tokens, ChallengeAbandonment.flowCancelled))
                default: return nil
                }
            case .storingProfile:
                // Too late to cancel: the profile is being written locally in one step, and cancelling
                // could leave it stored behind a failed registration.
                switch event {
                case .profileStored: return (nil, .registered(info: credentials.info))
                case .serviceFailed(let error): return (nil, .discard(credentials.tokens, error))
                default: return nil
                }
            }
        }

        /// The transitions into the enrolment when a sign-in's state `source` gets `event` with
        /// tokens: to `awaitingPin` under `guardName`, or (stateless) to `storingProfile`.
        /// - Parameters:
        ///   - source: The sign-in's state.
        ///   - event: The event that brings the tokens.
        ///   - guardName: The sign-in's guard for its success, if any.
        /// - Returns: The two transitions.
        static func entries(from source: String, on event: String, guard guardName: String? = nil) -> [ChartTransition] {
            [
                .init(from: source, on: event, guard: guardName, to: "awaitingPin"),
                // A stateless registration keeps no PIN and no profile (its browser step is checkpointed like any other).
                .init(from: source, on: event, guard: statelessGuard(after: guardName), to: "storingProfile"),
            ]
        }

        /// The enrolment's transitions on the registration's chart. Every failure, an abandoned
        /// challenge and a cancel go through `discardingRegistration`: the server holds the new
        /// registration. `storingProfile` (one local write) ignores a cancel.
        package static let transitions: [ChartTransition] = [
            .init(from: "awaitingPin", on: "pinProvided", guard: "policySatisfied", to: "enrollingPin"),
            .init(from: "awaitingPin", on: "pinProvided", guard: "policyViolated", to: "awaitingPin"),
            .init(from: "enrollingPin", on: "pinEnrolled", to: "storingProfile"),
            .init(from: "storingProfile", on: "profileStored", to: "registered"),
            .init(from: "enrollingPin", on: "serviceFailed", to: "discardingRegistration"),
            .init(from: "storingProfile", on: "serviceFailed", to: "discardingRegistration"),
            .init(from: "awaitingPin", on: "challengeAbandoned", to: "discardingRegistration"),
            .init(from: "awaitingPin", on: "cancelRequested", to: "discardingRegistration"),
            .init(from: "enrollingPin", on: "cancelRequested", to: "discardingRegistration"),
        ]
    }

    /// What the enrolment tells the registration after an event.
    package enum EnrolmentStep: Sendable, Equatable {
        /// Still enrolling: the enrolment moved on; perform these effects.
        case next(Effects<Effect>)
        /// The user is registered; `info` is the custom provider's success answer.
        case registered(info: CustomInfo?)
        /// The enrolment failed: discard the server-side registration (these tokens), then fail
        /// with the error.
        case discard(TokenSet, IdentityFlowError)
    }
}
