import Statechart

/// The client's handle on its one running flow: cancellable from the moment it is reserved,
/// even while the flow still prepares (resolving its identity provider, say), until it reaches a
/// step a cancel can no longer undo.
final class FlowSlot: Sendable {
    let id: FlowID
    private let phase = Locked<Phase>(.preparing(cancelled: false, preparation: nil))

    private enum Phase: Sendable {
        /// Resolving what the flow needs; `preparation` is the task doing it.
        case preparing(cancelled: Bool, preparation: Task<Void, Never>?)
        /// The machine runs; `cancel` posts the cancel event.
        case running(cancel: @Sendable () -> Void)
        /// Past the point a cancel can change the outcome (the result is being stored, the flow
        /// is already failing and cleaning up, or an answer is on its way to the server); keeps
        /// the running cancel for a flow that ``reopen()``s.
        case committed(cancel: (@Sendable () -> Void)?)
    }

    init(id: FlowID) { self.id = id }

    /// Names the task that prepares the flow, so that a cancel stops it (at once if one came already).
    func preparing(in task: Task<Void, Never>) {
        let cancelled = phase.withLock { phase in
            guard case .preparing(let cancelled, nil) = phase else { return false }
            phase = .preparing(cancelled: cancelled, preparation: task)
            return cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Cancels the flow: at once if it runs, before it starts if it still prepares.
    /// - Returns: Whether the cancel takes effect (the flow will end with
    ///   ``ErrorCode/actionCancelled``); `false` once the flow is past cancelling.
    @discardableResult
    func cancel() -> Bool {
        let (accepted, action, preparation): (Bool, (@Sendable () -> Void)?, Task<Void, Never>?) = phase.withLock { phase in
            switch phase {
            case .preparing(_, let preparation):
                phase = .preparing(cancelled: true, preparation: preparation)
                return (true, nil, preparation)
            case .running(let cancel): return (true, cancel, nil)
            case .committed: return (false, nil, nil)
            }
        }
        preparation?.cancel()
        action?()
        return accepted
    }

    /// Whether a cancel came while the flow prepared.
    var wasCancelledWhilePreparing: Bool {
        phase.withLock { phase in
            if case .preparing(true, _) = phase { return true }
            return false
        }
    }

    /// Starts accepting cancels for the running machine; `false` if one came while it prepared.
    func run(cancel: @escaping @Sendable () -> Void) -> Bool {
        phase.withLock { phase in
            if case .preparing(cancelled: true, _) = phase { return false }
            phase = .running(cancel: cancel)
            return true
        }
    }

    /// From now on a cancel changes nothing, and ``cancel()`` says so.
    func commit() {
        phase.withLock { phase in
            if case .running(let cancel) = phase { phase = .committed(cancel: cancel) } else { phase = .committed(cancel: nil) }
        }
    }

    /// Cancels count again: the answer the flow committed to came back refused (a wrong step-up
    /// PIN), and the flow waits for the host once more.
    func reopen() {
        phase.withLock { phase in
            if case .committed(let cancel?) = phase { phase = .running(cancel: cancel) }
        }
    }
}
