import Statechart

extension ProviderLogoutMachine {
    /// Every transition the provider logout machine can take. `identityflow charts` draws it.
    package static let chart = Chart(
        name: "ProviderLogout",
        swiftType: "IdentityFlow.ProviderLogoutMachine",
        initial: "idle",
        finals: ["loggedOut", "loggedOutLocally"],
        transitions: [
            .init(from: "idle", on: "started", to: "preparingLogoutPage"),
            .init(from: "preparingLogoutPage", on: "logoutPageBuilt", to: "awaitingBrowserRedirect"),
            .init(from: "preparingLogoutPage", on: "logoutPageUnavailable", to: "revokingTokens"),
            .init(from: "preparingLogoutPage", on: "serviceFailed", to: "revokingTokens"),
            .init(from: "preparingLogoutPage", on: "cancelRequested", to: "revokingTokens"),
            .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "confirmed", to: "revokingTokens"),
            .init(from: "awaitingBrowserRedirect", on: "redirectReceived", guard: "refused", to: "revokingTokens"),
            .init(from: "awaitingBrowserRedirect", on: "challengeAbandoned", to: "revokingTokens"),
            .init(from: "awaitingBrowserRedirect", on: "cancelRequested", to: "revokingTokens"),
            .init(from: "revokingTokens", on: "revocationFinished", guard: "confirmed", to: "loggedOut"),
            .init(from: "revokingTokens", on: "revocationFinished", guard: "unconfirmed", to: "loggedOutLocally"),
        ])
}
