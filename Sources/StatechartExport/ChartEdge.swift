import Statechart

/// The transitions of a chart that share a source and a target, drawn as one arrow.
///
/// Diagram exporters merge parallel transitions so that large charts stay legible: one arrow per
/// (source, target) pair, labelled with one line per event. Guards of the same event are joined
/// with ` | ` (any of them), so `redirectReceived [denied | malformed]` stands for two transitions.
struct ChartEdge: Hashable, Sendable {
    /// The state the arrow leaves.
    let source: String
    /// The state the arrow enters.
    let target: String
    /// One label line per event, in declaration order: `event`, `event [guard]` or
    /// `event [guardA | guardB]`.
    let labelLines: [String]

    /// The chart's transitions merged into arrows, in order of each arrow's first transition.
    /// - Parameter chart: The chart.
    /// - Returns: One edge per (source, target) pair.
    static func edges(of chart: Chart) -> [ChartEdge] {
        struct Key: Hashable { let source: String, target: String }
        var order: [Key] = []
        var transitionsByKey: [Key: [ChartTransition]] = [:]
        for transition in chart.transitions {
            let key = Key(source: transition.source, target: transition.target)
            if transitionsByKey[key] == nil { order.append(key) }
            transitionsByKey[key, default: []].append(transition)
        }
        return order.map { key in
            ChartEdge(source: key.source, target: key.target, labelLines: labelLines(transitionsByKey[key] ?? []))
        }
    }

    private static func labelLines(_ transitions: [ChartTransition]) -> [String] {
        var events: [String] = []
        var guards: [String: [String]] = [:]
        var unguarded: Set<String> = []
        for transition in transitions {
            if guards[transition.event] == nil && !unguarded.contains(transition.event) {
                events.append(transition.event)
            }
            if let guardName = transition.guardName {
                if !(guards[transition.event] ?? []).contains(guardName) {
                    guards[transition.event, default: []].append(guardName)
                }
            } else {
                unguarded.insert(transition.event)
            }
        }
        return events.flatMap { event -> [String] in
            var lines: [String] = []
            if unguarded.contains(event) { lines.append(event) }
            if let eventGuards = guards[event], !eventGuards.isEmpty {
                lines.append("\(event) [\(eventGuards.joined(separator: " | "))]")
            }
            return lines
        }
    }
}
