import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

/// The registration's child machines on their own, as plain values: each sign-in variant and the
/// enrolment are fed events and their guards, steps and next states asserted by value, without
/// the parent. The parent's composition (naming, chart compounds, the hand-over between children)
/// is checked at the end.
@Suite("Registration machine: sign-in variants and the enrolment as child machines")
struct RegistrationCompositionTests {
    typealias Machine = RegistrationMachine
    typealias Step = Machine.SignInStep

    static let request = RegistrationMachineTests.request
    static let tokens = RegistrationMachineTests.tokens
    static let credentials = RegistrationMachineTests.credentials
    static let broken = IdentityFlowError(.serverNotReachable)
    static let cancelled = ChallengeAbandonment.flowCancelled
    static let page = URL(string: "https://idp/authorize")!
    static let partial = Machine.PartialSession(stateKey: Redacted("K"), identifier: "ada@example.com")

    static func answer(_ status: Int, tokens: TokenSet? = nil) -> CustomRegistrationAnswer {
        CustomRegistrationAnswer(info: CustomInfo(status: status), session: "S", tokens: tokens)
    }

    /// The guard, step and next state of `event` in a browser sign-in's `state`; `nil` when not
    /// taken (the state is then unchanged).
    static func browser(_ state: Machine.BrowserSignIn.State, _ event: Machine.Event) -> (String?, Step, Machine.BrowserSignIn.State)? {
        var machine = Machine.BrowserSignIn(state: state)
        guard let (guardName, step) = machine.handle(event, request: request) else {
            #expect(machine.state == state)
            return nil
        }
        return (guardName, step, machine.state)
    }

    static func custom(_ state: Machine.CustomSignIn.State, _ event: Machine.Event) -> (String?, Step, Machine.CustomSignIn.State)? {
        var machine = Machine.CustomSignIn(state: state)
        guard let (guardName, step) = machine.handle(event) else {
            #expect(machine.state == state)
            return nil
        }
        return (guardName, step, machine.state)
    }

    static func credentials(_ state: Machine.CredentialsSignIn.State, _ event: Machine.Event) -> (String?, Step, Machine.CredentialsSignIn.State)? {
        var machine = Machine.CredentialsSignIn(state: state)
        guard let (guardName, step) = machine.handle(event) else {
            #expect(machine.state == state)
            return nil
        }
        return (guardName, step, machine.state)
    }

    static func enrolment(_ state: Machine.Enrolment.State, _ event: Machine.Event) -> (String?, Machine.EnrolmentStep, Machine.Enrolment.State)? {
        var machine = Machine.Enrolment(state: state)
        guard let (guardName, step) = machine.handle(event, policy: PinPolicy()) else {
            #expect(machine.state == state)
            return nil
        }
        return (guardName, step, machine.state)
    }

