import Statechart

/// What every flow shares: its runner, its open challenge ticket and its way out.
///
/// A flow (registration, authentication, ...) owns one engine and performs its machine's effects.
/// The engine issues challenge tickets whose answers become machine events, keeps at most one
/// ticket open (a new one makes the previous stale), and on ``end()`` closes the open ticket and
/// frees the client for the next flow before the terminal callback goes out.
final class FlowEngine<Machine: StateMachine>: Sendable {
    let id: FlowID
    let runner: MachineRunner<Machine>
    /// The client the flow runs on (its flows hold it too). Kept instead of a copy of its
    /// configuration and a release closure with a weak capture: one word per flow, not three heap blocks' worth.
    private let client: UserClient
    private let openTicket = Locked<(any OpenTicket)?>(nil)

    /// An engine for a flow of `client`, freeing the client's flow slot when it ends.
    init(id: FlowID, machine: Machine, client: UserClient) {
        self.id = id
        self.runner = MachineRunner(machine: machine, flowID: id, log: client.transitionLog)
        self.client = client
    }

    var configuration: ClientConfiguration { client.configuration }

    var logger: IdentityFlowLogger { configuration.logger }

    /// Opens a ticket for a new challenge; its outcome is turned into an event by `event`.
    /// - Parameters:
    ///   - challengeName: The challenge's type name, for logs.
    ///   - deadline: A time limit of the flow's own (a request's expiry); the ticket times out at
    ///     the earlier of it and the configured challenge timeout.
    ///   - event: Turns the outcome into the machine's event.
    func issueTicket<Answer: Sendable>(
        for challengeName: String,
        deadline: Duration? = nil,
        event: @escaping @Sendable (ChallengeOutcome<Answer>) -> Machine.Event
    ) -> ChallengeTicket<Answer> {
        let ticket = ChallengeTicket<Answer>(flowID: id, challengeName: challengeName, logger: logger) { [runner] outcome in
            runner.post(event(outcome))
        }
        let previous = openTicket.withLock { open in
            defer { open = ticket }
            return open
        }
        previous?.invalidate(reason: "superseded by a newer challenge")
        if let timeout = [configuration.challengeTimeout, deadline].compactMap({ $0 }).min() {
            ticket.startTimer(timeout, clock: configuration.clock)
        }
        return ticket
    }

    /// The flow reached a step a cancel can no longer undo: ``UserClient/cancelCurrentFlow()`` says so from now on.
    func commit() { client.commitFlow(id) }

    /// The step committed to came back refused and the flow waits for the host again: cancels count again.
    func reopen() { client.withState { $0.currentFlow?.id == id ? $0.currentFlow : nil }?.reopen() }

    /// Closes the open ticket and frees the client. Call right before the terminal callback.
    func end() {
        openTicket.withLock { open in
            defer { open = nil }
            return open
        }?.invalidate(reason: "answered after its flow ended")
        client.flowEnded(id)
    }
}

/// A ticket of any answer type, as the engine keeps it (class-bound: two words, not five).
protocol OpenTicket: AnyObject, Sendable {
    func invalidate(reason: String)
}

extension ChallengeTicket: OpenTicket {}
