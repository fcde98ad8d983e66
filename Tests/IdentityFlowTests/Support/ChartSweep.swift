import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

/// Explores a machine from its initial state, as plain values, and checks it against its chart.
///
/// The states are not listed by hand: starting from each variant's initial state, every sample
/// event is sent to every state reached so far, so the states swept are exactly those the machine
/// can reach. Every transition taken must be declared, every declared transition must be taken,
/// every state the chart names must be reached, everything else is rejected with the state
/// unchanged, and final states accept nothing. Machines whose context changes which transitions
/// exist (a browser or custom provider, say) come as one variant per context; coverage is counted
/// over all of them. Only the events need samples, because their payloads steer the guards.
struct ChartSweep<Machine: StateMachine> {
    /// Machines in their initial state, one per context variant.
    let variants: [Machine]
    /// Sample events: every event the chart names, with payloads for each guard.
    let events: [Machine.Event]
    /// The most states one variant may reach before the sweep gives up (a payload that grows).
    let stateLimit = 500

    func run(sourceLocation: SourceLocation = #_sourceLocation) {
        var taken: Set<ChartTransition> = []
        var reached: Set<String> = []
        var rejected = 0
        for initial in variants {
            #expect(Machine.name(of: initial.state) == Machine.chart.initial, "a variant does not start in the initial state", sourceLocation: sourceLocation)
            var seen = [initial.state]
            var frontier = [initial]
            while let machine = frontier.popLast() {
                for event in events {
                    var next = machine
                    guard let reaction = next.handle(event) else {
                        #expect(next.state == machine.state, sourceLocation: sourceLocation)
                        rejected += 1
                        continue
                    }
                    let transition = ChartTransition(
                        from: Machine.name(of: machine.state), on: Machine.name(of: event), guard: reaction.guardName, to: Machine.name(of: next.state))
                    #expect(Machine.chart.declares(transition), "undeclared: \(transition)", sourceLocation: sourceLocation)
                    #expect(!machine.isFinished, "a final state accepted \(transition)", sourceLocation: sourceLocation)
                    taken.insert(transition)
                    if !seen.contains(next.state) {
                        seen.append(next.state)
                        frontier.append(next)
                    }
                }
                if seen.count > stateLimit {
                    Issue.record("more than \(stateLimit) states reached: a payload keeps growing", sourceLocation: sourceLocation)
                    return
                }
            }
            reached.formUnion(seen.map(Machine.name(of:)))
        }
        let untaken = Machine.chart.transitions.filter { !taken.contains($0) }
        #expect(untaken.isEmpty, "declared but never taken: \(untaken)", sourceLocation: sourceLocation)
        #expect(rejected > 0, sourceLocation: sourceLocation)
        let chartStates = Set(Machine.chart.states)
        #expect(
            reached == chartStates,
            "reached but not charted: \(reached.subtracting(chartStates)); charted but unreachable: \(chartStates.subtracting(reached))",
            sourceLocation: sourceLocation)
        // A compound state (a child machine held as a state value) groups charted states only.
        for compound in Machine.chart.compounds {
            #expect(
                Set(compound.children).isSubset(of: chartStates) && compound.children.contains(compound.initial),
                "compound \(compound.name) names states the chart does not reach", sourceLocation: sourceLocation)
        }
        // Every event the chart names must be among the samples: one the chart gains cannot be
        // left out of the sweep unnoticed.
        let chartEvents = Set(Machine.chart.transitions.map(\.event))
        #expect(
            Set(events.map(Machine.name(of:))).isSuperset(of: chartEvents), "events not sampled: \(chartEvents.subtracting(events.map(Machine.name(of:))))",
            sourceLocation: sourceLocation)
    }
}
