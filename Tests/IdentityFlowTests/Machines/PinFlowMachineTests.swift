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
            context: .init(profile: Self.profile, authenticator: .pin, previousProfile: nil), state: .verifyingPin(.init(counters: Self.counters)))
        let rejected = PinCounters(maxFailureCount: 3, previousFailureCount: 2)
        #expect(
            machine.handle(.pinChecked(.rejected(rejected)))?.effects
                == [.emitPinChallenge(rejected, error: IdentityFlowError(.invalidPin, "The PIN is wrong; 1 attempt(s) left."))])
        var retry = AuthenticationMachine(context: machine.context, state: .verifyingPin(.init(counters: Self.counters)))
        #expect(retry.handle(.serviceFailed(Self.network))?.effects == [.emitPinChallenge(Self.counters, error: Self.network)])
    }

    @Test("the PIN machines' effects, compared by value: accepted PINs store the session or the key; lockout deletes the profile")
    func effectsByValue() {
        let accepted = PinCheck.accepted(Self.tokens, key: Self.key)
        var login = AuthenticationMachine(
            context: .init(profile: Self.profile, authenticator: .pin, previousProfile: nil), state: .verifyingPin(.init(counters: Self.counters)))
        #expect(login.handle(.pinChecked(accepted))?.effects == [.storeSession(Self.tokens, pinKey: Self.key)])
        var registration = AuthenticatorRegistrationMachine(profile: Self.profile, state: .verifyingPin(Self.counters))
        #expect(registration.handle(.pinChecked(accepted))?.effects == [.storeAuthenticator(pinKey: Self.key, tokens: Self.tokens)])
        var change = ChangePinMachine(context: .init(profile: Self.profile, pinPolicy: PinPolicy()), state: .verifyingCurrentPin(Self.counters))
        #expect(change.handle(.pinChecked(.deregistered))?.effects == [.deleteProfile])
        var logout = LogoutMachine(tokens: Self.tokens)
        #expect(logout.handle(.started)?.effects == [.endLocalSession, .revokeTokens(Self.tokens)])
    }

    @Test("the shared PIN loop as a value: each phase's steps and guards, whatever machine asks")
    func pinLoopSteps() {
        func step(_ phase: PinEntry.Phase, _ input: PinEntry.Input) -> (String?, PinEntry.Step)? {
            PinEntry.step(in: phase, on: input, profile: Self.profile).map { ($0.guardName, $0.step) }
        }
        let cancelled = PinEntry.Step.fail(ChallengeAbandonment.flowCancelled)
        // Fetching the counters: the first challenge shows a pending error; lockout deletes.
        #expect(step(.fetchingStatus(error: Self.broken), .statusFetched(Self.counters))?.1 == .ask(Self.counters, error: Self.broken))
        #expect(step(.fetchingStatus(error: nil), .checked(.deregistered))?.0 == "deregistered")
        #expect(step(.fetchingStatus(error: nil), .checked(.deregistered))?.1 == .deleteProfile)
        #expect(step(.fetchingStatus(error: nil), .checked(.rejected(Self.counters))) == nil)
        #expect(step(.fetchingStatus(error: nil), .cancelRequested)?.1 == cancelled)
        // Awaiting the PIN: an answer is verified with the counters shown; an abandonment fails.
        #expect(step(.awaiting(Self.counters), .provided(Redacted("24680")))?.1 == .verify(Redacted("24680"), Self.counters))
        #expect(step(.awaiting(Self.counters), .abandoned(.timedOut))?.1 == .fail(ChallengeAbandonment.timedOut.error))
        #expect(step(.awaiting(Self.counters), .checked(.deregistered)) == nil)
        // Verifying: network trouble asks again with the same counters; other failures end it;
        // a cancel waits for the check's outcome.
        #expect(step(.verifying(Self.counters), .serviceFailed(Self.network))?.0 == "recoverable")
        #expect(step(.verifying(Self.counters), .serviceFailed(Self.network))?.1 == .ask(Self.counters, error: Self.network))
        #expect(step(.verifying(Self.counters), .serviceFailed(Self.broken))?.1 == .fail(Self.broken))
        #expect(step(.verifying(Self.counters), .checked(.accepted(Self.tokens, key: Self.key)))?.1 == .accepted(Self.tokens, key: Self.key))
        #expect(step(.verifying(Self.counters), .cancelRequested)?.1 == .awaitCheck)
        // Cancelling: a session the check opened is revoked; a wrong PIN just ends as cancelled.
        #expect(step(.cancelling, .checked(.accepted(Self.tokens, key: Self.key)))?.1 == .revoke(Self.tokens))
        #expect(step(.cancelling, .checked(.rejected(Self.counters)))?.0 == "rejected")
        #expect(step(.cancelling, .checked(.rejected(Self.counters)))?.1 == cancelled)
        #expect(step(.cancelling, .checked(.deregistered))?.1 == .deleteProfile)
        #expect(step(.cancelling, .provided(Redacted("24680"))) == nil)
        // Deleting the profile ends with userDeregistered for that profile.
        #expect(step(.deletingProfile, .profileDeleted)?.1 == .fail(PinEntry.deregisteredError(Self.profile)))
        #expect(step(.deletingProfile, .cancelRequested) == nil)
    }
}
