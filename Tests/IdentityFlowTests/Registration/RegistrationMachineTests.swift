import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The registration machine as a plain value: no actor, no server, no await.
@Suite("RegistrationMachine")
struct RegistrationMachineTests {
    static let redirect = URL(string: "app://callback")!
    static let request = AuthorizationRequest(
        redirectURI: redirect, scopes: ["openid"], state: "s-1", nonce: "n-1", codeVerifier: String(repeating: "v", count: 43))
    static let profile = UserProfile(profileId: "P1")
    static let tokens = TokenSet(accessToken: "at", refreshToken: "rt")
    static let credentials = RegistrationMachine.Credentials(tokens: tokens, info: nil)
    static let browser = IdentityProvider(identifier: "web", name: "Web", kind: .browser)
    static let oneStep = IdentityProvider(identifier: "one", name: "One", kind: .custom(.oneStep))
    static let twoStep = IdentityProvider(identifier: "two", name: "Two", kind: .custom(.twoStep))
    static let sevenPass = IdentityProvider(identifier: "7pass", name: "7Pass", kind: .credentials)
    static let exchange = IdentityProvider(identifier: "google", name: "google", kind: .tokenExchange)

    static func machine(_ provider: IdentityProvider = browser, in state: RegistrationMachine.State = .idle, stateless: Bool = false) -> RegistrationMachine {
        let browserLike = [IdentityProvider.Kind.browser, .credentials, .tokenExchange].contains(provider.kind)
        var machine = RegistrationMachine(
            context: .init(
                profile: profile, provider: provider, authorization: browserLike ? request : nil, pinPolicy: PinPolicy(),
                deviceSecret: Redacted([1]), stateless: stateless,
                externalToken: provider.kind == .tokenExchange ? ExternalToken(provider: "google", token: "g") : nil))
        machine.force(state)
        return machine
    }

    static func answer(_ status: Int, tokens: TokenSet? = nil) -> RegistrationMachine.Event {
        .customAnswerReceived(CustomRegistrationAnswer(info: CustomInfo(status: status), session: "S", tokens: tokens))
    }

    static let events: [RegistrationMachine.Event] = [
        .started,
        .authorizationURLBuilt(URL(string: "https://idp/authorize")!),
        .checkpointSaved(URL(string: "https://idp/authorize")!),
        .resumed(authorizationURL: URL(string: "https://idp/authorize")!, redirect: nil),
        .resumed(authorizationURL: URL(string: "https://idp/authorize")!, redirect: URL(string: "app://callback?code=C&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?code=C&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?error=access_denied&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?code=C&state=other")!),
        .redirectReceived(URL(string: "other://callback?code=C&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?state=s-1")!),
        .redirectReceived(URL(string: "app://callback?status=partial&state_key=K&identifier=ada@example.com&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?action=login&status=success&tracking_id=T&session_id=Z")!),
        .partialDataProvided(Redacted(["email": "ada@example.com"])),
        .partialRegistrationAnswered(.registered(tokens)), .partialRegistrationAnswered(.refused(.userAlreadyExists)),
        .credentialsProvided(LoginCredentials(login: "ada", password: Redacted("pw"))), .intermediateRedirectIgnored,
        .credentialsAnswered(.granted(tokens)), .credentialsAnswered(.invalid), .credentialsAnswered(.interactionRequired(autologinToken: Redacted("al"))),
        .codeExchanged(tokens), .stepUpRefused(tokens, IdentityFlowError(.stepUpNotSatisfied)),
        .customDataProvided(Redacted("data")),
        answer(2000, tokens: tokens), answer(2000), answer(4001), answer(5001), answer(3000),
        .pinProvided(Redacted("24680")), .pinProvided(Redacted("12345")),
        .pinEnrolled, .profileStored, .registrationDiscarded,
        .serviceFailed(IdentityFlowError(.networkConnectivityFailure)),
        .challengeAbandoned(.cancelled), .challengeAbandoned(.released), .challengeAbandoned(.timedOut),
        .cancelRequested,
    ]

    @Test("follows its chart for every provider kind: declared transitions taken, the rest rejected")
    func followsChart() {
        ChartSweep<RegistrationMachine>(
            variants: [Self.browser, Self.oneStep, Self.twoStep, Self.sevenPass, Self.exchange].flatMap { provider in
                [false, true].map { Self.machine(provider, stateless: $0) }
            },
            events: Self.events
        ).run()
    }

    @Test("a stateless registration checkpoints its browser step, skips the PIN, and stores the session (in memory)")
    func statelessCheckpointsAndSkipsPin() {
        var machine = Self.machine(stateless: true)
        _ = machine.handle(.started)
        #expect(machine.handle(.authorizationURLBuilt(URL(string: "https://idp")!))?.effects == [.saveCheckpoint(URL(string: "https://idp")!)])
        _ = machine.handle(.checkpointSaved(URL(string: "https://idp")!))
        #expect(machine.state == .signingIn(.browser(.init(state: .awaitingBrowserRedirect))))
        _ = machine.handle(.redirectReceived(URL(string: "app://callback/?code=C&state=s-1")!))
        let stored = machine.handle(.codeExchanged(Self.tokens))
        #expect(stored?.guardName == "stateless")
        #expect(stored?.effects == [.storeProfile(Self.credentials)])
        #expect(machine.handle(.profileStored)?.effects == [.reportSuccess(info: nil)])
        var custom = Self.machine(
            Self.oneStep, in: .signingIn(.custom(.init(state: .sendingCustomFinishData(RegistrationMachine.CustomSession(id: nil))))), stateless: true)
        #expect(custom.handle(Self.answer(2000, tokens: Self.tokens))?.guardName == "statelessSuccess")
        #expect(RegistrationMachine.name(of: custom.state) == "storingProfile")
    }

