import Statechart

extension DeregistrationMachine {
    /// Every transition the deregistration machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "Deregistration",
        swiftType: "IdentityFlow.DeregistrationMachine",
        initial: "idle",
        finals: ["deregistered", "deregisteredLocally", "failed"],
        transitions: [
            .init(from: "idle", on: "started", to: "deregisteringOnServer"),
            .init(from: "deregisteringOnServer", on: "serverDeregistered", to: "deletingLocalData"),
            .init(from: "deregisteringOnServer", on: "serverFailed", to: "deletingLocalData"),
            .init(from: "deregisteringOnServer", on: "cancelRequested", to: "deletingLocalData"),
            .init(from: "deletingLocalData", on: "localDataDeleted", guard: "serverConfirmed", to: "deregistered"),
            .init(from: "deletingLocalData", on: "localDataDeleted", guard: "localOnly", to: "deregisteredLocally"),
            .init(from: "deletingLocalData", on: "serviceFailed", to: "failed"),
        ])
}
