@_spi(Integrator) import IdentityFlow

/// Where a ``DemoScenario`` gets the answers a user would type: the PINs and the custom
/// registration data. The browser step needs none: the scenario plays the browser itself.
///
/// Return `nil` to cancel the challenge: the registration then ends with
/// `ErrorCode/actionCancelled`. Answers are never printed; the transcript shows `<redacted>`.
public protocol DemoAnswerSource: Sendable {
    /// The PIN to answer a `CreatePinChallenge` with.
    /// - Parameters:
    ///   - challenge: The challenge; `CreatePinChallenge/error` says why the last PIN was refused.
    ///   - registration: Which of the scenario's registrations asks.
    /// - Returns: The PIN, or `nil` to cancel.
    func pin(for challenge: CreatePinChallenge, in registration: DemoRegistration) async -> String?

    /// The data to answer a `CustomRegistrationChallenge` with (init or finish step).
    /// - Parameter challenge: The challenge; `CustomRegistrationChallenge/step` says which step,
    ///   `CustomRegistrationChallenge/error` why the last answer was refused.
    /// - Returns: The data (an empty string sends empty data), or `nil` to cancel.
    func customData(for challenge: CustomRegistrationChallenge) async -> String?
}

/// The answers of the non-interactive demo: a good PIN for the browser registration; for the
/// custom one first a PIN the policy refuses as a sequence (9012), then a good one.
///
/// ```swift
/// let report = await DemoScenario(answers: ScriptedDemoAnswers()).run { print($0) }
/// ```
public struct ScriptedDemoAnswers: DemoAnswerSource {
    /// The PIN chosen in the browser registration.
    public var browserPin: String
    /// The first PIN chosen in the custom registration; the default policy refuses it.
    public var refusedPin: String
    /// The PIN chosen after the refusal.
    public var customPin: String
    /// The data sent at the custom init step (an e-mail address, in the demo's story).
    public var initData: String
    /// The data sent at the custom finish step, one per attempt (the last one repeats).
    public var finishData: [String]

    /// Creates the answers; the defaults are the ones `identityflow demo` uses.
    /// - Parameters:
    ///   - browserPin: The browser registration's PIN.
    ///   - refusedPin: The custom registration's first PIN, meant to break the policy.
    ///   - customPin: The custom registration's PIN after the refusal.
    ///   - initData: The custom init step's data.
    ///   - finishData: The custom finish step's data, one per attempt.
    public init(
        browserPin: String = "24680",
        refusedPin: String = "56789",
        customPin: String = "31415",
        initData: String = "ada@example.com",
        finishData: [String] = ["code=482913", "code=190377"]
    ) {
        self.browserPin = browserPin
        self.refusedPin = refusedPin
        self.customPin = customPin
        self.initData = initData
        self.finishData = finishData
    }

    /// ``browserPin`` for the browser registration; ``refusedPin``, then ``customPin`` for the custom one.
    public func pin(for challenge: CreatePinChallenge, in registration: DemoRegistration) async -> String? {
        switch registration {
        case .browser: browserPin
        case .custom: challenge.error == nil ? refusedPin : customPin
        }
    }

    /// ``initData`` at the init step; the next of ``finishData`` at the finish step.
    public func customData(for challenge: CustomRegistrationChallenge) async -> String? {
        switch challenge.step {
        case .initialization:
            return initData
        case .finish:
            let attempt = challenge.error == nil ? 0 : 1
            return finishData.isEmpty ? "" : finishData[min(attempt, finishData.count - 1)]
        }
    }
}
