import Foundation
import Statechart

extension RegistrationMachine {
    /// A partial registration in progress: the state key to complete it with (kept redacted)
    /// and the identifier the provider knows.
    ///
    /// Its fields sit in one box (docs/performance-notes.md#boxed-payloads), so the registration's
    /// state stays small. It compares and hashes by value.
    package struct PartialSession: Sendable, Hashable {
        private struct Fields: Sendable, Hashable {
            let stateKey: Redacted<String>
            let identifier: String
        }

        private let fields: Box<Fields>

        /// The callback's `state_key`.
        package var stateKey: Redacted<String> { fields.value.stateKey }
        /// The callback's `identifier`.
        package var identifier: String { fields.value.identifier }

        /// Creates a partial session.
        /// - Parameters:
        ///   - stateKey: The callback's `state_key`.
        ///   - identifier: The callback's `identifier`.
        package init(stateKey: Redacted<String>, identifier: String) { fields = Box(Fields(stateKey: stateKey, identifier: identifier)) }
    }

    /// Browser sign-in as a child machine of the registration: the server builds the
    /// authorization URL, the device checkpoints the wait, the host hands back the redirect
    /// (configured intermediate redirects are ignored), and the code (or the provider's session)
    /// is exchanged for tokens. A redirect that asks for more attributes (Zephr's partial
    /// registration) asks the host for them first.
    ///
    /// A checkpointed registration resumes here (``resume(authorizationURL:redirect:)``), and a
    /// credentials or token-exchange sign-in that needs interaction continues here
    /// (``autologin(_:)``). Its transitions are ``transitions``.
    package struct BrowserSignIn: Sendable, Equatable, ChildMachineState {
        /// The browser sign-in's states.
        package enum State: Sendable, Equatable {
            /// The server builds the authorization URL.
            case preparingAuthorization
            /// The device writes the checkpoint that lets the registration survive the app being
            /// killed while the user is in the browser.
            case savingCheckpoint
            /// The host opens the browser and hands back the redirect.
            case awaitingBrowserRedirect
            /// The server exchanges the code (or the provider's session) for tokens.
            case exchangingCode
            /// The host gives the attributes a partial registration still needs.
            case awaitingPartialRegistration(PartialSession)
            /// The server completes the partial registration.
            case sendingPartialRegistration(PartialSession)
        }

        /// The leaf states, in drawing order (the chart's compound state `browserSignIn`).
        package static let leaves = [
            "preparingAuthorization", "savingCheckpoint", "awaitingBrowserRedirect", "exchangingCode", "awaitingPartialRegistration",
            "sendingPartialRegistration",
        ]

        /// The current state.
        package private(set) var state: State

        /// Creates the sign-in in a state.
        /// - Parameter state: The state to start in; the parent entering it names the effect that state waits for.
        package init(state: State = .preparingAuthorization) { self.state = state }

        /// The chart name of the current leaf state.
        package var chartStateName: String { caseName(of: state) }

        /// A new sign-in: the server builds the authorization URL.
        static func start() -> (BrowserSignIn, Effect) { (BrowserSignIn(), .buildAuthorizationURL) }

        /// A sign-in that continues in the browser after `interaction_required`: the authorization
        /// URL carries the autologin token.
        /// - Parameter token: The autologin token.
        /// - Returns: The sign-in and the effect its first state waits for.
        static func autologin(_ token: Redacted<String>) -> (BrowserSignIn, Effect) { (BrowserSignIn(), .buildAutologinURL(token)) }

        /// A checkpointed sign-in continuing in this process: it takes the redirect the host
        /// already handed over, or builds its authorization URL again (the checkpoint's request:
        /// same `state`, nonce and PKCE) and waits for the browser. The URL is built anew, not
        /// reopened: a pushed authorization request (PAR, RFC 9126) expires and may be used once,
        /// and a DPoP key the checkpoint could not keep is created again.
        /// - Parameters:
        ///   - authorizationURL: The URL the browser was sent to (in the transition log only).
        ///   - redirect: The redirect the host handed over, if any.
        /// - Returns: The sign-in, the chart's guard and the effect.
        static func resume(authorizationURL: URL, redirect: URL?) -> (BrowserSignIn, guardName: String, Effect) {
            if let redirect { return (BrowserSignIn(state: .awaitingBrowserRedirect), "redirectHandedOver", .deliverRedirect(redirect)) }
            return (BrowserSignIn(state: .preparingAuthorization), "awaitingRedirect", .buildAuthorizationURL)
        }

        /// Reacts to an event; see ``transitions``.
        /// - Parameters:
        ///   - event: What happened.
        ///   - request: The browser request the redirect must match (a context without one takes no redirect).
        /// - Returns: The guard that held and what the registration does next, or `nil` when the
        ///   current state has no transition for the event (the state is then unchanged).
        @inline(__always)
        package mutating func handle(_ event: Event, request: AuthorizationRequest?) -> (guardName: String?, step: SignInStep)? {
            switch state {
            case .preparingAuthorization:
                switch event {
                case .authorizationURLBuilt(let url): return go(.savingCheckpoint, .next(Effects(.saveCheckpoint(url))))
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .savingCheckpoint:
                switch event {
                case .checkpointSaved(let url): return go(.awaitingBrowserRedirect, .next(Effects(.emitBrowserChallenge(url))))
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .awaitingBrowserRedirect:
                switch event {
                case .redirectReceived(let url):
                    guard let request else { return nil }
                    return receiveRedirect(url, request: request)
                case .intermediateRedirectIgnored: return (nil, .next(Effects()))
                case .challengeAbandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .exchangingCode:
                switch event {
                case .codeExchanged(let tokens): return (nil, .tokensIssued(Credentials(tokens: tokens, info: nil)))
                case .stepUpRefused(let tokens, let error): return (nil, .refused(tokens, error))
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .awaitOutcome)
                default: return nil
                }
            case .awaitingPartialRegistration(let session):
                switch event {
                case .partialDataProvided(let attributes):
                    return go(
                        .sendingPartialRegistration(session), .next(Effects(.sendPartialRegistration(stateKey: session.stateKey, attributes: attributes))))
                case .challengeAbandoned(let how): return (nil, .fail(how.error))
                case .cancelRequested: return (nil, .cancelled)
                default: return nil
                }
            case .sendingPartialRegistration(let session):
                switch event {
                case .partialRegistrationAnswered(.registered(let tokens)): return (nil, .tokensIssued(Credentials(tokens: tokens, info: nil)))
                case .partialRegistrationAnswered(.refused(let refusal)):
                    return go(
                        .awaitingPartialRegistration(session), guard: "refused",
                        .next(Effects(.emitPartialRegistrationChallenge(identifier: session.identifier, error: refusal.error))))
                case .serviceFailed(let error): return (nil, .fail(error))
                case .cancelRequested: return (nil, .awaitOutcome)
                default: return nil
                }
            }
        }

        private mutating func receiveRedirect(_ url: URL, request: AuthorizationRequest) -> (guardName: String?, step: SignInStep) {
            let redirect = BrowserRedirect.check(url, against: request)
            switch redirect {
            case .authorized(let code, let issuer):
                return go(.exchangingCode, guard: redirect.guardName, .next(Effects(.exchangeCode(code, issuer: issuer))))
            case .session(let id):
                return go(.exchangingCode, guard: redirect.guardName, .next(Effects(.exchangeSession(id))))
            case .partial(let stateKey, let identifier):
                return go(
                    .awaitingPartialRegistration(PartialSession(stateKey: stateKey, identifier: identifier)), guard: redirect.guardName,
                    .next(Effects(.emitPartialRegistrationChallenge(identifier: identifier, error: nil))))
            case .denied, .stateMismatch, .redirectMismatch, .malformed:
                return (redirect.guardName, .fail(redirect.failure(expecting: request.redirectURI) ?? IdentityFlowError(.unknown)))
            }
        }

        private mutating func go(_ target: State, guard guardName: String? = nil, _ step: SignInStep) -> (guardName: String?, step: SignInStep) {
            state = target
            return (guardName, step)
        }

        /// The browser sign-in's transitions on the registration's chart (leaving it for
        /// `awaitingPin`, `storingProfile`, `discardingRegistration`, `cancelling` or `failed`).
        package static let transitions: [ChartTransition] =
            [
                .init(from: "preparingAuthorization", on: "authorizationURLBuilt", to: "savingCheckpoint"),
                .init(from: "savingCheckpoint", on: "checkpointSaved", to: "awaitingBrowserRedirect"),
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "authorized", to: "exchangingCode"),
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "denied", to: "failed"),
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "stateMismatch", to: "failed"),
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "redirectMismatch", to: "failed"),
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "malformed", to: "failed"),
                // Schibsted's BankID return: taken and ignored, the challenge stays open.
                .init(from: "awaitingBrowserRedirect", on: "intermediateRedirectIgnored", to: "awaitingBrowserRedirect"),
                // Zephr's partial registration: the provider needs more attributes before it issues tokens.
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "partial", to: "awaitingPartialRegistration"),
                // Zephr's login of an existing user: its session is exchanged for tokens.
                .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "session", to: "exchangingCode"),
                .init(from: "awaitingPartialRegistration", on: "partialDataProvided", to: "sendingPartialRegistration"),
                .init(from: "sendingPartialRegistration", on: "partialRegistrationAnswered", guard: "refused", to: "awaitingPartialRegistration"),
                // The ID token does not show the step-up the sign-in asked for: its tokens are discarded.
                .init(from: "exchangingCode", on: "stepUpRefused", to: "discardingRegistration"),
            ]
            + RegistrationMachine.Enrolment.entries(from: "exchangingCode", on: "codeExchanged")
            + RegistrationMachine.Enrolment.entries(from: "sendingPartialRegistration", on: "partialRegistrationAnswered")
            + SignIn.endings(
                calling: ["preparingAuthorization", "savingCheckpoint", "exchangingCode", "sendingPartialRegistration"],
                awaiting: ["awaitingBrowserRedirect", "awaitingPartialRegistration"],
                issuing: ["exchangingCode", "sendingPartialRegistration"])
    }
}