    @Test("a step-up the ID token does not show discards the tokens, then fails with its error; also after a cancel")
    func stepUpRefused() {
        let refused = IdentityFlowError(.stepUpNotSatisfied)
        var machine = Self.machine(in: .signingIn(.browser(.init(state: .exchangingCode))))
        #expect(machine.handle(.stepUpRefused(Self.tokens, refused))?.effects == [.discardRegistration(Self.tokens)])
        #expect(machine.handle(.registrationDiscarded)?.effects == [.reportFailure(refused)])
        var cancelled = Self.machine(in: .cancelling)
        let reaction = cancelled.handle(.stepUpRefused(Self.tokens, refused))
        #expect(reaction?.guardName == "tokensIssued")
        #expect(reaction?.effects == [.discardRegistration(Self.tokens)])
        #expect(cancelled.handle(.registrationDiscarded)?.effects == [.reportFailure(ChallengeAbandonment.flowCancelled)])
    }

    @Test("a browser registration walks from start to registered with the effects in order")
    func browserHappyPath() {
        var machine = Self.machine()
        let page = URL(string: "https://idp")!
        #expect(machine.handle(.started)?.effects == [.reportStarted, .buildAuthorizationURL])
        #expect(machine.handle(.authorizationURLBuilt(page))?.effects == [.saveCheckpoint(page)])
        #expect(machine.handle(.checkpointSaved(page))?.effects == [.emitBrowserChallenge(page)])
        #expect(machine.handle(.redirectReceived(URL(string: "app://callback/?code=C&state=s-1")!))?.guardName == "authorized")
        #expect(machine.handle(.codeExchanged(Self.tokens))?.effects == [.emitCreatePinChallenge(error: nil)])
        #expect(machine.handle(.pinProvided(Redacted("13579")))?.guardName == "policyViolated")
        #expect(machine.handle(.pinProvided(Redacted("24680")))?.guardName == "policySatisfied")
        #expect(machine.handle(.pinEnrolled)?.effects == [.storeProfile(Self.credentials)])
        #expect(machine.handle(.profileStored)?.effects == [.reportSuccess(info: nil)])
        #expect(machine.state == .registered)
    }

    @Test("a resumed registration builds its authorization URL again and waits for the redirect, or takes the one handed over")
    func resumeEntry() {
        let authorize = URL(string: "https://idp/authorize")!
        let redirect = URL(string: "app://callback?code=C&state=s-1")!
        var waiting = Self.machine()
        #expect(waiting.handle(.resumed(authorizationURL: authorize, redirect: nil))?.effects == [.reportStarted, .buildAuthorizationURL])
        #expect(waiting.state == .signingIn(.browser(.init(state: .preparingAuthorization))))
        var handedOver = Self.machine()
        let reaction = handedOver.handle(.resumed(authorizationURL: authorize, redirect: redirect))
        #expect(reaction?.guardName == "redirectHandedOver")
        #expect(reaction?.effects == [.reportStarted, .deliverRedirect(redirect)])
        #expect(handedOver.handle(.redirectReceived(redirect))?.guardName == "authorized")
        var custom = Self.machine(Self.oneStep)
        #expect(custom.handle(.resumed(authorizationURL: authorize, redirect: nil)) == nil, "only a browser registration resumes")
    }

    @Test("a failure after tokens were issued discards them before reporting")
    func failureWithCredentialsDiscardsFirst() {
        var machine = Self.machine(in: .enrolling(.init(state: .awaitingPin(Self.credentials))))
        let reaction = machine.handle(.challengeAbandoned(.cancelled))
        #expect(reaction?.effects == [.discardRegistration(Self.tokens)])
        #expect(machine.handle(.registrationDiscarded)?.effects == [.reportFailure(ChallengeAbandonment.cancelled.error)])
        #expect(machine.state == .failed)
    }

    @Test("a finish answer of 2000 without tokens is an invalid answer")
    func successWithoutTokensIsInvalid() {
        var machine = Self.machine(Self.oneStep, in: .signingIn(.custom(.init(state: .sendingCustomFinishData(.init(id: nil))))))
        let reaction = machine.handle(Self.answer(2000))
        #expect(reaction?.guardName == "invalidAnswer")
        guard case .reportFailure(let error) = reaction?.effects.first else { Issue.record("no failure"); return }
        #expect(error.code == .invalidServerResponse)
    }
}

extension RegistrationMachine {
    /// Puts the machine in any state, for tests that start mid-flow.
    mutating func force(_ state: State) {
        self = RegistrationMachine(context: context, state: state)
    }
}
