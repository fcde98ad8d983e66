import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The login, PIN change, biometric registration, logout and deregistration machines as plain values.
@Suite("PIN flow machines")
struct PinFlowMachineTests {
    static let profile = UserProfile(profileId: "P1")
    static let tokens = TokenSet(accessToken: "at", refreshToken: "rt")
    static let counters = PinCounters(maxFailureCount: 3, previousFailureCount: 1)
    static let key = ProvenPinKey.v2(Redacted([1, 2, 3]))
    static let network = IdentityFlowError(.networkConnectivityFailure)
    static let broken = IdentityFlowError(.invalidServerResponse)
    static let checks: [PinCheck] = [.accepted(tokens, key: key), .rejected(counters), .deregistered]
    static let abandonments: [ChallengeAbandonment] = [.cancelled, .released, .timedOut]
    static let proof = ProvenPin(tokens: tokens, key: key)

    /// The PIN loop child machine of these tests' profile, in `state`.
    static func loop(_ state: PinEntry.Machine<ProvenPin>.State, cancelsDuringCheck: Bool = true) -> PinEntry.Machine<ProvenPin> {
        PinEntry.Machine(profile: profile, cancelsDuringCheck: cancelsDuringCheck, state: state)
    }

    @Test("AuthenticationMachine follows its chart")
    func authentication() {
        typealias M = AuthenticationMachine
        let contexts =
            [Authenticator.pin, .biometric].flatMap { authenticator in
                [nil, UserProfile(profileId: "other")].map { M.Context(profile: Self.profile, authenticator: authenticator, previousProfile: $0) }
            } + [M.Context(profile: Self.profile, authenticator: .pin, previousProfile: nil, reusesSession: true)]
        ChartSweep<M>(
            variants: contexts.map { M(context: $0) },
            events: [
                .started, .previousUserLoggedOut, .biometricAnswered(.confirmed), .biometricAnswered(.pinFallback), .biometricAnswered(.failed),
                .pinStatusFetched(Self.counters), .pinProvided(Redacted("24680")), .sessionStored, .profileDeleted, .tokensRevoked,
                .serviceFailed(Self.network), .serviceFailed(Self.broken), .cancelRequested,
            ]
                + Self.checks.map(M.Event.pinChecked) + Self.abandonments.map(M.Event.challengeAbandoned)
        ).run()
    }

    @Test("ChangePinMachine follows its chart")
    func changePin() {
        typealias M = ChangePinMachine
        ChartSweep<M>(
            variants: [M(context: .init(profile: Self.profile, pinPolicy: PinPolicy()))],
            events: [
                .started, .pinStatusFetched(Self.counters), .pinProvided(Redacted("24680")), .pinProvided(Redacted("12345")), .pinEnrolled(.none),
                .sessionStored, .profileDeleted, .tokensRevoked, .serviceFailed(Self.network), .serviceFailed(Self.broken), .cancelRequested,
            ]
                + Self.checks.map(M.Event.pinChecked) + Self.abandonments.map(M.Event.challengeAbandoned)
        ).run()
    }

    @Test("AuthenticatorRegistrationMachine follows its chart")
    func authenticatorRegistration() {
        typealias M = AuthenticatorRegistrationMachine
        ChartSweep<M>(
            variants: [M(profile: Self.profile)],
            events: [
                .started, .pinStatusFetched(Self.counters), .pinProvided(Redacted("24680")), .authenticatorStored, .profileDeleted, .tokensRevoked,
                .serviceFailed(Self.network), .serviceFailed(Self.broken), .cancelRequested,
            ]
                + Self.checks.map(M.Event.pinChecked) + Self.abandonments.map(M.Event.challengeAbandoned)
        ).run()
    }

    @Test("LogoutMachine follows its chart")
    func logout() {
        ChartSweep<LogoutMachine>(
            variants: [LogoutMachine(tokens: Self.tokens)],
            events: [.started, .tokensRevoked, .serviceFailed(Self.network), .cancelRequested]
        ).run()
    }

