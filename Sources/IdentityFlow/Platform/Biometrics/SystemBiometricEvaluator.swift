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
        // The completion-handler form: Swift 6.3 crashes lowering the imported async form against
        // the iPhoneOS 16.5 SDK's Swift 5.8 concurrency interface.
        let evaluation: (confirmed: Bool, error: NSError?) = await withCheckedContinuation { continuation in
            context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) { confirmed, error in
                continuation.resume(returning: (confirmed, error.map { $0 as NSError }))
            }
        }
        if let error = evaluation.error { return BiometricAnswerOutcome(laErrorCode: error.code) }
        guard evaluation.confirmed else { return .failed }
        keychain?.authenticateNextBiometricKeyRead(with: context)
        return .confirmed
    }
}
#endif
