import Foundation
@_spi(Integrator) import IdentityFlow

/// What a ``ScriptedResponder`` does with one challenge.
public enum ScriptAction<ChallengeType: Sendable, Answer: Sendable>: Sendable {
    /// Answers with a value.
    case respond(Answer)
    /// Answers with a value computed from the challenge (e.g. play the browser at its URL).
    case respondWith(@Sendable (ChallengeType) throws -> Answer)
    /// Answers, then answers again (the second answer must be refused).
    case respondTwice(Answer)
    /// Cancels through the sender.
    case cancel
    /// Lets go of the challenge without answering (the flow must end with `actionCancelled`).
    case drop
    /// Keeps the challenge unanswered in ``ScriptedResponder/heldChallenges`` for the test to use later.
    case hold
}

/// One expected challenge and what to do with it.
///
/// ```swift
/// let responder = ScriptedResponder([
///     .browserRegistration(.respondWith { try server.logIn(at: $0.url) }),
///     .createPin(.respond("12345")),
///     .createPin(.respond("24680"), expecting: .pinShouldNotBeASequence),
/// ])
/// ```
public struct ScriptStep: Sendable, CustomStringConvertible {
    /// The kind of challenge expected.
    public let kind: ChallengeKind
    /// The error code the challenge must carry; `nil` means it must carry none.
    public let expectedError: ErrorCode?
    let perform: @Sendable (Challenge, ScriptedResponder) throws -> String

    /// `createPin expecting 9012`.
    public var description: String {
        kind.rawValue + (expectedError.map { " expecting \($0)" } ?? "")
    }

