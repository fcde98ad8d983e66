import Statechart

/// The charts of every machine IdentityFlow runs, in the order `StateCharts/` lists them.
package enum FlowCharts {
    /// Every chart.
    package static let all: [Chart] = [
        RegistrationMachine.chart,
        AuthenticationMachine.chart,
        ChangePinMachine.chart,
        AuthenticatorRegistrationMachine.chart,
        LogoutMachine.chart,
        ProviderLogoutMachine.chart,
        DeregistrationMachine.chart,
        MobileAuthMachine.chart,
    ]
}
