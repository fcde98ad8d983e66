/// A process-wide record of the chart transitions runners have taken, for test suites.
///
/// Off by default. A test suite turns it on, runs its flows, and then asks which declared
/// transitions were never taken and whether any undeclared one was.
package enum ChartCoverage {
    private struct Store: Sendable {
        var taken: [String: Set<ChartTransition>] = [:]
        var undeclared: [TransitionRecord] = []
    }

    private static let store = Locked(Store())
    private static let recording = AtomicFlag(false)

    /// Whether runners record the transitions they take. Reading it takes no lock: runners ask on
    /// every transition.
    package static var isRecording: Bool {
        get { recording.isSet }
        set { recording.set(newValue) }
    }

    /// Records a transition a runner took.
    /// - Parameter record: The transition.
    package static func record(_ record: TransitionRecord) {
        store.withLock { store in
            store.taken[record.chart, default: []].insert(record.transition)
            if !record.isDeclared { store.undeclared.append(record) }
        }
    }

    /// The transitions taken so far in a chart.
    /// - Parameter chart: The chart.
    /// - Returns: Every transition of that chart some runner took since recording began.
    package static func taken(in chart: Chart) -> Set<ChartTransition> {
        store.withLock { $0.taken[chart.name] ?? [] }
    }

    /// The declared transitions of `chart` no runner has taken yet.
    /// - Parameter chart: The chart.
    /// - Returns: The transitions never taken, in declaration order.
    package static func untaken(in chart: Chart) -> [ChartTransition] {
        let taken = taken(in: chart)
        return chart.transitions.filter { !taken.contains($0) }
    }

    /// Every transition taken that its chart does not declare (a machine bug).
    package static var undeclared: [TransitionRecord] { store.withLock { $0.undeclared } }
}
