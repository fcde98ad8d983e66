/// The client's handle on its one running flow: cancellable from the moment it is reserved,
/// even while the flow still prepares (resolving its identity provider, say).
final class FlowSlot: Sendable {
    let id: FlowID
    private let phase = Locked<Phase>(.preparing(cancelled: false))

    private enum Phase: Sendable {
        case preparing(cancelled: Bool)
        case running(cancel: @Sendable () -> Void)
    }

    init(id: FlowID) { self.id = id }

    /// Cancels the flow: at once if it runs, as soon as it starts otherwise.
    func cancel() {
        let action: (@Sendable () -> Void)? = phase.withLock { phase in
            switch phase {
            case .preparing: phase = .preparing(cancelled: true); return nil
            case .running(let cancel): return cancel
            }
        }
        action?()
    }

    /// Marks the flow as running. Returns `false` when it was cancelled while preparing: the
    /// caller then sends the cancellation itself, right after starting.
    func run(cancel: @escaping @Sendable () -> Void) -> Bool {
        phase.withLock { phase in
            if case .preparing(cancelled: true) = phase { return false }
            phase = .running(cancel: cancel)
            return true
        }
    }
}