    @Test("DeregistrationMachine follows its chart")
    func deregistration() {
        typealias M = DeregistrationMachine
        ChartSweep<M>(
            variants: [M(profile: Self.profile)],
            events: [.started, .serverDeregistered, .localDataDeleted, .serverFailed(Self.network), .serviceFailed(Self.network), .cancelRequested]
        ).run()
    }

    @Test("a wrong PIN carries invalidPin and the server's counters; a network error keeps the counters")
    func pinEntryRules() {
        var machine = AuthenticationMachine(
            context: .init(profile: Self.profile, authenticator: .pin, previousProfile: nil), state: .enteringPin(Self.loop(.verifyingPin(Self.counters))))
        let rejected = PinCounters(maxFailureCount: 3, previousFailureCount: 2)
        #expect(
            machine.handle(.pinChecked(.rejected(rejected)))?.effects
                == [.emitPinChallenge(rejected, error: IdentityFlowError(.invalidPin, "The PIN is wrong; 1 attempt(s) left."))])
        var retry = AuthenticationMachine(context: machine.context, state: .enteringPin(Self.loop(.verifyingPin(Self.counters))))
        #expect(retry.handle(.serviceFailed(Self.network))?.effects == [.emitPinChallenge(Self.counters, error: Self.network)])
    }

    @Test("the PIN machines' effects, compared by value: accepted PINs store the session or the key; lockout deletes the profile")
    func effectsByValue() {
        let accepted = PinCheck.accepted(Self.tokens, key: Self.key)
        var login = AuthenticationMachine(
            context: .init(profile: Self.profile, authenticator: .pin, previousProfile: nil), state: .enteringPin(Self.loop(.verifyingPin(Self.counters))))
        #expect(login.handle(.pinChecked(accepted))?.effects == [.storeSession(Self.tokens, pinKey: Self.key)])
        var registration = AuthenticatorRegistrationMachine(profile: Self.profile, state: .enteringPin(Self.loop(.verifyingPin(Self.counters))))
        #expect(registration.handle(.pinChecked(accepted))?.effects == [.storeAuthenticator(pinKey: Self.key, tokens: Self.tokens)])
        var change = ChangePinMachine(
            context: .init(profile: Self.profile, pinPolicy: PinPolicy()), state: .enteringCurrentPin(Self.loop(.verifyingPin(Self.counters))))
        #expect(change.handle(.pinChecked(.deregistered))?.effects == [.deleteProfile])
        var logout = LogoutMachine(tokens: Self.tokens)
        #expect(logout.handle(.started)?.effects == [.endLocalSession, .revokeTokens(Self.tokens)])
    }

    @Test("the shared PIN loop as a child machine value: each state's actions, guards and next state, whatever parent holds it")
    func pinLoopSteps() {
        typealias Loop = PinEntry.Machine<ProvenPin>
        /// The guard, action and next state of `event` in `state`; `nil` when not taken (the state then unchanged).
        func step(_ state: Loop.State, _ event: Loop.Event, cancelsDuringCheck: Bool = true) -> (String?, Loop.Action, Loop.State)? {
            var loop = Self.loop(state, cancelsDuringCheck: cancelsDuringCheck)
            guard let (guardName, action) = loop.handle(event) else {
                #expect(loop.state == state)
                return nil
            }
            return (guardName, action, loop.state)
        }
        let cancelled = Loop.Action.fail(ChallengeAbandonment.flowCancelled)
        // Fetching the counters: the first challenge shows a pending error; lockout deletes.
        #expect(step(.fetchingPinStatus(error: Self.broken), .statusFetched(Self.counters))?.1 == .ask(Self.counters, error: Self.broken))
        #expect(step(.fetchingPinStatus(error: Self.broken), .statusFetched(Self.counters))?.2 == .awaitingPin(Self.counters))
        #expect(step(.fetchingPinStatus(error: nil), .checked(.deregistered))?.0 == "deregistered")
        #expect(step(.fetchingPinStatus(error: nil), .checked(.deregistered))?.1 == .deleteProfile)
        #expect(step(.fetchingPinStatus(error: nil), .checked(.deregistered))?.2 == .deletingProfile)
        #expect(step(.fetchingPinStatus(error: nil), .checked(.rejected(Self.counters))) == nil)
        #expect(step(.fetchingPinStatus(error: nil), .cancelRequested)?.1 == cancelled)
        // Awaiting the PIN: an answer is verified with the counters shown; an abandonment fails.
        #expect(step(.awaitingPin(Self.counters), .provided(Redacted("24680")))?.1 == .verify(Redacted("24680")))
        #expect(step(.awaitingPin(Self.counters), .provided(Redacted("24680")))?.2 == .verifyingPin(Self.counters))
        #expect(step(.awaitingPin(Self.counters), .abandoned(.timedOut))?.1 == .fail(ChallengeAbandonment.timedOut.error))
        #expect(step(.awaitingPin(Self.counters), .checked(.deregistered)) == nil)
        // Verifying: network trouble asks again with the same counters; other failures end it;
        // a cancel waits for the check's outcome (or is not taken when a check is past cancelling).
        #expect(step(.verifyingPin(Self.counters), .serviceFailed(Self.network))?.0 == "recoverable")
        #expect(step(.verifyingPin(Self.counters), .serviceFailed(Self.network))?.1 == .ask(Self.counters, error: Self.network))
        #expect(step(.verifyingPin(Self.counters), .serviceFailed(Self.network))?.2 == .awaitingPin(Self.counters))
        #expect(step(.verifyingPin(Self.counters), .serviceFailed(Self.broken))?.1 == .fail(Self.broken))
        #expect(step(.verifyingPin(Self.counters), .checked(.accepted(Self.proof)))?.1 == .accepted(Self.proof))
        #expect(step(.verifyingPin(Self.counters), .cancelRequested)?.1 == .awaitCheck)
        #expect(step(.verifyingPin(Self.counters), .cancelRequested)?.2 == .cancelling)
        #expect(step(.verifyingPin(Self.counters), .cancelRequested, cancelsDuringCheck: false) == nil)
        // Cancelling: a session the check opened is handed back to be revoked; a wrong PIN just ends as cancelled.
        #expect(step(.cancelling, .checked(.accepted(Self.proof)))?.1 == .acceptedAfterCancel(Self.proof))
        #expect(step(.cancelling, .checked(.rejected(Self.counters)))?.0 == "rejected")
        #expect(step(.cancelling, .checked(.rejected(Self.counters)))?.1 == cancelled)
        #expect(step(.cancelling, .checked(.deregistered))?.1 == .deleteProfile)
        #expect(step(.cancelling, .provided(Redacted("24680"))) == nil)
        // Deleting the profile ends with userDeregistered for that profile.
        #expect(step(.deletingProfile, .profileDeleted)?.1 == .fail(PinEntry.deregisteredError(Self.profile)))
        #expect(step(.deletingProfile, .cancelRequested) == nil)
    }

    @Test("the parent's state is named by the PIN loop's leaf state, and the charts draw the loop as a compound state")
    func compoundNaming() {
        let login = AuthenticationMachine(
            context: .init(profile: Self.profile, authenticator: .pin, previousProfile: nil), state: .enteringPin(Self.loop(.awaitingPin(Self.counters))))
        #expect(AuthenticationMachine.name(of: login.state) == "awaitingPin")
        let change = ChangePinMachine(context: .init(profile: Self.profile, pinPolicy: PinPolicy()), state: .enteringCurrentPin(Self.loop(.cancelling)))
        #expect(ChangePinMachine.name(of: change.state) == "cancelling")
        #expect(AuthenticationMachine.chart.compound(holding: "verifyingPin")?.name == "enteringPin")
        #expect(ChangePinMachine.chart.compound(holding: "awaitingPin")?.name == "enteringCurrentPin")
        #expect(AuthenticatorRegistrationMachine.chart.compound(holding: "deletingProfile")?.name == "enteringPin")
        #expect(MobileAuthMachine.chart.compound(holding: "cancelling") == nil)
        #expect(MobileAuthMachine.chart.compound(holding: "verifyingPin")?.children == ["fetchingPinStatus", "awaitingPin", "verifyingPin", "deletingProfile"])
        #expect(AuthenticationMachine.chart.compound(holding: "verifyingBiometric") == nil)
    }
}
