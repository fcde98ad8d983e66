import Statechart

extension UserClient {
    /// Reserves the one flow slot, prepares the flow (which may call the server) and starts it.
    ///
    /// When the slot is taken or preparing fails, the host gets its one terminal callback at once.
    /// A cancel that arrives while the flow prepares ends it with ``ErrorCode/actionCancelled``
    /// before its machine starts: nothing it would do happens.
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
        slot.preparing(
            in: Task {
                let flow: Flow
                do throws(IdentityFlowError) { flow = try await prepare(slot.id) } catch {
                    flowEnded(slot.id)
                    host.finished(.failure(slot.wasCancelledWhilePreparing ? ChallengeAbandonment.flowCancelled : error))
                    return
                }
                let runner = flow.engine.runner
                guard slot.run(cancel: { runner.post(.cancelRequested) }) else {
                    flowEnded(slot.id)
                    host.finished(.failure(ChallengeAbandonment.flowCancelled))
                    return
                }
                await runner.start(flow, with: flow.startEvent)
            })
        return slot
    }
}
