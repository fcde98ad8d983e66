extension UserClient {
    /// Reserves the one flow slot, prepares the flow (which may call the server) and starts it.
    ///
    /// When the slot is taken or preparing fails, the host gets its one terminal callback at once.
    /// A cancel that arrives while the flow prepares is delivered right after it starts.
    @discardableResult
    func launch<Flow: FlowPerformer, Start, Success>(
        host: FlowHost<Start, Success>,
        prepare: @escaping @Sendable (FlowID) async throws(IdentityFlowError) -> Flow
    ) -> FlowSlot? {
        let slot: FlowSlot
        switch reserveFlow() {
        case .success(let reserved): slot = reserved
        case .failure(let error):
            host.finished(.failure(error))
            return nil
        }
        Task {
            let flow: Flow
            do throws(IdentityFlowError) { flow = try await prepare(slot.id) } catch {
                flowEnded(slot.id)
                host.finished(.failure(error))
                return
            }
            let runner = flow.engine.runner
            let cancelledEarly = !slot.run { runner.post(.cancelRequested) }
            await runner.start(flow, with: flow.startEvent)
            if cancelledEarly { await runner.send(.cancelRequested) }
        }
        return slot
    }
}
