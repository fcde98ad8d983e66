#if canImport(LocalAuthentication) && canImport(Security)
import Foundation
import LocalAuthentication

/// ``BiometricEvaluator`` on `LAContext` (`deviceOwnerAuthenticationWithBiometrics`: biometrics
/// only, the passcode is not offered; the fallback button leads to the app's PIN). Compiled for
/// iOS by `scripts/check-ios.sh`; its logic runs in the Linux tests on a fake.
struct SystemBiometricEvaluator: BiometricEvaluator {
    /// Where the biometric key is read; it gets the confirmed context, so the user confirms once.
    let keychain: KeychainStorage?

    @MainActor
    func evaluate(reason: String, fallbackTitle: String) async -> BiometricAnswerOutcome {
        let context = LAContext()
        context.localizedFallbackTitle = fallbackTitle
        var availability: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &availability) else {
            return BiometricAnswerOutcome(laErrorCode: availability?.code ?? LAError.Code.biometryNotAvailable.rawValue)
        }
        do {
            guard try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) else { return .failed }
            keychain?.authenticateNextBiometricKeyRead(with: context)
            return .confirmed
        } catch let error as LAError {
            return BiometricAnswerOutcome(laErrorCode: error.code.rawValue)
        } catch {
            return BiometricAnswerOutcome(laErrorCode: (error as NSError).code)
        }
    }
}
#endif
