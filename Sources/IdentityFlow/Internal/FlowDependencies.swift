import Statechart

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
        let sessions = ProfileSessions(
            store: ProfileStore(storage: storage, logger: environment.configuration.logger), configuration: environment.configuration)
        self.sessions = sessions
        self.checkpoints = RegistrationCheckpoints(sessions: sessions)
    }

    /// How the client behaves.
    var configuration: ClientConfiguration { environment.configuration }

    /// Where warnings go.
    var logger: IdentityFlowLogger { environment.configuration.logger }

    /// Whether the client keeps authenticators on the device (``AuthenticatorPlacement/device(maxPinFailures:)``).
    var keepsAuthenticatorsOnDevice: Bool { environment.configuration.authenticators.isOnDevice }
}

/// What every flow's engine is built from: the configuration (clock, challenge timeout, logger,
/// wall-clock time), the transition log and the one flow slot. A client makes one and its flows
/// share it by reference, so an engine holds one word for all of it.
final class FlowEnvironment: Sendable {
    /// How the client behaves.
    let configuration: ClientConfiguration
    /// Where every transition is published.
    let transitionLog: TransitionLog
    private let slot = Locked(Slot())

    /// The running flow and the redirect it waits for, if any.
    private struct Slot: Sendable {
        var current: FlowSlot?
        /// The browser challenge of the running flow, for ``UserClient/handleRedirect(_:)``.
        var redirectWaiter: RedirectWaiter?
    }

    /// An environment with no flow running.
    /// - Parameters:
    ///   - configuration: How the client behaves.
    ///   - transitionLog: Where transitions are published.
    init(configuration: ClientConfiguration, transitionLog: TransitionLog) {
        self.configuration = configuration
        self.transitionLog = transitionLog
    }

    /// The logger of the configuration.
    var logger: IdentityFlowLogger { configuration.logger }

    /// The running flow's slot, if a flow runs.
    var currentFlow: FlowSlot? { slot.withLock { $0.current } }

    /// Reserves the slot for a new flow.
    /// - Returns: The slot, or `nil` when a flow runs already.
    func reserve() -> FlowSlot? {
        slot.withLock { slot in
            guard slot.current == nil else { return nil }
            let reserved = FlowSlot(id: .next())
            slot.current = reserved
            return reserved
        }
    }

    /// Marks flow `id` as past cancelling (see ``FlowEngine/commit()``).
    func commit(_ id: FlowID) { flow(id)?.commit() }

    /// Lets cancels count again for flow `id` (see ``FlowEngine/reopen()``).
    func reopen(_ id: FlowID) { flow(id)?.reopen() }

    /// Frees the slot of flow `id`, and the redirect it waited for; called right before its terminal callback.
    func end(_ id: FlowID) {
        slot.withLock { slot in
            if slot.current?.id == id { slot.current = nil }
            if slot.redirectWaiter?.flowID == id { slot.redirectWaiter = nil }
        }
    }

    /// Routes ``UserClient/handleRedirect(_:)`` to a flow's open browser challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) { slot.withLock { $0.redirectWaiter = waiter } }

    /// The browser challenge a flow of this client waits on, if any.
    var redirectWaiter: RedirectWaiter? { slot.withLock { $0.redirectWaiter } }

    private func flow(_ id: FlowID) -> FlowSlot? { slot.withLock { $0.current?.id == id ? $0.current : nil } }
}
