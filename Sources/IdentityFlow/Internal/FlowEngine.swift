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
    /// The configuration, transition log and flow slot of the client the flow runs on, shared
    /// with its other flows: one word per flow, not a copy of the configuration.
    private let environment: FlowEnvironment
    private let openTicket = Locked<(any OpenTicket)?>(nil)

    /// An engine for a flow in `environment`, freeing its flow slot when it ends.
    /// - Parameters:
    ///   - id: The flow's id (its slot's).
    ///   - machine: The flow's machine, in its initial state.
    ///   - environment: The configuration, transition log and flow slot.
    init(id: FlowID, machine: Machine, environment: FlowEnvironment) {
        self.id = id
        self.runner = MachineRunner(machine: machine, flowID: id, log: environment.transitionLog)
        self.environment = environment
    }

    var configuration: ClientConfiguration { environment.configuration }

    var logger: IdentityFlowLogger { configuration.logger }

    /// The flow reached a step a cancel can no longer undo: ``UserClient/cancelCurrentFlow()`` says so from now on.
    func commit() { environment.commit(id) }

    /// The step committed to came back refused and the flow waits for the host again: cancels count again.
    func reopen() { environment.reopen(id) }

    /// Closes the open ticket and frees the client. Call right before the terminal callback.
    func end() {
        openTicket.withLock { open in
            defer { open = nil }
            return open
        }?.invalidate(reason: "answered after its flow ended")
        environment.end(id)
    }
}

extension FlowEngine where Machine.Event: ChallengeEvents {
    /// Opens the ticket for a new challenge, making the previous one stale. An answer becomes
    /// `answered(answer)`, anything else `challengeAbandoned`, on this flow's runner.
    /// - Parameters:
    ///   - challengeName: The challenge's type name, for logs.
    ///   - deadline: A time limit of the flow's own (a request's expiry); the ticket times out at
    ///     the earlier of it and the configured challenge timeout.
    ///   - expired: The event for a timeout the deadline caused, instead of `challengeAbandoned`.
    ///   - answered: The flow's event for an answer.
    func ticket<Answer: Sendable>(
        _ challengeName: String, deadline: Duration? = nil, expired: Machine.Event? = nil,
        answered: @escaping @Sendable (Answer) -> Machine.Event
    ) -> ChallengeTicket<Answer> {
        // Made here, where the machine's type is known, so the runner's send path runs specialised.
        let ticket = ChallengeTicket<Answer>(flowID: id, challengeName: challengeName, logger: logger) { [runner] outcome in
            runner.post(outcome.event(answered: answered, expired: expired))
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
}

/// A ticket of any answer type, as the engine keeps it (class-bound: two words, not five).
protocol OpenTicket: AnyObject, Sendable {
    func invalidate(reason: String)
}

extension ChallengeTicket: OpenTicket {}
