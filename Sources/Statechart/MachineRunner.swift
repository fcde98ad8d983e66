/// Runs a ``StateMachine``: applies each event synchronously, then starts the effects.
///
/// A transition is applied in full (state changed, record published, effects handed to the
/// performer) before anything awaits, so actor reentrancy never sees a half-applied transition.
/// Asynchronous effect work runs in tasks the runner owns (never detached). Work belongs to the
/// state whose transition started it: when the machine takes any other transition (an answer, a
/// cancel) the runner cancels the work still running, so a stale call cannot land after the flow
/// moved on (say, a PIN enrolment after the half-made registration was discarded). When the
/// machine reaches a final state the runner also drops its performer.
///
/// ```swift
/// let runner = MachineRunner(machine: DoorMachine(), log: log)
/// await runner.start(performer, with: .started)
/// await runner.send(.opened)
/// ```
public actor MachineRunner<Machine: StateMachine> {
    /// The flow this runner drives.
    public nonisolated let flowID: FlowID
    private var machine: Machine
    private var performer: (any EffectPerformer<Machine>)?
    private let log: TransitionLog?
    private var work: [UInt64: Task<Void, Never>] = [:]
    private var nextWorkID: UInt64 = 0

    /// Creates a runner for a machine in its initial state.
    /// - Parameters:
    ///   - machine: The machine.
    ///   - flowID: The flow's identifier in records.
    ///   - log: Where transitions are published, if anywhere.
    public init(machine: Machine, flowID: FlowID = .next(), log: TransitionLog? = nil) {
        self.machine = machine
        self.flowID = flowID
        self.log = log
    }

    /// The machine's current state.
    public var state: Machine.State { machine.state }

    /// Whether the machine has reached a final state.
    public var isFinished: Bool { machine.isFinished }

    /// Attaches the performer and sends the first event.
    /// - Parameters:
    ///   - performer: Carries out effects until the machine finishes.
    ///   - event: The first event.
    /// - Returns: Whether the machine handled the event.
    @discardableResult
    public func start(_ performer: any EffectPerformer<Machine>, with event: Machine.Event) -> Bool {
        self.performer = performer
        return send(event)
    }

    /// Sends an event to the machine.
    ///
    /// - Parameter event: What happened.
    /// - Returns: `false` when the machine has finished, has not started, or has no transition for
    ///   the event in its current state; nothing changes then.
    @discardableResult
    public func send(_ event: Machine.Event) -> Bool {
        guard let performer, !machine.isFinished else { return false }
        // Only a published record names the source state; unobserved, the state is not copied.
        let observed = log?.hasSubscribers ?? false
        let recording = ChartCoverage.isRecording
        let source = observed || recording ? Machine.name(of: machine.state) : nil
        var effects = [Machine.Effect]()
        guard let handled = machine.handle(event, appendingEffectsTo: &effects) else { return false }
        if let source {
            publish(from: source, event: event, guardName: handled.guardName, effects: effects, observed: observed, recording: recording)
        }
        cancelStaleWork()
        if machine.isFinished { self.performer = nil }
        for effect in effects {
            if case .run(let operation) = performer.perform(effect) {
                launch(operation)
            }
        }
        return true
    }

    /// Cancels the work still running: the transition just taken did not come from its result,
    /// so the work is stale (see the type's doc).
    private func cancelStaleWork() {
        guard !work.isEmpty else { return }
        for task in work.values { task.cancel() }
        work.removeAll(keepingCapacity: true)
    }

    private func launch(_ operation: @escaping @Sendable () async -> Machine.Event?) {
        nextWorkID &+= 1
        let id = nextWorkID
        work[id] = Task {
            let event = await operation()
            self.workFinished(id, event: event)
        }
    }

    private func workFinished(_ id: UInt64, event: Machine.Event?) {
        work.removeValue(forKey: id)
        if let event { send(event) }
    }

    private func publish(from source: String, event: Machine.Event, guardName: String?, effects: [Machine.Effect], observed: Bool, recording: Bool) {
        let transition = ChartTransition(
            from: source, on: Machine.name(of: event),
            guard: guardName, to: Machine.name(of: machine.state))
        let record = TransitionRecord(
            flowID: flowID, chart: Machine.chart.name, transition: transition,
            effects: effects.map { Machine.name(of: $0) },
            isDeclared: Machine.chart.declares(transition))
        if recording { ChartCoverage.record(record) }
        if observed { log?.publish(record) }
    }
}
