#if canImport(LocalAuthentication) && canImport(Security)
import Foundation

/// Answers a ``BiometricChallenge`` with Face ID or Touch ID (`LAContext`).
///
/// Confirmed, the challenge is answered and the login reads the biometric key, which
/// ``KeychainStorage`` keeps behind a user-presence access control. The prompt's PIN button, and
/// every reason biometrics cannot be used now (locked out, nothing enrolled, no passcode, no
/// sensor, the prompt interrupted), fall back to the PIN: the outcome says which, for the host
/// to tell the user. A check that does not recognise the user reports the failure (a
/// ``PinChallenge`` with ``ErrorCode/biometricAuthenticatorFailure`` follows); cancelling the
/// prompt cancels the flow.
///
/// ```swift
/// let biometrics = BiometricAnswerer(reason: "Log in to Example", keychain: storage)
/// if case .biometric(let challenge) = challenge {
///     if case .unavailable(let why) = await biometrics.answer(challenge) { pinScreen.explain(why) }
/// }
/// ```
///
/// Add `NSFaceIDUsageDescription` to the Info.plist. Compiled for iOS 16 against the iPhoneOS
/// 16.5 SDK by `scripts/check-ios.sh`; its logic is tested on Linux. It has not run on an Apple
/// device.
@MainActor
public final class BiometricAnswerer {
    /// The logic, on `LAContext`.
    private let answering: BiometricChallengeAnswering<SystemBiometricEvaluator>
    /// The prompt's sentence.
    public let reason: String
    /// The prompt's button for the PIN.
    public let fallbackTitle: String

    /// Creates an answerer.
    /// - Parameters:
    ///   - reason: Why the app asks, shown by Touch ID (Face ID shows `NSFaceIDUsageDescription`).
    ///   - fallbackTitle: The prompt's button for the PIN.
    ///   - keychain: The client's ``KeychainStorage``: the biometric key is then read with the
    ///     context the user has just confirmed, so the system asks once, not twice.
    public init(reason: String, fallbackTitle: String = "Enter PIN", keychain: KeychainStorage? = nil) {
        self.reason = reason
        self.fallbackTitle = fallbackTitle
        answering = BiometricChallengeAnswering(evaluator: SystemBiometricEvaluator(keychain: keychain))
    }

    /// Runs the check and answers the challenge.
    /// - Parameter challenge: The challenge.
    /// - Returns: What was done; ``BiometricAnswerOutcome/unavailable(_:)`` says why the PIN is asked.
    @discardableResult
    public func answer(_ challenge: BiometricChallenge) async -> BiometricAnswerOutcome {
        await answering.answer(challenge, reason: reason, fallbackTitle: fallbackTitle)
    }
}
#endif
