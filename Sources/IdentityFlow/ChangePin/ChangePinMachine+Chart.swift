import Statechart

extension ChangePinMachine {
    /// Every transition the PIN change machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "ChangePin",
        swiftType: "IdentityFlow.ChangePinMachine",
        initial: "idle",
        finals: ["changed", "failed"],
        transitions: [
            .init(from: "idle", on: "started", to: "fetchingPinStatus"),
            .init(from: "awaitingNewPin", on: "pinProvided", guard: "policySatisfied", to: "enrollingNewPin"),
            .init(from: "awaitingNewPin", on: "pinProvided", guard: "policyViolated", to: "awaitingNewPin"),
            .init(from: "enrollingNewPin", on: "pinEnrolled", to: "storingSession"),
            .init(from: "enrollingNewPin", on: "serviceFailed", to: "revokingTokens"),
            .init(from: "awaitingNewPin", on: "challengeAbandoned", to: "revokingTokens"),
            .init(from: "awaitingNewPin", on: "cancelRequested", to: "revokingTokens"),
            .init(from: "storingSession", on: "sessionStored", to: "changed"),
            .init(from: "storingSession", on: "serviceFailed", to: "failed"),
        ]
            + PinEntry.transitions(accepted: "awaitingNewPin")
            + PinEntry.endings(awaiting: ["awaitingPin"], busy: ["fetchingPinStatus"])
            + PinEntry.cancellingTransitions(verifying: ["verifyingPin"]),
        compounds: [PinEntry.compound(named: "enteringCurrentPin")])
}
