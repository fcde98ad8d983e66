/// What `BiometricAnswerer` (Apple platforms) did with a ``BiometricChallenge``, after the
/// system's biometric check (`LAContext`).
public enum BiometricAnswerOutcome: Sendable, Hashable {
    /// Face ID or Touch ID confirmed the user: the challenge was answered, the login goes on.
    case confirmed
    /// The user chose to enter the PIN (the prompt's fallback button): a ``PinChallenge`` follows.
    case pinChosen
    /// The sensor did not recognise the user: a ``PinChallenge`` carrying
    /// ``ErrorCode/biometricAuthenticatorFailure`` follows.
    case failed
    /// Biometrics cannot be used now: a ``PinChallenge`` follows; show the user why.
    case unavailable(BiometricUnavailability)
    /// The user cancelled the prompt: the flow ends with ``ErrorCode/actionCancelled``.
    case cancelled

    /// The outcome of a failed check, from its `LAError` code (`LAError.Code.rawValue`).
    /// - Parameter laErrorCode: The code.
    package init(laErrorCode: Int) {
        switch laErrorCode {
        case -1: self = .failed  // authenticationFailed
        case -2: self = .cancelled  // userCancel
        case -3: self = .pinChosen  // userFallback
        case -4, -9: self = .unavailable(.interrupted)  // systemCancel, appCancel
        case -5: self = .unavailable(.passcodeNotSet)
        case -6: self = .unavailable(.notAvailable)  // biometryNotAvailable
        case -7: self = .unavailable(.notEnrolled)  // biometryNotEnrolled
        case -8: self = .unavailable(.lockedOut)  // biometryLockout
        default: self = .unavailable(.systemError(code: laErrorCode))  // invalidContext, notInteractive, ...
        }
    }
}

/// Why biometrics cannot be used now; the login falls back to the PIN.
public enum BiometricUnavailability: Sendable, Hashable {
    /// Too many failed attempts: the device passcode unlocks biometrics again (`biometryLockout`).
    case lockedOut
    /// No face or finger is enrolled (`biometryNotEnrolled`).
    case notEnrolled
    /// The device has no passcode, which biometrics need (`passcodeNotSet`).
    case passcodeNotSet
    /// The device has no biometric sensor, or the app may not use it (`biometryNotAvailable`:
    /// also a missing `NSFaceIDUsageDescription`, or the user said no to Face ID for the app).
    case notAvailable
    /// The system or the app ended the prompt (another app came forward: `systemCancel`, `appCancel`).
    case interrupted
    /// Any other `LAError` code (`invalidContext`, `notInteractive`, ...).
    case systemError(code: Int)
}
