/// What every flow shares: its runner, its open challenge ticket and its way out.
///
/// A flow (registration, authentication, ...) owns one engine and performs its machine's effects.
/// The engine issues challenge tickets whose answers become machine events, keeps at most one
/// ticket open (a new one makes the previous stale), and on ``end()`` closes the open ticket and
/// frees the client for the next flow before the terminal callback goes out.
final class FlowEngine<Machine: StateMachine>: Sendable {
    let id: FlowID
    let runner: MachineRunner<Machine>
    let configuration: ClientConfiguration
    private let openTicket = Locked<(any OpenTicket)?>(nil)
    private let release: @Sendable (FlowID) -> Void

    init(id: FlowID, machine: Machine, configuration: ClientConfiguration, log: TransitionLog, release: @escaping @Sendable (FlowID) -> Void) {
        self.id = id
        self.runner = MachineRunner(machine: machine, flowID: id, log: log)
        self.configuration = configuration
        self.release = release
    }

    var logger: IdentityFlowLogger { configuration.logger }

    /// Opens a ticket for a new challenge; its outcome is turned into an event by `event`.
    func issueTicket<Answer: Sendable>(
        for challengeName: String,
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
        if let timeout = configuration.challengeTimeout {
            ticket.startTimer(timeout, clock: configuration.clock)
        }
        return ticket
    }

    /// Closes the open ticket and frees the client. Call right before the terminal callback.
    func end() {
        openTicket.withLock { open in
            defer { open = nil }
            return open
        }?.invalidate(reason: "answered after its flow ended")
        release(id)
    }
}

/// A ticket of any answer type, as the engine keeps it.
protocol OpenTicket: Sendable {
    func invalidate(reason: String)
}

extension ChallengeTicket: OpenTicket {}
