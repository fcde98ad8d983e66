import Foundation
import Statechart

/// The registration flow as a pure state machine: a sign-in step, then an enrolment step.
///
/// Each step is a child machine held as the state's value (as swift-nio's `NIOAsyncWriter` nests
/// its state machine): ``SignIn`` runs one variant (``BrowserSignIn``, ``CustomSignIn``,
/// ``CredentialsSignIn``, ``TokenExchangeSignIn``, each in a file of its own under `SignIn/`)
/// until the server issues the tokens, then the ``Enrolment`` creates the PIN, enrols it and
/// stores the profile (or, stateless, stores the session). The parent keeps what the steps share:
/// the start, `cancelling` (a cancel while a call may issue tokens) and `discardingRegistration`.
/// Its ``Event`` and ``Effect`` are one vocabulary for all of them, so the performer does not see
/// the composition.
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

    /// A failure waiting to be reported once the server-side leftovers are discarded.
    package struct PendingFailure: Sendable, Equatable {
        /// The error the flow fails with.
        package let error: IdentityFlowError
    }

    /// What the machine waits for: a sign-in step, then an enrolment step, each a child machine
    /// held as the state's value (its chart name is the child's leaf state).
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The sign-in step: one child machine per variant (browser, custom, credentials, token
        /// exchange), ending in tokens issued or a failure.
        case signingIn(SignIn)
        /// Cancelled while a sign-in call may issue tokens (the code exchange, the custom finish
        /// step, the partial registration, the password grant, the token exchange): the call's
        /// outcome is awaited, so that credentials it issued are known and discarded.
        case cancelling
        /// The enrolment step: create the PIN, enrol it, store the profile (or, stateless, only
        /// store the session).
        case enrolling(Enrolment)
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
        /// The server exchanged the code, but its ID token does not show the authentication the
        /// sign-in asked for (``AuthorizationParameters``): the tokens are discarded and the
        /// registration fails with the error (``ErrorCode/stepUpNotSatisfied``).
        case stepUpRefused(TokenSet, IdentityFlowError)
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

    /// Reacts to an event; see ``chart`` for every transition. The running child machine (sign-in
    /// or enrolment) takes the event, and its step decides the registration's next state.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` if the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        // Speed: docs/performance-notes.md#state-then-event-switch.
        switch state {
        case .idle:
            switch event {
            case .started: return start()
            case .resumed(let url, let redirect):
                guard context.authorization != nil else { return nil }
                let (browser, guardName, effect) = BrowserSignIn.resume(authorizationURL: url, redirect: redirect)
                return go(.signingIn(.browser(browser)), guard: guardName, Effects(.reportStarted, effect))
            default: return nil
            }
        case .signingIn(var signIn):
            // The state lets go of its copy first, so the child's payloads are not kept twice.
            state = .idle
            guard let (guardName, step) = signIn.handle(event, context: context) else {
                state = .signingIn(signIn)
                return nil
            }
            return follow(signIn, step, guard: guardName)
        case .cancelling:
            return cancelling(event)
        case .enrolling(var enrolment):
            state = .idle
            guard let (guardName, step) = enrolment.handle(event, policy: context.pinPolicy) else {
                state = .enrolling(enrolment)
                return nil
            }
            switch consume step {
            case .next(let effects): return go(.enrolling(enrolment), guard: guardName, effects)
            case .registered(let info): return go(.registered, guard: guardName, Effects(.reportSuccess(info: info)))
            case .discard(let tokens, let error): return discard(tokens, failing: error, guard: guardName)
            }
        case .discardingRegistration(let pending):
            // The flow is already failing and must finish discarding what the server holds.
            guard case .registrationDiscarded = event else { return nil }
            return go(.failed, Effects(.reportFailure(pending.error)))
        case .registered, .failed:
            return nil
        }
    }

    // MARK: - Steps

    /// Starts the sign-in variant the provider's kind names.
    private mutating func start() -> Reaction<Effect>? {
        switch context.provider.kind {
        case .browser:
            guard context.authorization != nil else { return nil }
            let (browser, effect) = BrowserSignIn.start()
            return go(.signingIn(.browser(browser)), guard: "browserProvider", Effects(.reportStarted, effect))
        case .custom(let steps):
            let (custom, guardName, effect) = CustomSignIn.start(steps)
            return go(.signingIn(.custom(custom)), guard: guardName, Effects(.reportStarted, effect))
        case .credentials:
            let (credentials, effect) = CredentialsSignIn.start()
            return go(.signingIn(.credentials(credentials)), guard: "credentialsProvider", Effects(.reportStarted, effect))
        case .tokenExchange:
            guard context.externalToken != nil else { return nil }
            let (exchange, effect) = TokenExchangeSignIn.start()
            return go(.signingIn(.tokenExchange(exchange)), guard: "tokenExchange", Effects(.reportStarted, effect))
        }
    }

    /// Maps a sign-in variant's step to the registration's next state: the sign-in runs on, the
    /// enrolment starts, or the registration cancels, discards or fails.
    @inline(__always)
    private mutating func follow(_ signIn: consuming SignIn, _ step: consuming SignInStep, guard guardName: String?) -> Reaction<Effect> {
        switch consume step {
        case .next(let effects):
            return go(.signingIn(signIn), guard: guardName, effects)
        case .tokensIssued(let credentials):
            let (enrolment, entryGuard, effect) = Enrolment.start(credentials, stateless: context.stateless, signInGuard: guardName)
            return go(.enrolling(enrolment), guard: entryGuard, Effects(effect))
        case .refused(let tokens, let error):
            return discard(tokens, failing: error, guard: guardName)
        case .awaitOutcome:
            // The call is cancelled, but its outcome still comes back (the tokens of an answer that
            // was already on its way, or the cancellation), and `cancelling` discards what it issued.
            return go(.cancelling, guard: guardName, Effects())
        case .continueInBrowser(let token):
            let (browser, effect) = BrowserSignIn.autologin(token)
            return go(.signingIn(.browser(browser)), guard: guardName, Effects(effect))
        case .fail(let error):
            return go(.failed, guard: guardName, Effects(.reportFailure(error)))
        }
    }

    /// Awaits the outcome of a sign-in call cancelled in flight: tokens it issued are discarded
    /// before the flow fails as cancelled; an outcome without tokens fails at once.
    private mutating func cancelling(_ event: Event) -> Reaction<Effect>? {
        let cancelled = ChallengeAbandonment.flowCancelled
        let issued: TokenSet?
        switch event {
        case .codeExchanged(let tokens), .stepUpRefused(let tokens, _): issued = tokens
        case .customAnswerReceived(let answer): issued = answer.info.outcome == .success ? answer.tokens : nil
        case .partialRegistrationAnswered(.registered(let tokens)): issued = tokens
        case .partialRegistrationAnswered(.refused): issued = nil
        case .credentialsAnswered(.granted(let tokens)): issued = tokens
        case .credentialsAnswered: issued = nil
        case .serviceFailed: return go(.failed, Effects(.reportFailure(cancelled)))
        default: return nil
        }
        guard let issued else { return go(.failed, guard: "noTokens", Effects(.reportFailure(cancelled))) }
        return discard(issued, failing: cancelled, guard: "tokensIssued")
    }

    // MARK: - Helpers

    private mutating func go(_ target: State, guard guardName: String? = nil, _ effects: Effects<Effect>) -> Reaction<Effect> {
        state = target
        return Reaction(guard: guardName, effects)
    }

    /// Fails after the server forgot the half-made registration these tokens belong to.
    private mutating func discard(_ tokens: TokenSet, failing error: IdentityFlowError, guard guardName: String?) -> Reaction<Effect> {
        go(.discardingRegistration(PendingFailure(error: error)), guard: guardName, Effects(.discardRegistration(tokens)))
    }
}
