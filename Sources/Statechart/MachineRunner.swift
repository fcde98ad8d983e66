/// Runs a ``StateMachine``: applies each event synchronously, then starts the effects.
///
/// A transition is applied in full (state changed, record published, effects handed to the
/// performer) before anything awaits, so actor reentrancy never sees a half-applied transition.
/// Asynchronous effect work runs in tasks the runner owns (never detached). Work belongs to the
/// state whose transition started it: when the machine takes any other transition (an answer, a
/// cancel) the runner cancels the work still running, so a stale call cannot land after the flow
/// moved on (say, a save for a document the user already discarded). When the
/// machine reaches a final state the runner also drops its performer.
///
/// Events from outside the actor (a host's answer, a cancel) arrive through ``post(_:)``. One
/// posted while the runner performs a transition's effects (a caller that answers a request
/// inside the callback that handed it over) is taken by that same call right after the effects,
/// on the actor, in posting order; any other waits in the inbox for a task that sends it. Work
/// that reports its event takes the events posted before it first: an event posted while the
/// work ran (a cancel landing as the server answers) is handled before the work's result, with
/// `Task.immediate` or a plain `Task` start alike.
///
/// ```swift
/// let runner = MachineRunner(machine: DoorMachine(), log: log)
/// await runner.start(performer, with: .started)
/// await runner.send(.opened)
/// ```
///
/// Speed: docs/performance-notes.md#the-runners-send-path (inlinable hot path, unchecked exclusivity).
public final actor MachineRunner<Machine: StateMachine> {
    /// The flow this runner drives.
    public nonisolated let flowID: FlowID
    // Only this actor touches these, one job at a time: the actor already serialises every access.
    @exclusivity(unchecked) @usableFromInline var machine: Machine
    @exclusivity(unchecked) @usableFromInline var performer: (any EffectPerformer<Machine>)?
    @exclusivity(unchecked) @usableFromInline var work: [UInt64: Task<Void, Never>] = [:]
    @exclusivity(unchecked) private var nextWorkID: UInt64 = 0
    @exclusivity(unchecked) private var lastFinishedWorkID: UInt64 = 0
    @usableFromInline let log: TransitionLog?
    @usableFromInline let inbox = Locked(Inbox())

    /// Events posted while the runner performs effects, for that same call to take.
    @usableFromInline
    struct Inbox: Sendable {
        /// Whether a call on the actor will take posted events before it returns.
        @usableFromInline var isTaking = false
        /// Whether a task that takes posted events is on its way (``post(_:)`` started it).
        @usableFromInline var isSendScheduled = false
        @usableFromInline var events: [Machine.Event] = []

        @usableFromInline init() {}
    }

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
    @discardableResult @inlinable
    public func send(_ event: Machine.Event) -> Bool {
        guard let performer, let effects = apply(event) else { return false }
        if effects.count == 0 { return true }
        startTakingPosted()
        perform(effects, with: performer)
        takePostedEvents()
        return true
    }

    /// How many posted events one call takes on its thread before it hands the rest to a new task.
    @inlinable static var inlineEventBound: Int { 64 }

    /// Takes the events posted by the effects (or meanwhile by other threads) until none is left.
    ///
    /// Past ``inlineEventBound`` events, a new task takes the rest: a performer whose effects
    /// post forever (a caller answering every request inline, wrongly) then costs CPU but hands
    /// its thread back between batches, and an event posted meanwhile (a cancel) is reached.
    /// The task is detached, so it queues behind the work already waiting for a thread: one
    /// isolated to this actor would run next on the same thread, which an actor keeps while it
    /// has jobs, and a few runaways would then hold every thread of the pool. Posting stays
    /// taken (`isTaking`) across the hand-off, so events keep their order.
    @inlinable
    func takePostedEvents() {
        var posted: [Machine.Event] = []
        var taken = 0
        while takePosted(into: &posted) {
            for next in posted {
                if let performer, let effects = apply(next) { perform(effects, with: performer) }
            }
            taken += posted.count
            posted.removeAll(keepingCapacity: true)
            if taken >= Self.inlineEventBound {
                // Detached on purpose (see above): an actor-isolated task would run next on this thread.
                Task.detached { await self.takePostedEvents() }
                return
            }
        }
    }

    /// From now until ``takePostedEvents()`` returns, events posted from outside wait for it.
    @inlinable
    func startTakingPosted() {
        inbox.withLock { $0.isTaking = true }
    }

    /// Sends an event from outside the actor without waiting for it to be handled.
    ///
    /// The event joins the inbox, in posting order. When the runner is performing effects on its
    /// actor right now, that call handles it next; otherwise a task takes the inbox, unless work
    /// reporting its result takes it first (the event then goes before that result).
    /// - Parameter event: What happened.
    @inlinable
    public nonisolated func post(_ event: Machine.Event) {
        let schedules = inbox.withLock { inbox in
            inbox.events.append(event)
            if inbox.isTaking || inbox.isSendScheduled { return false }
            inbox.isSendScheduled = true
            return true
        }
        if schedules { Task { await self.sendPosted() } }
    }

    /// Takes the events ``post(_:)`` left in the inbox (none, if another call took them already).
    @usableFromInline
    func sendPosted() {
        inbox.withLock { inbox in
            inbox.isSendScheduled = false
            inbox.isTaking = true
        }
        takePostedEvents()
    }

    /// Moves the posted events, in posting order, into the empty `batch`. Returns `false`, and
    /// posting is no longer taken here, when there are none.
    @inlinable
    func takePosted(into batch: inout [Machine.Event]) -> Bool {
        inbox.withLock { inbox in
            if inbox.events.isEmpty {
                inbox.isTaking = false
                return false
            }
            swap(&batch, &inbox.events)
            return true
        }
    }

    /// Applies one transition: the state changes, the record is published and stale work is
    /// cancelled. Returns the effects to perform, or `nil`, changing nothing, when the machine
    /// finished or ignores the event.
    @inlinable
    func apply(_ event: Machine.Event) -> Effects<Machine.Effect>? {
        guard !machine.isFinished else { return nil }
        // Only a published record names the source state; unobserved, the state is not copied.
        let observed = log?.hasSubscribers ?? false
        let recording = Self.isRecordingCoverage
        let source = observed || recording ? Machine.name(of: machine.state) : nil
        guard let reaction = machine.handle(event) else { return nil }
        if let source {
            publish(from: source, event: event, reaction: reaction, observed: observed, recording: recording)
        }
        if !work.isEmpty { cancelStaleWork() }
        if machine.isFinished { performer = nil }
        return reaction.effects
    }

    /// Performs a transition's effects in order. `performer` is the one attached before the
    /// transition: the effects of the final one (the result) are performed after the runner
    /// dropped it.
    @inlinable
    func perform(_ effects: Effects<Machine.Effect>, with performer: any EffectPerformer<Machine>) {
        for effect in effects {
            if case .run(let operation) = performer.perform(effect) {
                launch(operation)
            }
        }
    }

    /// Cancels the work still running: the transition just taken did not come from its result,
    /// so the work is stale (see the type's doc).
    @usableFromInline
    func cancelStaleWork() {
        for task in work.values { task.cancel() }
        work.removeAll(keepingCapacity: true)
    }

    @usableFromInline
    func launch(_ operation: @escaping EffectWork<Machine.Event>.Work) {
        nextWorkID &+= 1
        let id = nextWorkID
        let task = startImmediateTask {
            let event = await operation()
            self.workFinished(id, event: event)
        }
        // Work that finished without suspending has reported already: nothing left to cancel.
        if lastFinishedWorkID != id { work[id] = task }
    }

    private func workFinished(_ id: UInt64, event: Machine.Event?) {
        lastFinishedWorkID = id
        work.removeValue(forKey: id)
        guard let event else { return }
        // The event joins the inbox behind the events posted while the work ran: a cancel posted as
        // the server answered is handled first, so the flow that accepted it ends, whether the
        // work ran inside the step (`Task.immediate`, the step then takes it after its other
        // effects) or in a task of its own (a plain `Task`, iOS 16-25: taken here).
        let takesHere = inbox.withLock { inbox in
            inbox.events.append(event)
            defer { inbox.isTaking = true }
            return !inbox.isTaking
        }
        if takesHere { takePostedEvents() }
    }

    /// Whether chart coverage is being recorded (``ChartCoverage``).
    @usableFromInline
    static var isRecordingCoverage: Bool { ChartCoverage.isRecording }

    @usableFromInline
    func publish(from source: String, event: Machine.Event, reaction: Reaction<Machine.Effect>, observed: Bool, recording: Bool) {
        let transition = ChartTransition(
            from: source, on: Machine.name(of: event),
            guard: reaction.guardName, to: Machine.name(of: machine.state))
        let record = TransitionRecord(
            flowID: flowID, chart: Machine.chart.name, transition: transition,
            effects: reaction.effects.map { Machine.name(of: $0) },
            isDeclared: Machine.chart.declares(transition))
        if recording { ChartCoverage.record(record) }
        if observed { log?.publish(record) }
    }
}
