import Statechart

extension MobileAuthMachine {
    /// Every transition the mobile authentication machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "MobileAuthentication",
        swiftType: "IdentityFlow.MobileAuthMachine",
        initial: "idle",
        finals: ["accepted", "denied", "failed"],
        transitions: [
            .init(from: "idle", on: "started", guard: "fetch", to: "fetchingRequest"),
            .init(from: "idle", on: "started", guard: "requestKnown", to: "awaitingConfirmation"),
            .init(from: "fetchingRequest", on: "requestFetched", to: "awaitingConfirmation"),
            .init(from: "fetchingRequest", on: "answerChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "awaitingConfirmation", on: "confirmationAnswered", guard: "denied", to: "sendingAnswer"),
            .init(from: "awaitingConfirmation", on: "confirmationAnswered", guard: "confirmation", to: "sendingAnswer"),
            .init(from: "awaitingConfirmation", on: "confirmationAnswered", guard: "biometric", to: "awaitingBiometric"),
            .init(from: "awaitingConfirmation", on: "confirmationAnswered", guard: "pin", to: "fetchingPinStatus"),
            .init(from: "sendingAnswer", on: "answerChecked", guard: "accepted", to: "accepted"),
            .init(from: "sendingAnswer", on: "answerChecked", guard: "denied", to: "denied"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "confirmed", to: "verifyingBiometric"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "pinFallback", to: "fetchingPinStatus"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "sensorFailed", to: "fetchingPinStatus"),
            .init(from: "verifyingBiometric", on: "answerChecked", guard: "handled", to: "accepted"),
            .init(from: "verifyingBiometric", on: "answerChecked", guard: "rejected", to: "awaitingPin"),
            .init(from: "verifyingBiometric", on: "answerChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "verifyingBiometric", on: "serviceFailed", guard: "recoverable", to: "fetchingPinStatus"),
            .init(from: "verifyingBiometric", on: "serviceFailed", guard: "unrecoverable", to: "failed"),
            .init(from: "fetchingPinStatus", on: "pinStatusFetched", to: "awaitingPin"),
            .init(from: "fetchingPinStatus", on: "answerChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "awaitingPin", on: "pinProvided", to: "verifyingPin"),
            .init(from: "verifyingPin", on: "answerChecked", guard: "handled", to: "accepted"),
            .init(from: "verifyingPin", on: "answerChecked", guard: "rejected", to: "awaitingPin"),
            .init(from: "verifyingPin", on: "answerChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "verifyingPin", on: "serviceFailed", guard: "recoverable", to: "awaitingPin"),
            .init(from: "verifyingPin", on: "serviceFailed", guard: "unrecoverable", to: "failed"),
            .init(from: "deletingProfile", on: "profileDeleted", to: "failed"),
        ]
            + ["fetchingRequest", "sendingAnswer", "fetchingPinStatus"].map { .init(from: $0, on: "serviceFailed", to: "failed") }
            + ["fetchingRequest", "awaitingConfirmation", "awaitingBiometric", "awaitingPin"].map { .init(from: $0, on: "requestExpired", to: "failed") }
            + ["awaitingConfirmation", "awaitingBiometric", "awaitingPin"].map { .init(from: $0, on: "challengeAbandoned", to: "failed") }
            + ["fetchingRequest", "awaitingConfirmation", "awaitingBiometric", "fetchingPinStatus", "awaitingPin"].map {
                .init(from: $0, on: "cancelRequested", to: "failed")
            },
        compounds: [PinEntry.compound(named: "enteringPin", cancellable: false)])
}
