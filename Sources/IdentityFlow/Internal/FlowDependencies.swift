import Statechart

/// What a client and its flows are built from: the configuration, the transition log, the
/// identity service, the profile store, and the client's state under one lock (the flow slot, the
/// profiles and session, the checkpoint's marks). A client makes one and shares it by reference.
///
/// Nothing reaches it whole but the client: each part sees it through a one-word view that names
/// what that part does. The engine gets ``FlowEnvironment`` (configuration, transition log, flow
/// slot), each performer its steps type (``RegistrationSteps``, ``PinSteps``, ...), which reach
/// the profiles through ``ProfileSessions``, the checkpoint through ``RegistrationCheckpoints`` and
/// the PIN and biometric steps through ``AuthenticatorHome`` (`AuthenticatorHome.swift`).
/// Views over one object keep an idle client and a waiting flow as small as before the split
/// (bench rows e and e2). Tests build one without a client.
final class FlowDependencies: Sendable {
    /// How the client behaves.
    let configuration: ClientConfiguration
    /// Where every transition is published.
    let transitionLog: TransitionLog
    /// The server.
    let service: any IdentityService
    /// Where profiles and the checkpoint are stored.
    let store: ProfileStore
    /// The client's state; each view reads and changes its own part.
    let state = Locked(State())
    /// Held across each write of a profile's token set (the check of its session, the storage
    /// write, the cache's update; ``ProfileSessions``), apart from `state`: the storage is the
    /// host's and may call the client back.
    let sessionWrites = Locked(())

    /// Everything that changes, under one lock (each part is changed by its view only).
    struct State: Sendable {
        /// The running flow (``FlowEnvironment``).
        var flow = FlowEnvironment.Slot()
        /// The profiles and the session (``ProfileSessions``).
        var sessions = ProfileSessions.State()
        /// The checkpoint's marks (``RegistrationCheckpoints``).
        var checkpoint = RegistrationCheckpoints.Marks()
        /// Whether the client started, and what it cached (``UserClient``).
        var client = UserClient.State()
        /// See ``FlowDependencies/delegateEndings``: `nil` until something asks for it.
        var delegateEndings: Broadcast<IdentityFlowError?>?
    }

    /// Told after a delegate's terminal callback returned (`nil` for a success, else the error):
    /// what the test kit's `UserClient.outcomeOfNextFlow(timeout:starting:)` awaits. Made the
    /// first time it is asked for, so that a client nothing watches carries none (a `Broadcast`
    /// is three heap blocks: made with every client, it was most of bench row e2's growth).
    var delegateEndings: Broadcast<IdentityFlowError?> {
        state.withLock { state in
            if let endings = state.delegateEndings { return endings }
            let endings = Broadcast<IdentityFlowError?>()
            state.delegateEndings = endings
            return endings
        }
    }

    /// ``delegateEndings`` when something asked for it, else `nil` (and nothing is made).
    var delegateEndingsIfWatched: Broadcast<IdentityFlowError?>? { state.withLock { $0.delegateEndings } }

    /// Dependencies over a service and a storage.
    /// - Parameters:
    ///   - configuration: How the client behaves.
    ///   - transitionLog: Where transitions are published.
    ///   - service: The server.
    ///   - storage: Where profiles, tokens and the checkpoint are kept.
    init(configuration: ClientConfiguration, transitionLog: TransitionLog, service: any IdentityService, storage: any SecureStorage) {
        self.configuration = configuration
        self.transitionLog = transitionLog
        self.service = service
        self.store = ProfileStore(storage: storage, logger: configuration.logger)
    }

    /// The engine's view: configuration, transition log, flow slot.
    var environment: FlowEnvironment { FlowEnvironment(dependencies: self) }

    /// The profiles, their store and the session.
    var sessions: ProfileSessions { ProfileSessions(dependencies: self) }

    /// The browser registration's checkpoint.
    var checkpoints: RegistrationCheckpoints { RegistrationCheckpoints(dependencies: self) }

    /// Where warnings go.
    var logger: IdentityFlowLogger { configuration.logger }
}

/// What a flow's engine sees of its client: the configuration (clock, challenge timeout, logger,
/// wall-clock time), the transition log and the one flow slot. A view of the client's
/// ``FlowDependencies``: one word per engine, no allocation.
struct FlowEnvironment: Sendable {
    private let dependencies: FlowDependencies

    /// The running flow and the redirect it waits for, if any.
    struct Slot: Sendable {
        var current: FlowSlot?
        /// The browser challenge of the running flow, for ``UserClient/handleRedirect(_:)``.
        var redirectWaiter: RedirectWaiter?
    }

    /// The environment of `dependencies`' client.
    init(dependencies: FlowDependencies) { self.dependencies = dependencies }

    /// How the client behaves.
    var configuration: ClientConfiguration { dependencies.configuration }

    /// Where every transition is published.
    var transitionLog: TransitionLog { dependencies.transitionLog }

    /// The logger of the configuration.
    var logger: IdentityFlowLogger { dependencies.configuration.logger }

    /// The running flow's slot, if a flow runs.
    var currentFlow: FlowSlot? { dependencies.state.withLock { $0.flow.current } }

    /// Reserves the slot for a new flow.
    /// - Returns: The slot, or `nil` when a flow runs already.
    func reserve() -> FlowSlot? {
        dependencies.state.withLock { state in
            guard state.flow.current == nil else { return nil }
            let reserved = FlowSlot(id: .next())
            state.flow.current = reserved
            return reserved
        }
    }

    /// Marks flow `id` as past cancelling (see ``FlowEngine/commit()``).
    func commit(_ id: FlowID) { flow(id)?.commit() }

    /// Lets cancels count again for flow `id` (see ``FlowEngine/reopen()``).
    func reopen(_ id: FlowID) { flow(id)?.reopen() }

    /// Frees the slot of flow `id`, and the redirect it waited for; called right before its terminal callback.
    func end(_ id: FlowID) {
        dependencies.state.withLock { state in
            if state.flow.current?.id == id { state.flow.current = nil }
            if state.flow.redirectWaiter?.flowID == id { state.flow.redirectWaiter = nil }
        }
    }

    /// Routes ``UserClient/handleRedirect(_:)`` to a flow's open browser challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) { dependencies.state.withLock { $0.flow.redirectWaiter = waiter } }

    /// The browser challenge a flow of this client waits on, if any.
    var redirectWaiter: RedirectWaiter? { dependencies.state.withLock { $0.flow.redirectWaiter } }

    private func flow(_ id: FlowID) -> FlowSlot? { dependencies.state.withLock { $0.flow.current?.id == id ? $0.flow.current : nil } }
}
