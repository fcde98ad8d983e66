import Foundation
import Statechart
import IdentityFlow

/// Senders that record each answer as a line ("respond myapp://cb?code=1", "cancel", ...).
final class RecordingSender: BrowserRegistrationChallengeSender, ProviderLogoutChallengeSender, BiometricChallengeSender {
    let answers = Locked<[String]>([])

    private func record(_ answer: String) -> Bool {
        answers.withLock { $0.append(answer) }
        return true
    }

    func respond(with redirectURL: URL, to challenge: BrowserRegistrationChallenge) -> Bool { record("respond \(redirectURL.absoluteString)") }
    func cancel(_ challenge: BrowserRegistrationChallenge) -> Bool { record("cancel") }
    func respond(with redirectURL: URL, to challenge: ProviderLogoutChallenge) -> Bool { record("respond \(redirectURL.absoluteString)") }
    func cancel(_ challenge: ProviderLogoutChallenge) -> Bool { record("cancel") }
    func respond(to challenge: BiometricChallenge) -> Bool { record("confirm") }
    func respondWithPinFallback(to challenge: BiometricChallenge) -> Bool { record("pin fallback") }
    func reportFailure(for challenge: BiometricChallenge) -> Bool { record("failure") }
    func cancel(_ challenge: BiometricChallenge) -> Bool { record("cancel") }
}
