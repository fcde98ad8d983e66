/// What a client's flows are built from: the engine's environment, the identity service, the
/// profiles and session, the registration checkpoint. A client makes one and shares it by
/// reference; each flow sees it only through its own steps type (``RegistrationSteps``,
/// ``PinSteps``, ...), which names the calls that flow makes. Tests build one without a client.
final class FlowDependencies: Sendable {
    /// The configuration, transition log and flow slot every engine uses.
    let environment: FlowEnvironment
    /// The server.
    let service: any IdentityService
    /// The profiles, their store and the session.
    let sessions: ProfileSessions
    /// The browser registration's checkpoint.
    let checkpoints: RegistrationCheckpoints

    /// Dependencies over a service and a storage.
    /// - Parameters:
    ///   - environment: The configuration, transition log and flow slot.
    ///   - service: The server.
    ///   - storage: Where profiles, tokens and the checkpoint are kept.
    init(environment: FlowEnvironment, service: any IdentityService, storage: any SecureStorage) {
        self.environment = environment
        self.service = service
        self.sessions = ProfileSessions(
            store: ProfileStore(storage: storage, logger: environment.configuration.logger), configuration: environment.configuration)
        self.checkpoints = RegistrationCheckpoints(storage: storage, logger: environment.configuration.logger)
    }

    /// How the client behaves.
    var configuration: ClientConfiguration { environment.configuration }

    /// Where warnings go.
    var logger: IdentityFlowLogger { environment.configuration.logger }

    /// Whether the client keeps authenticators on the device (``AuthenticatorPlacement/device(maxPinFailures:)``).
    var keepsAuthenticatorsOnDevice: Bool { environment.configuration.authenticators.isOnDevice }
}