    @Test("browser sign-in: URL, checkpoint, redirect, exchange; partial registration; a cancel awaits only calls that may issue tokens")
    func browserSignIn() {
        let code = URL(string: "app://callback?code=C&state=s-1")!
        #expect(Self.browser(.preparingAuthorization, .authorizationURLBuilt(Self.page))?.1 == .next([.saveCheckpoint(Self.page)]))
        #expect(Self.browser(.preparingAuthorization, .authorizationURLBuilt(Self.page))?.2 == .savingCheckpoint)
        #expect(Self.browser(.preparingAuthorization, .cancelRequested)?.1 == .fail(Self.cancelled))
        #expect(Self.browser(.savingCheckpoint, .checkpointSaved(Self.page))?.1 == .next([.emitBrowserChallenge(Self.page)]))
        #expect(Self.browser(.savingCheckpoint, .serviceFailed(Self.broken))?.1 == .fail(Self.broken))
        // The redirect: the code is exchanged with the response's issuer; a wrong state fails.
        #expect(Self.browser(.awaitingBrowserRedirect, .redirectReceived(code))?.0 == "authorized")
        #expect(Self.browser(.awaitingBrowserRedirect, .redirectReceived(code))?.1 == .next([.exchangeCode(Redacted("C"), issuer: nil)]))
        #expect(Self.browser(.awaitingBrowserRedirect, .redirectReceived(code))?.2 == .exchangingCode)
        let mismatch = Self.browser(.awaitingBrowserRedirect, .redirectReceived(URL(string: "app://callback?code=C&state=other")!))
        #expect(mismatch?.0 == "stateMismatch")
        guard case .fail(let error) = mismatch?.1 else {
            Issue.record("a wrong state did not fail")
            return
        }
        #expect(error.code != .actionCancelled)
        // Intermediate redirects are taken and change nothing; an abandoned challenge fails.
        #expect(Self.browser(.awaitingBrowserRedirect, .intermediateRedirectIgnored)?.1 == .next([]))
        #expect(Self.browser(.awaitingBrowserRedirect, .intermediateRedirectIgnored)?.2 == .awaitingBrowserRedirect)
        #expect(Self.browser(.awaitingBrowserRedirect, .challengeAbandoned(.timedOut))?.1 == .fail(ChallengeAbandonment.timedOut.error))
        #expect(Self.browser(.awaitingBrowserRedirect, .codeExchanged(Self.tokens)) == nil)
        // The exchange issues the tokens, or tokens a step-up refuses; a cancel awaits its outcome.
        #expect(Self.browser(.exchangingCode, .codeExchanged(Self.tokens))?.1 == .tokensIssued(Self.credentials))
        let stepUp = IdentityFlowError(.stepUpNotSatisfied)
        #expect(Self.browser(.exchangingCode, .stepUpRefused(Self.tokens, stepUp))?.1 == .refused(Self.tokens, stepUp))
        #expect(Self.browser(.exchangingCode, .cancelRequested)?.1 == .awaitOutcome)
        // Partial registration: the attributes are sent with the state key; a refusal asks again.
        let partial = URL(string: "app://callback?status=partial&state_key=K&identifier=ada@example.com&state=s-1")!
        #expect(Self.browser(.awaitingBrowserRedirect, .redirectReceived(partial))?.2 == .awaitingPartialRegistration(Self.partial))
        let attributes = Redacted(["email": "ada@example.com"])
        #expect(
            Self.browser(.awaitingPartialRegistration(Self.partial), .partialDataProvided(attributes))?.1
                == .next([.sendPartialRegistration(stateKey: Redacted("K"), attributes: attributes)]))
        #expect(Self.browser(.awaitingPartialRegistration(Self.partial), .cancelRequested)?.1 == .fail(Self.cancelled))
        let refused = Self.browser(.sendingPartialRegistration(Self.partial), .partialRegistrationAnswered(.refused(.userAlreadyExists)))
        #expect(refused?.0 == "refused")
        #expect(refused?.1 == .next([.emitPartialRegistrationChallenge(identifier: "ada@example.com", error: IdentityFlowError(.userAlreadyExists))]))
        #expect(refused?.2 == .awaitingPartialRegistration(Self.partial))
        #expect(
            Self.browser(.sendingPartialRegistration(Self.partial), .partialRegistrationAnswered(.registered(Self.tokens)))?.1
                == .tokensIssued(Self.credentials))
        #expect(Self.browser(.sendingPartialRegistration(Self.partial), .cancelRequested)?.1 == .awaitOutcome)
    }

    @Test("browser sign-in entries: a new sign-in, a resumed one (waiting or handed the redirect), one continued with an autologin token")
    func browserEntries() {
        #expect(Machine.BrowserSignIn.start() == (Machine.BrowserSignIn(state: .preparingAuthorization), .buildAuthorizationURL))
        #expect(Machine.BrowserSignIn.autologin(Redacted("al")) == (Machine.BrowserSignIn(state: .preparingAuthorization), .buildAutologinURL(Redacted("al"))))
        let redirect = URL(string: "app://callback?code=C&state=s-1")!
        let waiting = Machine.BrowserSignIn.resume(authorizationURL: Self.page, redirect: nil)
        #expect(waiting.0.state == .preparingAuthorization, "the URL is built anew: a pushed request expires")
        #expect(waiting.guardName == "awaitingRedirect")
        #expect(waiting.2 == .buildAuthorizationURL)
        let handedOver = Machine.BrowserSignIn.resume(authorizationURL: Self.page, redirect: redirect)
        #expect(handedOver.guardName == "redirectHandedOver")
        #expect(handedOver.2 == .deliverRedirect(redirect))
    }

    @Test("custom sign-in: one- and two-step, 2xxx moves on, 4xxx asks the same step again, 5xxx and other statuses fail")
    func customSignIn() {
        #expect(Machine.CustomSignIn.start(.oneStep).0.state == .awaitingCustomFinishData(Machine.CustomSession(id: nil)))
        #expect(Machine.CustomSignIn.start(.oneStep).guardName == "oneStepProvider")
        #expect(Machine.CustomSignIn.start(.twoStep).0.state == .awaitingCustomInitData)
        #expect(Machine.CustomSignIn.start(.twoStep).2 == .emitCustomRegistrationChallenge(.initialization, info: nil, error: nil))
        // Init: the answer's session opens the finish step, which is shown the answer.
        #expect(
            Self.custom(.awaitingCustomInitData, .customDataProvided(Redacted("d")))?.1
                == .next([.sendCustomData(.initialization, session: Redacted(nil), data: Redacted("d"))]))
        let opened = Self.custom(.sendingCustomInitData, .customAnswerReceived(Self.answer(2000)))
        #expect(opened?.0 == "success")
        #expect(opened?.1 == .next([.emitCustomRegistrationChallenge(.finish, info: CustomInfo(status: 2000), error: nil)]))
        #expect(opened?.2 == .awaitingCustomFinishData(Machine.CustomSession(id: "S")))
        let retry = Self.custom(.sendingCustomInitData, .customAnswerReceived(Self.answer(4001)))
        #expect(retry?.0 == "recoverable")
        #expect(retry?.2 == .awaitingCustomInitData)
        guard case .next(let effects) = retry?.1, case .emitCustomRegistrationChallenge(.initialization, _, let error?) = effects.first else {
            Issue.record("a 4xxx init answer did not ask again")
            return
        }
        #expect(error.code == .customRegistrationFailure)
        #expect(error.customInfo?.status == 4001)
        #expect(Self.custom(.sendingCustomInitData, .customAnswerReceived(Self.answer(5001)))?.0 == "unrecoverable")
        #expect(Self.custom(.sendingCustomInitData, .customAnswerReceived(Self.answer(3000)))?.0 == "invalidAnswer")
        // The init step issues nothing: a cancel fails at once.
        #expect(Self.custom(.sendingCustomInitData, .cancelRequested)?.1 == .fail(Self.cancelled))
        // Finish: the session goes with the data; success issues the tokens with the answer.
        let session = Machine.CustomSession(id: "S")
        #expect(
            Self.custom(.awaitingCustomFinishData(session), .customDataProvided(Redacted("d")))?.1
                == .next([.sendCustomData(.finish, session: Redacted("S"), data: Redacted("d"))]))
        let done = Self.custom(.sendingCustomFinishData(session), .customAnswerReceived(Self.answer(2000, tokens: Self.tokens)))
        #expect(done?.0 == "success")
        #expect(done?.1 == .tokensIssued(Machine.Credentials(tokens: Self.tokens, info: CustomInfo(status: 2000))))
        #expect(Self.custom(.sendingCustomFinishData(session), .customAnswerReceived(Self.answer(4002)))?.2 == .awaitingCustomFinishData(session))
        guard case .fail(let refusal) = Self.custom(.sendingCustomFinishData(session), .customAnswerReceived(Self.answer(5002)))?.1 else {
            Issue.record("a 5xxx finish answer did not fail")
            return
        }
        #expect(refusal.code == .customRegistrationFailure)
        #expect(refusal.customInfo?.status == 5002)
        #expect(Self.custom(.sendingCustomFinishData(session), .customAnswerReceived(Self.answer(2000)))?.0 == "invalidAnswer")
        #expect(Self.custom(.sendingCustomFinishData(session), .cancelRequested)?.1 == .awaitOutcome)
        #expect(Self.custom(.awaitingCustomFinishData(session), .customAnswerReceived(Self.answer(2000))) == nil)
    }

    @Test("credentials and token exchange: a wrong pair asks again, a refused token fails, interaction continues in the browser")
    func credentialsAndTokenExchange() {
        let login = LoginCredentials(login: "ada", password: Redacted("pw"))
        #expect(Machine.CredentialsSignIn.start() == (Machine.CredentialsSignIn(state: .awaitingCredentials), .emitCredentialsChallenge(error: nil)))
        #expect(Self.credentials(.awaitingCredentials, .credentialsProvided(login))?.1 == .next([.sendCredentials(login)]))
        #expect(Self.credentials(.awaitingCredentials, .credentialsProvided(login))?.2 == .sendingCredentials)
        #expect(Self.credentials(.awaitingCredentials, .cancelRequested)?.1 == .fail(Self.cancelled))
        #expect(Self.credentials(.sendingCredentials, .credentialsAnswered(.granted(Self.tokens)))?.1 == .tokensIssued(Self.credentials))
        let wrong = Self.credentials(.sendingCredentials, .credentialsAnswered(.invalid))
        #expect(wrong?.0 == "invalid")
        #expect(wrong?.1 == .next([.emitCredentialsChallenge(error: IdentityFlowError(.invalidCredentials))]))
        #expect(wrong?.2 == .awaitingCredentials)
        let interaction = Self.credentials(.sendingCredentials, .credentialsAnswered(.interactionRequired(autologinToken: Redacted("al"))))
        #expect(interaction?.0 == "interactionRequired")
        #expect(interaction?.1 == .continueInBrowser(autologinToken: Redacted("al")))
        #expect(Self.credentials(.sendingCredentials, .cancelRequested)?.1 == .awaitOutcome)
        #expect(Self.credentials(.awaitingCredentials, .credentialsAnswered(.invalid)) == nil)

        var exchange = Machine.TokenExchangeSignIn()
        #expect(Machine.TokenExchangeSignIn.start() == (exchange, .exchangeExternalToken))
        #expect(exchange.handle(.credentialsAnswered(.granted(Self.tokens)))?.step == .tokensIssued(Self.credentials))
        #expect(exchange.handle(.credentialsAnswered(.invalid))?.step == .fail(IdentityFlowError(.externalTokenRefused)))
        #expect(
            exchange.handle(.credentialsAnswered(.interactionRequired(autologinToken: Redacted("al"))))?.step
                == .continueInBrowser(autologinToken: Redacted("al")))
        #expect(exchange.handle(.cancelRequested)?.step == .awaitOutcome)
        #expect(exchange.handle(.serviceFailed(Self.broken))?.step == .fail(Self.broken))
        #expect(exchange.handle(.credentialsProvided(login)) == nil)
        #expect(exchange.chartStateName == "exchangingExternalToken")
    }

    @Test("enrolment: PIN policy loop, enrol, store; every failure discards the server-side registration; storing ignores a cancel")
    func enrolment() {
        let credentials = Self.credentials
        let violated = Self.enrolment(.awaitingPin(credentials), .pinProvided(Redacted("12345")))
        #expect(violated?.0 == "policyViolated")
        #expect(violated?.2 == .awaitingPin(credentials))
        guard case .next(let effects) = violated?.1, case .emitCreatePinChallenge(let error?) = effects.first else {
            Issue.record("a PIN against the policy was not asked again")
            return
        }
        #expect(error.code == .pinShouldNotBeASequence)
        let satisfied = Self.enrolment(.awaitingPin(credentials), .pinProvided(Redacted("24680")))
        #expect(satisfied?.0 == "policySatisfied")
        #expect(satisfied?.1 == .next([.enrolPin(Redacted("24680"), tokens: Self.tokens)]))
        #expect(satisfied?.2 == .enrollingPin(credentials))
        #expect(Self.enrolment(.enrollingPin(credentials), .pinEnrolled)?.1 == .next([.storeProfile(credentials)]))
        #expect(Self.enrolment(.enrollingPin(credentials), .pinEnrolled)?.2 == .storingProfile(credentials))
        let info = CustomInfo(status: 2001)
        let withInfo = Machine.Credentials(tokens: Self.tokens, info: info)
        #expect(Self.enrolment(.storingProfile(withInfo), .profileStored)?.1 == .registered(info: info))
        // Failures discard the server-side registration first.
        #expect(Self.enrolment(.awaitingPin(credentials), .challengeAbandoned(.released))?.1 == .discard(Self.tokens, ChallengeAbandonment.released.error))
        #expect(Self.enrolment(.awaitingPin(credentials), .cancelRequested)?.1 == .discard(Self.tokens, Self.cancelled))
        #expect(Self.enrolment(.enrollingPin(credentials), .serviceFailed(Self.broken))?.1 == .discard(Self.tokens, Self.broken))
        #expect(Self.enrolment(.enrollingPin(credentials), .cancelRequested)?.1 == .discard(Self.tokens, Self.cancelled))
        #expect(Self.enrolment(.storingProfile(credentials), .serviceFailed(Self.broken))?.1 == .discard(Self.tokens, Self.broken))
        #expect(Self.enrolment(.storingProfile(credentials), .cancelRequested) == nil)
        #expect(Self.enrolment(.awaitingPin(credentials), .pinEnrolled) == nil)
        // The entry: a PIN is asked, or (stateless) the session is stored under a derived guard.
        #expect(
            Machine.Enrolment.start(credentials, stateless: false, signInGuard: "success") == (
                .init(state: .awaitingPin(credentials)), "success", .emitCreatePinChallenge(error: nil)
            ))
        #expect(
            Machine.Enrolment.start(credentials, stateless: true, signInGuard: nil) == (
                .init(state: .storingProfile(credentials)), "stateless", .storeProfile(credentials)
            ))
        #expect(Machine.Enrolment.statelessGuard(after: "success") == "statelessSuccess")
    }

    @Test("the parent is named by its child's leaf state; each child's leaves are one compound of the chart")
    func composition() {
        let partial = RegistrationMachineTests.machine(in: .signingIn(.browser(.init(state: .awaitingPartialRegistration(Self.partial)))))
        #expect(Machine.name(of: partial.state) == "awaitingPartialRegistration")
        #expect(Machine.name(of: Machine.State.enrolling(.init(state: .enrollingPin(Self.credentials)))) == "enrollingPin")
        #expect(Machine.name(of: Machine.State.signingIn(.tokenExchange(.init()))) == "exchangingExternalToken")
        #expect(Machine.name(of: Machine.State.cancelling) == "cancelling")
        let signingIn =
            Machine.BrowserSignIn.leaves + Machine.CustomSignIn.leaves + Machine.CredentialsSignIn.leaves + Machine.TokenExchangeSignIn.leaves
        let compounds: [(String, [String])] = [
            ("signingIn", signingIn), ("browserSignIn", Machine.BrowserSignIn.leaves), ("customSignIn", Machine.CustomSignIn.leaves),
            ("credentialsSignIn", Machine.CredentialsSignIn.leaves), ("tokenExchangeSignIn", Machine.TokenExchangeSignIn.leaves),
            ("enrolling", Machine.Enrolment.leaves),
        ]
        #expect(Machine.chart.compounds.map(\.name) == compounds.map(\.0))
        for (name, leaves) in compounds {
            #expect(Machine.chart.compounds.first { $0.name == name }?.children == leaves)
        }
        // The variants nest in `signingIn`; a leaf's compound is the innermost one.
        for variant in ["browserSignIn", "customSignIn", "credentialsSignIn", "tokenExchangeSignIn"] {
            let compound = Machine.chart.compounds.first { $0.name == variant }
            #expect(compound.flatMap(Machine.chart.parent(of:))?.name == "signingIn")
        }
        #expect(Machine.chart.compound(holding: "sendingCustomInitData")?.name == "customSignIn")
        #expect(Machine.chart.compounds(holding: "exchangingCode").map(\.name) == ["signingIn", "browserSignIn"])
        #expect(Machine.chart.compounds.first { $0.name == "enrolling" }.flatMap(Machine.chart.parent(of:)) == nil)
        for shared in ["idle", "cancelling", "discardingRegistration", "registered", "failed"] {
            #expect(Machine.chart.compound(holding: shared) == nil, "\(shared) belongs to the parent")
        }
    }

    @Test("the parent hands over between children: interaction required continues in a browser sign-in; tokens start the enrolment")
    func handOver() {
        var machine = RegistrationMachineTests.machine(RegistrationMachineTests.sevenPass, in: .signingIn(.credentials(.init(state: .sendingCredentials))))
        let browser = machine.handle(.credentialsAnswered(.interactionRequired(autologinToken: Redacted("al"))))
        #expect(browser?.effects == [.buildAutologinURL(Redacted("al"))])
        #expect(machine.state == .signingIn(.browser(.init(state: .preparingAuthorization))))
        var custom = RegistrationMachineTests.machine(
            RegistrationMachineTests.oneStep, in: .signingIn(.custom(.init(state: .sendingCustomFinishData(Machine.CustomSession(id: nil))))))
        let enrolled = custom.handle(.customAnswerReceived(Self.answer(2000, tokens: Self.tokens)))
        #expect(enrolled?.guardName == "success")
        #expect(enrolled?.effects == [.emitCreatePinChallenge(error: nil)])
        #expect(custom.state == .enrolling(.init(state: .awaitingPin(Machine.Credentials(tokens: Self.tokens, info: CustomInfo(status: 2000))))))
        // A browser sign-in without a browser request (a custom provider's context) takes no redirect.
        let waiting = Machine.State.signingIn(.browser(.init(state: .awaitingBrowserRedirect)))
        var mismatched = RegistrationMachineTests.machine(RegistrationMachineTests.oneStep, in: waiting)
        #expect(mismatched.handle(.redirectReceived(URL(string: "app://callback?code=C&state=s-1")!)) == nil)
        #expect(mismatched.state == waiting)
    }

    @Test("the registration's state, stored per waiting flow, stays small: payloads are boxed")
    func stateStaysSmall() {
        // 33 bytes before the sign-in and enrolment children; the boxed partial session brought it to 17.
        #expect(MemoryLayout<Machine.State>.size <= 17)
        #expect(MemoryLayout<Machine.PartialSession>.size == MemoryLayout<Int>.size)
    }
}