    /// Expects a `BrowserRegistrationChallenge`.
    /// - Parameters:
    ///   - action: What to do.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func browserRegistration(_ action: ScriptAction<BrowserRegistrationChallenge, URL>, expecting error: ErrorCode? = nil) -> ScriptStep {
        ScriptStep(kind: .browserRegistration, expectedError: error) { challenge, responder in
            guard case .browserRegistration(let browser) = challenge else { return "" }
            return try responder.apply(
                action, to: browser, wrapped: challenge, answer: { browser.sender.respond(with: $0, to: browser) }, cancel: { browser.sender.cancel(browser) })
        }
    }

    /// Expects a `CustomRegistrationChallenge` at the init step.
    /// - Parameters:
    ///   - action: What to do.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func customRegistrationInit(_ action: ScriptAction<CustomRegistrationChallenge, String?>, expecting error: ErrorCode? = nil) -> ScriptStep {
        custom(.customRegistrationInit, action, error)
    }

    /// Expects a `CustomRegistrationChallenge` at the finish step.
    /// - Parameters:
    ///   - action: What to do.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func customRegistrationFinish(_ action: ScriptAction<CustomRegistrationChallenge, String?>, expecting error: ErrorCode? = nil) -> ScriptStep {
        custom(.customRegistrationFinish, action, error)
    }

    /// Expects a `CreatePinChallenge`.
    /// - Parameters:
    ///   - action: What to do.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func createPin(_ action: ScriptAction<CreatePinChallenge, String>, expecting error: ErrorCode? = nil) -> ScriptStep {
        ScriptStep(kind: .createPin, expectedError: error) { challenge, responder in
            guard case .createPin(let create) = challenge else { return "" }
            return try responder.apply(
                action, to: create, wrapped: challenge, answer: { create.sender.respond(with: $0, to: create) }, cancel: { create.sender.cancel(create) })
        }
    }

    /// Expects a `PinChallenge`.
    /// - Parameters:
    ///   - action: What to do.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func pin(_ action: ScriptAction<PinChallenge, String>, expecting error: ErrorCode? = nil) -> ScriptStep {
        ScriptStep(kind: .pin, expectedError: error) { challenge, responder in
            guard case .pin(let pin) = challenge else { return "" }
            return try responder.apply(
                action, to: pin, wrapped: challenge, answer: { pin.sender.respond(with: $0, to: pin) }, cancel: { pin.sender.cancel(pin) })
        }
    }

    /// Expects a `BiometricChallenge`.
    /// - Parameter action: What to do; the answer says what the sensor reports.
    /// - Returns: The step.
    public static func biometric(_ action: ScriptAction<BiometricChallenge, BiometricAnswer>) -> ScriptStep {
        ScriptStep(kind: .biometric, expectedError: nil) { challenge, responder in
            guard case .biometric(let biometric) = challenge else { return "" }
            return try responder.apply(
                action, to: biometric, wrapped: challenge,
                answer: { verdict in
                    switch verdict {
                    case .confirmed: biometric.sender.respond(to: biometric)
                    case .pinFallback: biometric.sender.respondWithPinFallback(to: biometric)
                    case .failed: biometric.sender.reportFailure(for: biometric)
                    }
                }, cancel: { biometric.sender.cancel(biometric) })
        }
    }

    /// Expects a `MobileAuthConfirmationChallenge`.
    /// - Parameter action: What to do; the answer is `true` to accept, `false` to deny.
    /// - Returns: The step.
    public static func mobileAuthConfirmation(_ action: ScriptAction<MobileAuthConfirmationChallenge, Bool>) -> ScriptStep {
        ScriptStep(kind: .mobileAuthConfirmation, expectedError: nil) { challenge, responder in
            guard case .mobileAuthConfirmation(let confirmation) = challenge else { return "" }
            return try responder.apply(
                action, to: confirmation, wrapped: challenge, answer: { confirmation.sender.respond(with: $0, to: confirmation) },
                cancel: { confirmation.sender.cancel(confirmation) })
        }
    }

    /// Expects a `CredentialsChallenge`.
    /// - Parameters:
    ///   - action: What to do; the answer is the login and the password.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func credentials(_ action: ScriptAction<CredentialsChallenge, (login: String, password: String)>, expecting error: ErrorCode? = nil)
        -> ScriptStep
    {
        ScriptStep(kind: .credentials, expectedError: error) { challenge, responder in
            guard case .credentials(let credentials) = challenge else { return "" }
            return try responder.apply(
                action, to: credentials, wrapped: challenge,
                answer: { credentials.sender.respond(withLogin: $0.login, password: $0.password, to: credentials) },
                cancel: { credentials.sender.cancel(credentials) })
        }
    }

    /// Expects a `PartialRegistrationChallenge`.
    /// - Parameters:
    ///   - action: What to do; the answer is the attributes.
    ///   - error: The error code it must carry (`nil`: none).
    /// - Returns: The step.
    public static func partialRegistration(_ action: ScriptAction<PartialRegistrationChallenge, [String: String]>, expecting error: ErrorCode? = nil)
        -> ScriptStep
    {
        ScriptStep(kind: .partialRegistration, expectedError: error) { challenge, responder in
            guard case .partialRegistration(let partial) = challenge else { return "" }
            return try responder.apply(
                action, to: partial, wrapped: challenge, answer: { partial.sender.respond(with: $0, to: partial) },
                cancel: { partial.sender.cancel(partial) })
        }
    }

    /// Expects a `ProviderLogoutChallenge`.
    /// - Parameter action: What to do; the answer is the redirect the provider's logout page sent
    ///   the browser to (``ReferenceIdentityService/logOut(at:error:)`` plays that page).
    /// - Returns: The step.
    public static func providerLogout(_ action: ScriptAction<ProviderLogoutChallenge, URL>) -> ScriptStep {
        ScriptStep(kind: .providerLogout, expectedError: nil) { challenge, responder in
            guard case .providerLogout(let logout) = challenge else { return "" }
            return try responder.apply(
                action, to: logout, wrapped: challenge, answer: { logout.sender.respond(with: $0, to: logout) },
                cancel: { logout.sender.cancel(logout) })
        }
    }

    private static func custom(_ kind: ChallengeKind, _ action: ScriptAction<CustomRegistrationChallenge, String?>, _ error: ErrorCode?) -> ScriptStep {
        ScriptStep(kind: kind, expectedError: error) { challenge, responder in
            guard case .customRegistration(let custom) = challenge else { return "" }
            return try responder.apply(
                action, to: custom, wrapped: challenge, answer: { custom.sender.respond(with: $0, to: custom) }, cancel: { custom.sender.cancel(custom) })
        }
    }
}

/// The kinds of challenge, as scripts name them.
public enum ChallengeKind: String, Sendable, Hashable, CaseIterable {
    /// `BrowserRegistrationChallenge`.
    case browserRegistration
    /// `CustomRegistrationChallenge` at the init step.
    case customRegistrationInit
    /// `CustomRegistrationChallenge` at the finish step.
    case customRegistrationFinish
    /// `CreatePinChallenge`.
    case createPin
    /// `PinChallenge`.
    case pin
    /// `BiometricChallenge`.
    case biometric
    /// `MobileAuthConfirmationChallenge`.
    case mobileAuthConfirmation
    /// `PartialRegistrationChallenge`.
    case partialRegistration
    /// `CredentialsChallenge`.
    case credentials
    /// `ProviderLogoutChallenge`.
    case providerLogout

    /// The kind of a challenge.
    /// - Parameter challenge: The challenge.
    public init(_ challenge: Challenge) {
        switch challenge {
        case .browserRegistration: self = .browserRegistration
        case .customRegistration(let custom): self = custom.step == .initialization ? .customRegistrationInit : .customRegistrationFinish
        case .createPin: self = .createPin
        case .pin: self = .pin
        case .biometric: self = .biometric
        case .mobileAuthConfirmation: self = .mobileAuthConfirmation
        case .partialRegistration: self = .partialRegistration
        case .credentials: self = .credentials
        case .providerLogout: self = .providerLogout
        }
    }
}
