import Statechart

extension AuthenticatorRegistrationMachine {
    /// Every transition the biometric registration machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "AuthenticatorRegistration",
        swiftType: "IdentityFlow.AuthenticatorRegistrationMachine",
        initial: "idle",
        finals: ["registered", "failed"],
        transitions: [
            .init(from: "idle", on: "started", to: "fetchingPinStatus"),
            .init(from: "storingAuthenticator", on: "authenticatorStored", to: "registered"),
            .init(from: "storingAuthenticator", on: "serviceFailed", to: "failed"),
        ]
            + PinEntry.transitions(accepted: "storingAuthenticator")
            + PinEntry.endings(awaiting: ["awaitingPin"], busy: ["fetchingPinStatus"])
            + PinEntry.cancellingTransitions(verifying: ["verifyingPin"]),
        compounds: [PinEntry.compound(named: "enteringPin")])
}
