/// Runs the system's biometric check (`LAContext` on Apple platforms; a fake in the Linux tests).
package protocol BiometricEvaluator: Sendable {
    /// Asks for Face ID or Touch ID.
    /// - Parameters:
    ///   - reason: The sentence the prompt shows (Touch ID; Face ID shows the Info.plist's).
    ///   - fallbackTitle: The prompt's button for the PIN.
    /// - Returns: How the check ended.
    @MainActor func evaluate(reason: String, fallbackTitle: String) async -> BiometricAnswerOutcome
}

/// What `BiometricAnswerer` does with a challenge, on any ``BiometricEvaluator``: each outcome
/// of the system's check becomes the answer it stands for. Portable, so the Linux tests run it.
package struct BiometricChallengeAnswering<Evaluator: BiometricEvaluator>: Sendable {
    /// Runs the check.
    package let evaluator: Evaluator

    /// Creates the logic.
    /// - Parameter evaluator: Runs the check.
    package init(evaluator: Evaluator) { self.evaluator = evaluator }

    /// Runs the check and answers the challenge: confirmed answers it; the PIN button and every
    /// reason biometrics cannot be used now fall back to the PIN; a failed check reports the
    /// failure; a cancelled prompt cancels the flow.
    /// - Parameters:
    ///   - challenge: The challenge.
    ///   - reason: The prompt's sentence.
    ///   - fallbackTitle: The prompt's PIN button.
    /// - Returns: What was done, with the reason when biometrics could not be used.
    @MainActor
    @discardableResult
    package func answer(_ challenge: BiometricChallenge, reason: String, fallbackTitle: String) async -> BiometricAnswerOutcome {
        let outcome = await evaluator.evaluate(reason: reason, fallbackTitle: fallbackTitle)
        switch outcome {
        case .confirmed: challenge.sender.respond(to: challenge)
        case .pinChosen, .unavailable: challenge.sender.respondWithPinFallback(to: challenge)
        case .failed: challenge.sender.reportFailure(for: challenge)
        case .cancelled: challenge.sender.cancel(challenge)
        }
        return outcome
    }
}
