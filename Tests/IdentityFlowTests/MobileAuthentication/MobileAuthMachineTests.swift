import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The mobile authentication machine as a plain value: its chart, and its effects compared by value.
@Suite("MobileAuthMachine")
struct MobileAuthMachineTests {
    typealias M = MobileAuthMachine
    static let profile = UserProfile(profileId: "P1")
    static let counters = PinCounters(maxFailureCount: 3, previousFailureCount: 1)
    static let network = IdentityFlowError(.networkConnectivityFailure)
    static let broken = IdentityFlowError(.invalidServerResponse)

    static func request(_ type: MobileAuthType) -> MobileAuthRequest {
        MobileAuthRequest(
            id: "R1", userProfile: profile, message: "Pay?", type: type, expiresAt: Date(timeIntervalSince1970: 1_000), nonce: Array(repeating: 7, count: 32))
    }

    /// The PIN loop child machine the flow holds (a check is past cancelling), in `state`.
    static func loop(_ state: PinEntry.Machine<MobileAuthRequest>.State) -> PinEntry.Machine<MobileAuthRequest> {
        PinEntry.Machine(profile: profile, cancelsDuringCheck: false, state: state)
    }

    static func machine(_ type: MobileAuthType?, biometrics: Bool = false, in state: M.State = .idle) -> M {
        M(context: .init(profile: profile, request: type.map(request), hasBiometrics: biometrics), state: state)
    }

    @Test("follows its chart for every request type, with and without biometrics")
    func followsChart() {
        ChartSweep<M>(
            variants: [nil, .confirmation, .pin, .biometric].flatMap { type in [false, true].map { Self.machine(type, biometrics: $0) } },
            events: [
                .started, .requestFetched(Self.request(.pin)), .confirmationAnswered(true), .confirmationAnswered(false),
                .biometricAnswered(.confirmed), .biometricAnswered(.pinFallback), .biometricAnswered(.failed),
                .pinStatusFetched(Self.counters), .pinProvided(Redacted("24680")),
                .answerChecked(.handled), .answerChecked(.rejected(failureCount: 2, maxFailureCount: 3)), .answerChecked(.deregistered),
                .profileDeleted, .requestExpired, .serviceFailed(Self.network), .serviceFailed(Self.broken),
                .challengeAbandoned(.cancelled), .challengeAbandoned(.released), .challengeAbandoned(.timedOut), .cancelRequested,
            ]
        ).run()
    }

    @Test("a pushed PIN request: fetch, confirm, PIN, a wrong one, the right one")
    func pinRequestEffects() {
        var machine = Self.machine(nil)
        let request = Self.request(.pin)
        #expect(machine.handle(.started)?.effects == [.fetchRequest])
        #expect(machine.handle(.requestFetched(request))?.effects == [.emitConfirmationChallenge(request)])
        #expect(machine.handle(.confirmationAnswered(true))?.effects == [.fetchPinStatus])
        #expect(machine.handle(.pinStatusFetched(Self.counters))?.effects == [.emitPinChallenge(request, Self.counters, error: nil)])
        #expect(machine.handle(.pinProvided(Redacted("11111")))?.effects == [.sendPinAnswer(request, Redacted("11111"))])
        let rejected = machine.handle(.answerChecked(.rejected(failureCount: 2, maxFailureCount: 3)))
        let after = PinCounters(maxFailureCount: 3, previousFailureCount: 2)
        #expect(rejected?.effects == [.emitPinChallenge(request, after, error: IdentityFlowError(.invalidPin, "The PIN is wrong; 1 attempt(s) left."))])
        #expect(machine.handle(.pinProvided(Redacted("24680")))?.effects == [.sendPinAnswer(request, Redacted("24680"))])
        #expect(machine.handle(.answerChecked(.handled))?.effects == [.reportHandled(MobileAuthResult(request: request, accepted: true, authenticator: .pin))])
        #expect(machine.state == .accepted)
    }

    @Test("a denial is sent and reported as denied, whatever the request's type")
    func denial() {
        var machine = Self.machine(.biometric, biometrics: true)
        #expect(machine.handle(.started)?.effects == [.emitConfirmationChallenge(Self.request(.biometric))])
        #expect(machine.handle(.confirmationAnswered(false))?.effects == [.sendAnswer(Self.request(.biometric), accepted: false)])
        #expect(
            machine.handle(.answerChecked(.handled))?.effects == [
                .reportHandled(MobileAuthResult(request: Self.request(.biometric), accepted: false, authenticator: nil))
            ])
        #expect(machine.state == .denied)
    }

    @Test("a biometric step-up falls back to the PIN with 9030 when the sensor or the key fails")
    func biometricFallback() {
        var machine = Self.machine(.biometric, biometrics: true, in: .awaitingBiometric)
        #expect(machine.handle(.biometricAnswered(.failed))?.effects == [.fetchPinStatus])
        #expect(
            machine.handle(.pinStatusFetched(Self.counters))?.effects
                == [.emitPinChallenge(Self.request(.biometric), Self.counters, error: IdentityFlowError(.biometricAuthenticatorFailure))])
        var rejected = Self.machine(.biometric, biometrics: true, in: .verifyingBiometric)
        #expect(
            rejected.handle(.answerChecked(.rejected(failureCount: 1, maxFailureCount: 3)))?.effects
                == [
                    .emitPinChallenge(
                        Self.request(.biometric), PinCounters(maxFailureCount: 3, previousFailureCount: 1),
                        error: IdentityFlowError(.biometricAuthenticatorFailure))
                ])
    }

    @Test("expiry while a challenge waits fails with 11015; while an answer travels it is the server's to say")
    func expiry() {
        for state in [M.State.awaitingConfirmation, .awaitingBiometric, .enteringPin(Self.loop(.awaitingPin(Self.counters)))] {
            var machine = Self.machine(.pin, in: state)
            let expired = IdentityFlowError(.mobileAuthRequestExpired, "The request expired before it was answered; nothing was confirmed.")
            #expect(machine.handle(.requestExpired)?.effects == [.reportFailure(expired)])
        }
        var sending = Self.machine(.pin, in: .enteringPin(Self.loop(.verifyingPin(Self.counters))))
        #expect(sending.handle(.requestExpired) == nil && sending.handle(.cancelRequested) == nil)
    }
}
