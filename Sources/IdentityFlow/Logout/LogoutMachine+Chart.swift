import Statechart

extension LogoutMachine {
    /// Every transition the logout machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "Logout",
        swiftType: "IdentityFlow.LogoutMachine",
        initial: "idle",
        finals: ["loggedOut", "loggedOutLocally"],
        transitions: [
            .init(from: "idle", on: "started", to: "revokingTokens"),
            .init(from: "revokingTokens", on: "tokensRevoked", to: "loggedOut"),
            .init(from: "revokingTokens", on: "serviceFailed", to: "loggedOutLocally"),
            .init(from: "revokingTokens", on: "cancelRequested", to: "loggedOutLocally"),
        ])
}
