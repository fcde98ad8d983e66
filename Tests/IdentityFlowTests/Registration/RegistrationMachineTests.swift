import Foundation
import Testing
@testable import IdentityFlow

/// The registration machine as a plain value: no actor, no server, no await.
@Suite("RegistrationMachine")
struct RegistrationMachineTests {
    static let redirect = URL(string: "app://callback")!
    static let request = AuthorizationRequest(redirectURI: redirect, scopes: ["openid"], state: "s-1", nonce: "n-1", codeVerifier: String(repeating: "v", count: 43))
    static let profile = UserProfile(profileId: "P1")
    static let tokens = TokenSet(accessToken: "at", refreshToken: "rt")
    static let credentials = RegistrationMachine.Credentials(tokens: tokens, info: nil)
    static let browser = IdentityProvider(identifier: "web", name: "Web", kind: .browser)
    static let oneStep = IdentityProvider(identifier: "one", name: "One", kind: .custom(.oneStep))
    static let twoStep = IdentityProvider(identifier: "two", name: "Two", kind: .custom(.twoStep))

    static func machine(_ provider: IdentityProvider = browser, in state: RegistrationMachine.State = .idle) -> RegistrationMachine {
        var machine = RegistrationMachine(context: .init(profile: profile, provider: provider, authorization: provider.kind == .browser ? request : nil, pinPolicy: PinPolicy()))
        machine.force(state)
        return machine
    }

    static func answer(_ status: Int, tokens: TokenSet? = nil) -> RegistrationMachine.Event {
        .customAnswerReceived(CustomRegistrationAnswer(info: CustomInfo(status: status), session: "S", tokens: tokens))
    }

    /// Handles one event and returns the chart transition it took.
    static func step(_ machine: inout RegistrationMachine, _ event: RegistrationMachine.Event) -> ChartTransition? {
        let source = RegistrationMachine.name(of: machine.state)
        guard let reaction = machine.handle(event) else { return nil }
        return ChartTransition(from: source, on: RegistrationMachine.name(of: event), guard: reaction.guardName, to: RegistrationMachine.name(of: machine.state))
    }

    /// One (provider, state, event) triple per declared transition.
    static let cases: [(IdentityProvider, RegistrationMachine.State, RegistrationMachine.Event)] = {
        let session = RegistrationMachine.CustomSession(id: "S")
        let failure = IdentityFlowError(.serverNotReachable)
        let states: [(IdentityProvider, RegistrationMachine.State)] = [
            (browser, .preparingAuthorization), (browser, .awaitingBrowserRedirect), (browser, .exchangingCode),
            (twoStep, .awaitingCustomInitData), (twoStep, .sendingCustomInitData),
            (oneStep, .awaitingCustomFinishData(session)), (oneStep, .sendingCustomFinishData(session)),
            (browser, .awaitingPin(credentials)), (browser, .enrollingPin(credentials)), (browser, .storingProfile(credentials)),
            (browser, .discardingRegistration(.init(error: failure))),
        ]
        var cases: [(IdentityProvider, RegistrationMachine.State, RegistrationMachine.Event)] = [
            (browser, .idle, .started), (oneStep, .idle, .started), (twoStep, .idle, .started),
        ]
        for (provider, state) in states {
            for event in events { cases.append((provider, state, event)) }
        }
        return cases
    }()

    static let events: [RegistrationMachine.Event] = [
        .started,
        .authorizationURLBuilt(URL(string: "https://idp/authorize")!),
        .redirectReceived(URL(string: "app://callback?code=C&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?error=access_denied&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?code=C&state=other")!),
        .redirectReceived(URL(string: "other://callback?code=C&state=s-1")!),
        .redirectReceived(URL(string: "app://callback?state=s-1")!),
        .codeExchanged(tokens),
        .customDataProvided(Redacted("data")),
        answer(2000, tokens: tokens), answer(2000), answer(4001), answer(5001), answer(3000),
        .pinProvided(Redacted("24680")), .pinProvided(Redacted("12345")),
        .pinEnrolled, .profileStored, .registrationDiscarded,
        .serviceFailed(IdentityFlowError(.networkConnectivityFailure)),
        .challengeAbandoned(.cancelled), .challengeAbandoned(.released), .challengeAbandoned(.timedOut),
        .cancelRequested,
    ]

