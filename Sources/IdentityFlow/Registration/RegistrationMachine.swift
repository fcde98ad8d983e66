import Foundation
import Statechart

/// The registration flow as a pure state machine: browser, custom one-step and custom two-step
/// registration, then PIN creation, enrolment and storage.
///
/// It does no I/O: ``RegistrationFlow`` performs its effects. Its chart is
/// ``RegistrationMachine/chart``; `StateCharts/Registration.scxml` draws it.
package struct RegistrationMachine: StateMachine {
    /// What the machine knows from the start.
    ///
    /// Its fields sit in one box (docs/performance-notes.md#boxed-payloads). It compares by value.
    package struct Context: Sendable, Equatable {
        private struct Fields: Sendable, Equatable {
            let profile: UserProfile
            let provider: IdentityProvider
            let authorization: AuthorizationRequest?
            let pinPolicy: PinPolicy
            let deviceSecret: Redacted<[UInt8]>
            let stateless: Bool
            let externalToken: ExternalToken?
        }

        private let fields: Box<Fields>

        /// The profile being registered (its identifier is chosen by the device).
        package var profile: UserProfile { fields.value.profile }
        /// The identity provider.
        package var provider: IdentityProvider { fields.value.provider }
        /// PKCE, state and nonce for a browser provider; `nil` for a custom one.
        package var authorization: AuthorizationRequest? { fields.value.authorization }
        /// The rules the new PIN must follow.
        package var pinPolicy: PinPolicy { fields.value.pinPolicy }
        /// The device secret the PIN key is derived with (PIN proof v2), drawn for this profile.
        package var deviceSecret: Redacted<[UInt8]> { fields.value.deviceSecret }
        /// Whether the registration is stateless: no PIN, no profile stored (its browser step is checkpointed).
        package var stateless: Bool { fields.value.stateless }
        /// The other provider's token a token-exchange registration hands over.
        package var externalToken: ExternalToken? { fields.value.externalToken }

        /// Creates a context.
        /// - Parameters:
        ///   - profile: The profile.
        ///   - provider: The provider.
        ///   - authorization: The browser request, for a browser provider.
        ///   - pinPolicy: The PIN rules.
        ///   - deviceSecret: The profile's device secret.
        ///   - stateless: Whether no profile is stored (no PIN, the session in memory; only the browser checkpoint).
        ///   - externalToken: The other provider's token, for a token-exchange provider.
        package init(
            profile: UserProfile, provider: IdentityProvider, authorization: AuthorizationRequest?, pinPolicy: PinPolicy,
            deviceSecret: Redacted<[UInt8]>, stateless: Bool = false, externalToken: ExternalToken? = nil
        ) {
            fields = Box(
                Fields(
                    profile: profile, provider: provider, authorization: authorization, pinPolicy: pinPolicy,
                    deviceSecret: deviceSecret, stateless: stateless, externalToken: externalToken))
        }
    }

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

    /// What a successful server registration left: tokens and the provider's last answer.
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
        /// The custom provider's success answer, `nil` for a browser provider.
        package var info: CustomInfo? { fields.value.info }

        init(tokens: TokenSet, info: CustomInfo?) { fields = Box(Fields(tokens: tokens, info: info)) }
    }

    /// A partial registration in progress: the state key to complete it with (kept redacted)
    /// and the identifier the provider knows.
    package struct PartialSession: Sendable, Hashable {
        /// The callback's `state_key`.
        package let stateKey: Redacted<String>
        /// The callback's `identifier`.
        package let identifier: String
    }

    /// A failure waiting to be reported once the server-side leftovers are discarded.
    package struct PendingFailure: Sendable, Equatable {
        /// The error the flow fails with.
        package let error: IdentityFlowError
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The server builds the authorization URL.
        case preparingAuthorization
        /// The device writes the checkpoint that lets the registration survive the app being
        /// killed while the user is in the browser.
        case savingCheckpoint
        /// The host opens the browser and hands back the redirect.
        case awaitingBrowserRedirect
        /// The server exchanges the code for tokens.
        case exchangingCode
        /// The host gives optional initial data (two-step).
        case awaitingCustomInitData
        /// The server answers the init data.
        case sendingCustomInitData
        /// The host gives the registration data.
        case awaitingCustomFinishData(CustomSession)
        /// The server answers the registration data.
        case sendingCustomFinishData(CustomSession)
        /// The host gives a login and password.
        case awaitingCredentials
        /// The server checks them (the password grant).
        case sendingCredentials
        /// The server exchanges the other provider's token.
        case exchangingExternalToken
        /// The host gives the attributes a partial registration still needs.
        case awaitingPartialRegistration(PartialSession)
        /// The server completes the partial registration.
        case sendingPartialRegistration(PartialSession)
        /// The host chooses a PIN.
        case awaitingPin(Credentials)
        /// The server enrols the PIN verifier.
        case enrollingPin(Credentials)
        /// The device stores the profile and tokens.
        case storingProfile(Credentials)
        /// Cancelled while the server exchanged the code or answered the registration data: the
        /// call's outcome is awaited, so that credentials it issued are known and discarded.
        case cancelling
        /// The server forgets the half-made registration; then the failure is reported.
        case discardingRegistration(PendingFailure)
        /// Done: the user is registered. Final.
        case registered
        /// Done: the registration failed and left nothing behind. Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server built the authorization URL.
        case authorizationURLBuilt(URL)
        /// The checkpoint for the browser wait is stored.
        case checkpointSaved(URL)
        /// A checkpointed registration continues in this process: it waits for the redirect
        /// again, or takes the one the host already handed over.
        case resumed(authorizationURL: URL, redirect: URL?)
        /// The host handed back the browser's redirect.
        case redirectReceived(URL)
        /// A configured intermediate redirect (a BankID return) came back and was ignored.
        case intermediateRedirectIgnored
        /// The server exchanged the code.
        case codeExchanged(TokenSet)
        /// The host gave custom registration data.
        case customDataProvided(Redacted<String?>)
        /// The server answered custom registration data.
        case customAnswerReceived(CustomRegistrationAnswer)
        /// The host gave a login and password.
        case credentialsProvided(LoginCredentials)
        /// The server answered the credentials or the token exchange.
        case credentialsAnswered(CredentialsOutcome)
        /// The host gave a partial registration's attributes.
        case partialDataProvided(Redacted<[String: String]>)
        /// The server answered a partial registration's attributes.
        case partialRegistrationAnswered(PartialRegistrationOutcome)
        /// The host chose a PIN.
        case pinProvided(Redacted<String>)
        /// The server enrolled the PIN verifier.
        case pinEnrolled
        /// The device stored the profile.
        case profileStored
        /// The server forgot the half-made registration (or could not be told).
        case registrationDiscarded
        /// A server call or the storage failed.
        case serviceFailed(IdentityFlowError)
        /// A challenge ended without an answer.
        case challengeAbandoned(ChallengeAbandonment)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// Tell the host the registration started.
        case reportStarted
        /// Ask the server for the authorization URL.
        case buildAuthorizationURL
        /// Store the checkpoint of the browser wait, before the host sees the challenge.
        case saveCheckpoint(URL)
        /// Hand the host a ``BrowserRegistrationChallenge``.
        case emitBrowserChallenge(URL)
        /// Take the redirect a resumed registration was handed (it becomes `redirectReceived`).
        case deliverRedirect(URL)
        /// Have the service check the response's `iss` (RFC 9207), then exchange the code for tokens.
        case exchangeCode(Redacted<String>, issuer: String?)
        /// Exchange the provider's session (Zephr's `session_id`) for tokens.
        case exchangeSession(Redacted<String>)
        /// Hand the host a ``CustomRegistrationChallenge``.
        case emitCustomRegistrationChallenge(CustomRegistrationStep, info: CustomInfo?, error: IdentityFlowError?)
        /// Send custom registration data to the server.
        case sendCustomData(CustomRegistrationStep, session: Redacted<String?>, data: Redacted<String?>)
        /// Hand the host a ``CredentialsChallenge``.
        case emitCredentialsChallenge(error: IdentityFlowError?)
        /// Send the login and password (the password grant).
        case sendCredentials(LoginCredentials)
        /// Exchange the other provider's token.
        case exchangeExternalToken
        /// Ask the server for the authorization URL carrying an autologin token.
        case buildAutologinURL(Redacted<String>)
        /// Hand the host a ``PartialRegistrationChallenge``.
        case emitPartialRegistrationChallenge(identifier: String, error: IdentityFlowError?)
        /// Send a partial registration's attributes.
        case sendPartialRegistration(stateKey: Redacted<String>, attributes: Redacted<[String: String]>)
        /// Hand the host a ``CreatePinChallenge``.
        case emitCreatePinChallenge(error: IdentityFlowError?)
        /// Derive the PIN verifier and enrol it.
        case enrolPin(Redacted<String>, tokens: TokenSet)
        /// Store the profile and its tokens.
        case storeProfile(Credentials)
        /// Deregister the half-made profile on the server and revoke its tokens.
        case discardRegistration(TokenSet)
        /// Tell the host the user is registered.
        case reportSuccess(info: CustomInfo?)
        /// Tell the host the registration failed.
        case reportFailure(IdentityFlowError)
    }

    /// What the machine knows from the start.
    package let context: Context
    /// The current state.
    package private(set) var state: State = .idle

    /// Creates a machine in ``State/idle``.
    /// - Parameter context: Profile, provider, browser request and PIN policy.
    package init(context: Context) { self.context = context }

    /// Creates a machine in a given state, for tests that start mid-flow.
    /// - Parameters:
    ///   - context: Profile, provider, browser request and PIN policy.
    ///   - state: The state to start in.
    package init(context: Context, state: State) {
        self.context = context
        self.state = state
    }

    /// Whether the registration ended.
    package var isFinished: Bool { state == .registered || state == .failed }

    /// Reacts to an event; see ``chart`` for every transition.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` if the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        // Speed: docs/performance-notes.md#state-then-event-switch.
        switch state {
        case .idle:
            switch event {
            case .started: return start()
            case .resumed(let url, let redirect): return resume(authorizationURL: url, redirect: redirect)
            default: return nil
            }
        case .preparingAuthorization:
            switch event {
            case .authorizationURLBuilt(let url):
                return go(.savingCheckpoint, Effects(.saveCheckpoint(url)))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .savingCheckpoint:
            switch event {
            case .checkpointSaved(let url): return go(.awaitingBrowserRedirect, Effects(.emitBrowserChallenge(url)))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .awaitingBrowserRedirect:
            switch event {
            case .redirectReceived(let url): return receiveRedirect(url)
            case .intermediateRedirectIgnored: return go(.awaitingBrowserRedirect, Effects())
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .exchangingCode:
            switch event {
            case .codeExchanged(let tokens): return registered(Credentials(tokens: tokens, info: nil))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return cancelDuringIssuingCall()
            default: return nil
            }
        case .awaitingCredentials:
            switch event {
            case .credentialsProvided(let credentials): return go(.sendingCredentials, Effects(.sendCredentials(credentials)))
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .sendingCredentials, .exchangingExternalToken:
            switch event {
            case .credentialsAnswered(.granted(let tokens)): return registered(Credentials(tokens: tokens, info: nil))
            case .credentialsAnswered(.invalid) where state == .sendingCredentials:
                return go(.awaitingCredentials, guard: "invalid", Effects(.emitCredentialsChallenge(error: IdentityFlowError(.invalidCredentials))))
            case .credentialsAnswered(.invalid):
                return fail(IdentityFlowError(.externalTokenRefused), guard: "invalid")
            case .credentialsAnswered(.interactionRequired(let token)):
                return go(.preparingAuthorization, guard: "interactionRequired", Effects(.buildAutologinURL(token)))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return cancelDuringIssuingCall()
            default: return nil
            }
        case .awaitingPartialRegistration(let session):
            switch event {
            case .partialDataProvided(let attributes):
                return go(.sendingPartialRegistration(session), Effects(.sendPartialRegistration(stateKey: session.stateKey, attributes: attributes)))
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .sendingPartialRegistration(let session):
            switch event {
            case .partialRegistrationAnswered(.registered(let tokens)): return registered(Credentials(tokens: tokens, info: nil))
            case .partialRegistrationAnswered(.refused(let refusal)):
                return go(
                    .awaitingPartialRegistration(session), guard: "refused",
                    Effects(.emitPartialRegistrationChallenge(identifier: session.identifier, error: refusal.error)))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return cancelDuringIssuingCall()
            default: return nil
            }
        case .awaitingCustomInitData:
            switch event {
            case .customDataProvided(let data):
                return go(.sendingCustomInitData, Effects(.sendCustomData(.initialization, session: Redacted(nil), data: data)))
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .sendingCustomInitData:
            switch event {
            case .customAnswerReceived(let answer): return receiveInitAnswer(answer)
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .awaitingCustomFinishData(let session):
            switch event {
            case .customDataProvided(let data):
                return go(.sendingCustomFinishData(session), Effects(.sendCustomData(.finish, session: Redacted(session.id), data: data)))
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .sendingCustomFinishData(let session):
            switch event {
            case .customAnswerReceived(let answer): return receiveFinishAnswer(answer, session: session)
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return cancelDuringIssuingCall()
            default: return nil
            }
        case .cancelling:
            let cancelled = PendingFailure(error: ChallengeAbandonment.flowCancelled)
            switch event {
            case .codeExchanged(let tokens):
                return go(.discardingRegistration(cancelled), guard: "tokensIssued", Effects(.discardRegistration(tokens)))
            case .customAnswerReceived(let answer):
                guard answer.info.outcome == .success, let tokens = answer.tokens else {
                    return go(.failed, guard: "noTokens", Effects(.reportFailure(cancelled.error)))
                }
                return go(.discardingRegistration(cancelled), guard: "tokensIssued", Effects(.discardRegistration(tokens)))
            case .partialRegistrationAnswered(.registered(let tokens)):
                return go(.discardingRegistration(cancelled), guard: "tokensIssued", Effects(.discardRegistration(tokens)))
            case .partialRegistrationAnswered(.refused):
                return go(.failed, guard: "noTokens", Effects(.reportFailure(cancelled.error)))
            case .credentialsAnswered(.granted(let tokens)):
                return go(.discardingRegistration(cancelled), guard: "tokensIssued", Effects(.discardRegistration(tokens)))
            case .credentialsAnswered:
                return go(.failed, guard: "noTokens", Effects(.reportFailure(cancelled.error)))
            case .serviceFailed: return go(.failed, Effects(.reportFailure(cancelled.error)))
            default: return nil
            }
        case .awaitingPin(let credentials):
            switch event {
            case .pinProvided(let pin):
                if let violation = context.pinPolicy.violation(of: pin.value) {
                    return go(.awaitingPin(credentials), guard: "policyViolated", Effects(.emitCreatePinChallenge(error: violation)))
                }
                return go(.enrollingPin(credentials), guard: "policySatisfied", Effects(.enrolPin(pin, tokens: credentials.tokens)))
            case .challengeAbandoned(let how): return fail(how.error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .enrollingPin(let credentials):
            switch event {
            case .pinEnrolled: return go(.storingProfile(credentials), Effects(.storeProfile(credentials)))
            case .serviceFailed(let error): return fail(error)
            case .cancelRequested: return fail(ChallengeAbandonment.flowCancelled)
            default: return nil
            }
        case .storingProfile(let credentials):
            // Too late to cancel: the profile is being written locally in one step, and cancelling
            // could leave it stored behind a failed registration.
            switch event {
            case .profileStored: return go(.registered, Effects(.reportSuccess(info: credentials.info)))
            case .serviceFailed(let error): return fail(error)
            default: return nil
            }
        case .discardingRegistration(let pending):
            // The flow is already failing and must finish discarding what the server holds.
            guard case .registrationDiscarded = event else { return nil }
            return fail(pending.error)
        case .registered, .failed:
            return nil
        }
    }

    // MARK: - Steps

    private mutating func start() -> Reaction<Effect>? {
        switch context.provider.kind {
        case .browser:
            guard context.authorization != nil else { return nil }
            return go(.preparingAuthorization, guard: "browserProvider", Effects(.reportStarted, .buildAuthorizationURL))
        case .custom(.oneStep):
            return go(
                .awaitingCustomFinishData(CustomSession(id: nil)), guard: "oneStepProvider",
                Effects(.reportStarted, .emitCustomRegistrationChallenge(.finish, info: nil, error: nil)))
        case .custom(.twoStep):
            return go(
                .awaitingCustomInitData, guard: "twoStepProvider",
                Effects(.reportStarted, .emitCustomRegistrationChallenge(.initialization, info: nil, error: nil)))
        case .credentials:
            return go(.awaitingCredentials, guard: "credentialsProvider", Effects(.reportStarted, .emitCredentialsChallenge(error: nil)))
        case .tokenExchange:
            guard context.externalToken != nil else { return nil }
            return go(.exchangingExternalToken, guard: "tokenExchange", Effects(.reportStarted, .exchangeExternalToken))
        }
    }

    private mutating func resume(authorizationURL: URL, redirect: URL?) -> Reaction<Effect>? {
        guard context.authorization != nil else { return nil }
        if let redirect {
            return go(.awaitingBrowserRedirect, guard: "redirectHandedOver", Effects(.reportStarted, .deliverRedirect(redirect)))
        }
        return go(.awaitingBrowserRedirect, guard: "awaitingRedirect", Effects(.reportStarted, .emitBrowserChallenge(authorizationURL)))
    }

    private mutating func receiveRedirect(_ url: URL) -> Reaction<Effect>? {
        guard let request = context.authorization else { return nil }
        let redirect = BrowserRedirect.check(url, against: request)
        switch redirect {
        case .authorized(let code, let issuer):
            return go(.exchangingCode, guard: redirect.guardName, Effects(.exchangeCode(code, issuer: issuer)))
        case .session(let id):
            return go(.exchangingCode, guard: redirect.guardName, Effects(.exchangeSession(id)))
        case .partial(let stateKey, let identifier):
            return go(
                .awaitingPartialRegistration(PartialSession(stateKey: stateKey, identifier: identifier)), guard: redirect.guardName,
                Effects(.emitPartialRegistrationChallenge(identifier: identifier, error: nil)))
        case .denied, .stateMismatch, .redirectMismatch, .malformed:
            return fail(redirect.failure(expecting: request.redirectURI) ?? IdentityFlowError(.unknown), guard: redirect.guardName)
        }
    }

    private mutating func receiveInitAnswer(_ answer: CustomRegistrationAnswer) -> Reaction<Effect>? {
        switch answer.info.outcome {
        case .success:
            return go(
                .awaitingCustomFinishData(CustomSession(id: answer.session)), guard: "success",
                Effects(.emitCustomRegistrationChallenge(.finish, info: answer.info, error: nil)))
        case .recoverable:
            return go(
                .awaitingCustomInitData, guard: "recoverable",
                Effects(.emitCustomRegistrationChallenge(.initialization, info: answer.info, error: Self.retryError(answer.info))))
        case .unrecoverable:
            return fail(Self.refusal(answer.info), guard: "unrecoverable")
        case .invalid:
            return fail(Self.invalidStatus(answer.info), guard: "invalidAnswer")
        }
    }

    private mutating func receiveFinishAnswer(_ answer: CustomRegistrationAnswer, session: CustomSession) -> Reaction<Effect>? {
        switch answer.info.outcome {
        case .success:
            guard let tokens = answer.tokens else {
                return fail(IdentityFlowError(.invalidServerResponse, "The server accepted the registration but issued no tokens."), guard: "invalidAnswer")
            }
            let credentials = Credentials(tokens: tokens, info: answer.info)
            if context.stateless { return go(.storingProfile(credentials), guard: "statelessSuccess", Effects(.storeProfile(credentials))) }
            return go(.awaitingPin(credentials), guard: "success", Effects(.emitCreatePinChallenge(error: nil)))
        case .recoverable:
            return go(
                .awaitingCustomFinishData(session), guard: "recoverable",
                Effects(.emitCustomRegistrationChallenge(.finish, info: answer.info, error: Self.retryError(answer.info))))
        case .unrecoverable:
            return fail(Self.refusal(answer.info), guard: "unrecoverable")
        case .invalid:
            return fail(Self.invalidStatus(answer.info), guard: "invalidAnswer")
        }
    }

    /// The server issued the new user's tokens: a PIN next, or (stateless) straight to storing.
    private mutating func registered(_ credentials: Credentials) -> Reaction<Effect> {
        if context.stateless { return go(.storingProfile(credentials), guard: "stateless", Effects(.storeProfile(credentials))) }
        return go(.awaitingPin(credentials), Effects(.emitCreatePinChallenge(error: nil)))
    }

    /// A cancel while the server may be issuing tokens: the call is cancelled, but its outcome
    /// still comes back (the tokens of an answer that was already on its way, or the
    /// cancellation), and ``State/cancelling`` discards what it issued before the flow fails.
    private mutating func cancelDuringIssuingCall() -> Reaction<Effect> {
        go(.cancelling, Effects())
    }

    // MARK: - Helpers

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }

    /// Fails: through discarding when server-side credentials exist, directly otherwise.
    private mutating func fail(_ error: IdentityFlowError, guard guardName: String? = nil) -> Reaction<Effect> {
        switch state {
        case .awaitingPin(let credentials), .enrollingPin(let credentials), .storingProfile(let credentials):
            return go(.discardingRegistration(PendingFailure(error: error)), guard: guardName, Effects(.discardRegistration(credentials.tokens)))
        default:
            return go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
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
}
