/// The charts of every machine IdentityFlow runs, in the order `StateCharts/` lists them.
public enum FlowCharts {
    /// Every chart.
    public static let all: [Chart] = [
        RegistrationMachine.chart,
        AuthenticationMachine.chart,
        ChangePinMachine.chart,
        AuthenticatorRegistrationMachine.chart,
        LogoutMachine.chart,
        DeregistrationMachine.chart,
    ]
}