    @Test("every transition the machine takes is declared, and every declared one is taken")
    func declaredTransitionsAreExactlyTheTakenOnes() {
        var taken: Set<ChartTransition> = []
        for (provider, state, event) in Self.cases {
            var machine = Self.machine(provider, in: state)
            if let transition = Self.step(&machine, event) {
                #expect(RegistrationMachine.chart.declares(transition), "undeclared: \(transition)")
                taken.insert(transition)
            }
        }
        let untaken = RegistrationMachine.chart.transitions.filter { !taken.contains($0) }
        #expect(untaken.isEmpty, "declared but never taken: \(untaken)")
    }

    @Test("undeclared state × event pairs are rejected and leave the state unchanged")
    func undeclaredPairsAreRejected() {
        var rejected = 0
        for (provider, state, event) in Self.cases {
            var machine = Self.machine(provider, in: state)
            let eventName = RegistrationMachine.name(of: event)
            let declared = RegistrationMachine.chart.transitions.contains { $0.source == RegistrationMachine.name(of: state) && $0.event == eventName }
            if !declared {
                #expect(machine.handle(event) == nil, "\(RegistrationMachine.name(of: state)) accepted \(eventName)")
                #expect(machine.state == state)
                rejected += 1
            }
        }
        #expect(rejected > 100)
    }

    @Test("final states accept nothing")
    func finalStatesAreFinal() {
        for final in [RegistrationMachine.State.registered, .failed] {
            for event in Self.events {
                var machine = Self.machine(in: final)
                #expect(machine.handle(event) == nil)
                #expect(machine.isFinished)
            }
        }
    }

    @Test("a browser registration walks from start to registered with the effects in order")
    func browserHappyPath() {
        var machine = Self.machine()
        #expect(machine.handle(.started)?.effects.map(RegistrationMachine.name(of:)) == ["reportStarted", "buildAuthorizationURL"])
        #expect(machine.handle(.authorizationURLBuilt(URL(string: "https://idp")!))?.effects.map(RegistrationMachine.name(of:)) == ["emitBrowserChallenge"])
        #expect(machine.handle(.redirectReceived(URL(string: "app://callback/?code=C&state=s-1")!))?.guardName == "authorized")
        #expect(machine.handle(.codeExchanged(Self.tokens))?.effects.map(RegistrationMachine.name(of:)) == ["emitCreatePinChallenge"])
        #expect(machine.handle(.pinProvided(Redacted("13579")))?.guardName == "policyViolated")
        #expect(machine.handle(.pinProvided(Redacted("24680")))?.guardName == "policySatisfied")
        #expect(machine.handle(.pinEnrolled) != nil)
        #expect(machine.handle(.profileStored)?.effects.map(RegistrationMachine.name(of:)) == ["reportSuccess"])
        #expect(machine.state == .registered)
    }

    @Test("a failure after tokens were issued discards them before reporting")
    func failureWithCredentialsDiscardsFirst() {
        var machine = Self.machine(in: .awaitingPin(Self.credentials))
        let reaction = machine.handle(.challengeAbandoned(.cancelled))
        #expect(reaction?.effects.map(RegistrationMachine.name(of:)) == ["discardRegistration"])
        #expect(machine.handle(.registrationDiscarded)?.effects.map(RegistrationMachine.name(of:)) == ["reportFailure"])
        #expect(machine.state == .failed)
    }

    @Test("a finish answer of 2000 without tokens is an invalid answer")
    func successWithoutTokensIsInvalid() {
        var machine = Self.machine(Self.oneStep, in: .sendingCustomFinishData(.init(id: nil)))
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
