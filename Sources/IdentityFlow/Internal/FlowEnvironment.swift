import Statechart

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
