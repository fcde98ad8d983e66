import Testing
import IdentityFlow
import Statechart

/// Runs every sample event in every sample state of a machine, as plain values, and checks the
/// machine against its chart: every transition taken is declared, every declared transition is
/// taken, everything else is rejected with the state unchanged, and final states accept nothing.
/// Machines whose context changes which transitions exist (a browser or custom provider, say)
/// are swept once per context variant; coverage is counted over all of them.
struct ChartSweep<Machine: StateMachine> {
    let variants: [(Machine.State) -> Machine]
    let states: [Machine.State]
    let events: [Machine.Event]

    init(make: @escaping (Machine.State) -> Machine, states: [Machine.State], events: [Machine.Event]) {
        self.init(variants: [make], states: states, events: events)
    }

    init(variants: [(Machine.State) -> Machine], states: [Machine.State], events: [Machine.Event]) {
        self.variants = variants
        self.states = states
        self.events = events
    }

    func run(sourceLocation: SourceLocation = #_sourceLocation) {
        var taken: Set<ChartTransition> = []
        var rejected = 0
        for make in variants {
            for state in states {
                for event in events {
                    var machine = make(state)
                    let source = Machine.name(of: state)
                    if let reaction = machine.handle(event) {
                        let transition = ChartTransition(from: source, on: Machine.name(of: event), guard: reaction.guardName, to: Machine.name(of: machine.state))
                        #expect(Machine.chart.declares(transition), "undeclared: \(transition)", sourceLocation: sourceLocation)
                        #expect(!make(state).isFinished, "a final state accepted \(transition)", sourceLocation: sourceLocation)
                        taken.insert(transition)
                    } else {
                        #expect(machine.state == state, sourceLocation: sourceLocation)
                        rejected += 1
                    }
                }
            }
        }
        let untaken = Machine.chart.transitions.filter { !taken.contains($0) }
        #expect(untaken.isEmpty, "declared but never taken: \(untaken)", sourceLocation: sourceLocation)
        #expect(rejected > 0, sourceLocation: sourceLocation)
        let chartStates = Set(Machine.chart.states)
        #expect(Set(states.map(Machine.name(of:))).isSuperset(of: chartStates), "states not sampled: \(chartStates.subtracting(states.map(Machine.name(of:))))", sourceLocation: sourceLocation)
        // Every state and event the chart names must be among the samples: one the chart gains
        // cannot be left out of the sweep unnoticed.
        let chartEvents = Set(Machine.chart.transitions.map(\.event))
        #expect(Set(events.map(Machine.name(of:))).isSuperset(of: chartEvents), "events not sampled: \(chartEvents.subtracting(events.map(Machine.name(of:))))", sourceLocation: sourceLocation)
    }
}
