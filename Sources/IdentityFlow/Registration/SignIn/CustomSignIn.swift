import Statechart

extension RegistrationMachine {
    /// A custom registration session (two-step init answers open one).
    ///
    /// Its description, debug description and `dump` show only whether there is a session.
    package struct CustomSession: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The session identifier, or `nil` for a one-step registration.
        package let id: String?

        /// `CustomSession(id: <redacted>)`, or `CustomSession(id: nil)`.
        package var description: String { "CustomSession(id: \(id == nil ? "nil" : "<redacted>"))" }
        /// The same as ``description``.
        package var debugDescription: String { description }
        /// A mirror that shows only whether there is a session.
        package var customMirror: Mirror { Mirror(self, children: ["id": id == nil ? "nil" : "<redacted>"], displayStyle: .struct) }
    }

    /// Custom registration as a child machine of the registration: one-step (the finish step
    /// only) or two-step (optional initial data first, its answer shown to the finish step).
    ///
    /// The server's status decides: 2000-2999 move on (the finish step's success issues the
    /// tokens), 4000-4999 ask the same step again with `info` and `error`, 5000-5999 fail with
    /// ``ErrorCode/customRegistrationFailure`` carrying `info`, any other status fails with
    /// ``ErrorCode/invalidServerResponse``. Its transitions are ``transitions``.
    package struct CustomSignIn: Sendable, Equatable, ChildMachineState {
        /// The custom sign-in's states.
        package enum State: Sendable, Equatable {
            /// The host gives optional initial data (two-step).
            case awaitingCustomInitData
            /// The server answers the init data.
            case sendingCustomInitData
            /// The host gives the registration data.
            case awaitingCustomFinishData(CustomSession)
            /// The server answers the registration data.
            case sendingCustomFinishData(CustomSession)
        }

        /// The leaf states, in drawing order (the chart's compound state `customSignIn`).
        package static let leaves = ["awaitingCustomInitData", "sendingCustomInitData", "awaitingCustomFinishData", "sendingCustomFinishData"]

        /// The current state.
        package private(set) var state: State

        /// Creates the sign-in in a state.
        /// - Parameter state: The state to start in; the parent entering it names the effect that state waits for.
        package init(state: State) { self.state = state }

        /// The chart name of the current leaf state.
        package var chartStateName: String { caseName(of: state) }

        /// A new sign-in: the host is asked for the first step's data.
        /// - Parameter kind: One-step (the finish step) or two-step (the init step first).
        /// - Returns: The sign-in, the chart's guard and the effect.
        static func start(_ kind: CustomRegistrationSteps) -> (CustomSignIn, guardName: String, Effect) {
            switch kind {
            case .oneStep:
                (
                    CustomSignIn(state: .awaitingCustomFinishData(CustomSession(id: nil))), "oneStepProvider",
                    .emitCustomRegistrationChallenge(.finish, info: nil, error: nil)
                )
            case .twoStep:
                (CustomSignIn(state: .awaitingCustomInitData), "twoStepProvider", .emitCustomRegistrationChallenge(.initialization, info: nil, error: nil))
            }
        }

        /// Reacts to an event; see ``transitions``.
        /// - Parameter event: What happened.
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   current state has no transition for the event (the state is then unchanged).
        @inline(__always)
        package mutating func handle(_ event: Event) -> (guardName: String?, step: SignInStep)? {
            switch state {
            case .awaitingCustomInitData:
                switch event {
                case .customDataProvided(let data):
                    return go(.sendingCustomInitData, .next(Effects(.sendCustomData(.initialization, session: Redacted(nil), data: data))))
                case .challengeAbandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .sendingCustomInitData:
                // The init step issues no tokens, so a cancel ends the flow at once.
                switch event {
                case .customAnswerReceived(let answer): return receiveInitAnswer(answer)
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .awaitingCustomFinishData(let session):
                switch event {
                case .customDataProvided(let data):
                    return go(.sendingCustomFinishData(session), .next(Effects(.sendCustomData(.finish, session: Redacted(session.id), data: data))))
                case .challengeAbandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .sendingCustomFinishData(let session):
                switch event {
                case .customAnswerReceived(let answer): return receiveFinishAnswer(answer, session: session)
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .awaitOutcome)
                default: return nil
                }
            }
        }

        private mutating func receiveInitAnswer(_ answer: CustomRegistrationAnswer) -> (guardName: String?, step: SignInStep) {
            switch answer.info.outcome {
            case .success:
                return go(
                    .awaitingCustomFinishData(CustomSession(id: answer.session)), guard: "success",
                    .next(Effects(.emitCustomRegistrationChallenge(.finish, info: answer.info, error: nil))))
            case .recoverable:
                return go(
                    .awaitingCustomInitData, guard: "recoverable",
                    .next(Effects(.emitCustomRegistrationChallenge(.initialization, info: answer.info, error: Self.retryError(answer.info)))))
            case .unrecoverable:
                return ("unrecoverable", .fail(Self.refusal(answer.info)))
            case .invalid:
                return ("invalidAnswer", .fail(Self.invalidStatus(answer.info)))
            }
        }

        private mutating func receiveFinishAnswer(_ answer: CustomRegistrationAnswer, session: CustomSession) -> (guardName: String?, step: SignInStep) {
            switch answer.info.outcome {
            case .success:
                guard let tokens = answer.tokens else {
                    return ("invalidAnswer", .fail(IdentityFlowError(.invalidServerResponse, "The server accepted the registration but issued no tokens.")))
                }
                return ("success", .tokensIssued(Credentials(tokens: tokens, info: answer.info)))
            case .recoverable:
                return go(
                    .awaitingCustomFinishData(session), guard: "recoverable",
                    .next(Effects(.emitCustomRegistrationChallenge(.finish, info: answer.info, error: Self.retryError(answer.info)))))
            case .unrecoverable:
                return ("unrecoverable", .fail(Self.refusal(answer.info)))
            case .invalid:
                return ("invalidAnswer", .fail(Self.invalidStatus(answer.info)))
            }
        }

        private mutating func go(_ target: State, guard guardName: String? = nil, _ step: SignInStep) -> (guardName: String?, step: SignInStep) {
            state = target
            return (guardName, step)
        }

        private static func retryError(_ info: CustomInfo) -> IdentityFlowError {
            var error = IdentityFlowError(.customRegistrationFailure, "The identity provider asks to try again (status \(info.status)).")
            error.customInfo = info
            return error
        }

        private static func refusal(_ info: CustomInfo) -> IdentityFlowError {
            var error = IdentityFlowError(.customRegistrationFailure, "The identity provider refused the registration (status \(info.status)).")
            error.customInfo = info
            return error
        }

        private static func invalidStatus(_ info: CustomInfo) -> IdentityFlowError {
            var error = IdentityFlowError(
                .invalidServerResponse, "The identity provider answered status \(info.status), outside 2000-2999, 4000-4999 and 5000-5999.")
            error.customInfo = info
            return error
        }

        /// The custom sign-in's transitions on the registration's chart (leaving it for
        /// `awaitingPin`, `storingProfile`, `cancelling` or `failed`).
        package static let transitions: [ChartTransition] =
            [
                .init(from: "awaitingCustomInitData", on: "customDataProvided", to: "sendingCustomInitData"),
                .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "success", to: "awaitingCustomFinishData"),
                .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "recoverable", to: "awaitingCustomInitData"),
                .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "unrecoverable", to: "failed"),
                .init(from: "sendingCustomInitData", on: "customAnswerReceived", guard: "invalidAnswer", to: "failed"),
                .init(from: "awaitingCustomFinishData", on: "customDataProvided", to: "sendingCustomFinishData"),
                .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "recoverable", to: "awaitingCustomFinishData"),
                .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "unrecoverable", to: "failed"),
                .init(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "invalidAnswer", to: "failed"),
            ]
            + RegistrationMachine.Enrolment.entries(from: "sendingCustomFinishData", on: "customAnswerReceived", guard: "success")
            + SignIn.endings(
                calling: ["sendingCustomInitData", "sendingCustomFinishData"], awaiting: ["awaitingCustomInitData", "awaitingCustomFinishData"],
                issuing: ["sendingCustomFinishData"])
    }
}
