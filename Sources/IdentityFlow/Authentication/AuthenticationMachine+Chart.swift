import Statechart

extension AuthenticationMachine {
    /// Every transition the login machine can take. `identityflow charts` draws it; the PIN loop
    /// (``PinEntry/Machine``, held as `enteringPin`) is its compound state.
    package static let chart = Chart(
        name: "Authentication",
        swiftType: "IdentityFlow.AuthenticationMachine",
        initial: "idle",
        finals: ["authenticated", "failed"],
        transitions: [
            .init(from: "idle", on: "started", guard: "validSession", to: "authenticated"),
            .init(from: "idle", on: "started", guard: "otherUserLoggedIn", to: "loggingOutPreviousUser"),
            .init(from: "idle", on: "started", guard: "pin", to: "fetchingPinStatus"),
            .init(from: "idle", on: "started", guard: "biometric", to: "awaitingBiometric"),
            .init(from: "loggingOutPreviousUser", on: "previousUserLoggedOut", guard: "pin", to: "fetchingPinStatus"),
            .init(from: "loggingOutPreviousUser", on: "previousUserLoggedOut", guard: "biometric", to: "awaitingBiometric"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "confirmed", to: "verifyingBiometric"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "pinFallback", to: "fetchingPinStatus"),
            .init(from: "awaitingBiometric", on: "biometricAnswered", guard: "sensorFailed", to: "fetchingPinStatus"),
            .init(from: "verifyingBiometric", on: "pinChecked", guard: "accepted", to: "storingSession"),
            .init(from: "verifyingBiometric", on: "pinChecked", guard: "rejected", to: "awaitingPin"),
            .init(from: "verifyingBiometric", on: "pinChecked", guard: "deregistered", to: "deletingProfile"),
            .init(from: "verifyingBiometric", on: "serviceFailed", to: "fetchingPinStatus"),
            .init(from: "storingSession", on: "sessionStored", to: "authenticated"),
            .init(from: "storingSession", on: "serviceFailed", to: "failed"),
        ]
            + PinEntry.transitions(accepted: "storingSession")
            + PinEntry.endings(
                awaiting: ["awaitingBiometric", "awaitingPin"],
                busy: ["loggingOutPreviousUser", "fetchingPinStatus"])
            + PinEntry.cancellingTransitions(verifying: ["verifyingBiometric", "verifyingPin"]),
        compounds: [PinEntry.compound(named: "enteringPin")])
}
