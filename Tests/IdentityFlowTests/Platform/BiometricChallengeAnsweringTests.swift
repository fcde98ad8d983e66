import Foundation
import Testing
@testable import IdentityFlow
import IdentityFlowTesting

/// A biometric check that ends as told.
struct FakeBiometricEvaluator: BiometricEvaluator {
    let outcome: BiometricAnswerOutcome
    @MainActor func evaluate(reason: String, fallbackTitle: String) async -> BiometricAnswerOutcome { outcome }
}

/// `BiometricAnswerer`'s logic on a fake check, and the `LAError` codes it reads.
@Suite("Biometric answerer logic")
@MainActor
struct BiometricChallengeAnsweringTests {
    @Test(
        "Each outcome of the check gives its answer",
        arguments: [
            (BiometricAnswerOutcome.confirmed, "confirm"), (.pinChosen, "pin fallback"), (.failed, "failure"), (.cancelled, "cancel"),
            (.unavailable(.lockedOut), "pin fallback"), (.unavailable(.notEnrolled), "pin fallback"), (.unavailable(.passcodeNotSet), "pin fallback"),
        ])
    func answers(outcome: BiometricAnswerOutcome, answer: String) async {
        let sender = RecordingSender()
        let challenge = BiometricChallenge(userProfile: UserProfile(profileId: "p"), sender: sender)
        let done = await BiometricChallengeAnswering(evaluator: FakeBiometricEvaluator(outcome: outcome)).answer(challenge, reason: "r", fallbackTitle: "PIN")
        #expect(done == outcome)
        #expect(sender.answers.current == [answer])
    }

    @Test(
        "LAError codes (LocalAuthentication's LAPublicDefines.h) map to outcomes",
        arguments: [
            (-1, BiometricAnswerOutcome.failed), (-2, .cancelled), (-3, .pinChosen), (-4, .unavailable(.interrupted)), (-9, .unavailable(.interrupted)),
            (-5, .unavailable(.passcodeNotSet)), (-6, .unavailable(.notAvailable)), (-7, .unavailable(.notEnrolled)), (-8, .unavailable(.lockedOut)),
            (-10, .unavailable(.systemError(code: -10))), (-1004, .unavailable(.systemError(code: -1004))),
        ])
    func laErrorCodes(code: Int, outcome: BiometricAnswerOutcome) {
        #expect(BiometricAnswerOutcome(laErrorCode: code) == outcome)
    }

    @Test("A real login: the confirmed check logs in with biometrics, a locked-out sensor falls back to the PIN")
    func login() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        let profile = try await client.registerUser(
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        ).profile
        try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try await client.logout()
        let confirmed = BiometricChallengeAnswering(evaluator: FakeBiometricEvaluator(outcome: .confirmed))
        let viaBiometrics = try await client.authenticateUser(profile, authenticator: .biometric) { challenge in
            if case .biometric(let biometric) = challenge { await confirmed.answer(biometric, reason: "r", fallbackTitle: "PIN") } else { challenge.cancel() }
        }
        #expect(viaBiometrics.authenticator == .biometric)
        try await client.logout()
        let lockedOut = BiometricChallengeAnswering(evaluator: FakeBiometricEvaluator(outcome: .unavailable(.lockedOut)))
        let viaPin = try await client.authenticateUser(profile, authenticator: .biometric) { challenge in
            switch challenge {
            case .biometric(let biometric): await lockedOut.answer(biometric, reason: "r", fallbackTitle: "PIN")
            case .pin(let pin): pin.sender.respond(with: "24680", to: pin)
            default: challenge.cancel()
            }
        }
        #expect(viaPin.authenticator == .pin)
    }
}
