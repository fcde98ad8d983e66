/// One transition a runner took: which flow, from which state, on which event, to which state,
/// and which effects it named.
///
/// Records carry names only (case names of states, events and effects), never payloads, so no
/// secret a payload holds can reach a log or transcript through them.
public struct TransitionRecord: Sendable, Hashable, CustomStringConvertible {
    /// The flow the transition belongs to.
    public let flowID: FlowID
    /// The chart's name.
    public let chart: String
    /// The transition as the chart names it.
    public let transition: ChartTransition
    /// The names of the effects, in order.
    public let effects: [String]
    /// Whether the chart declares this transition (always true unless a machine has a bug).
    public let isDeclared: Bool

    /// Creates a record.
    /// - Parameters:
    ///   - flowID: The flow.
    ///   - chart: The chart's name.
    ///   - transition: The transition taken.
    ///   - effects: The effect names.
    ///   - isDeclared: Whether the chart declares the transition.
    public init(flowID: FlowID, chart: String, transition: ChartTransition, effects: [String], isDeclared: Bool) {
        self.flowID = flowID
        self.chart = chart
        self.transition = transition
        self.effects = effects
        self.isDeclared = isDeclared
    }

    /// `flow#3 Door: awaitingKey --keyTurned [wrongKey]--> awaitingKey / chime`.
    public var description: String {
        let effectList = effects.isEmpty ? "" : " / " + effects.joined(separator: ", ")
        let undeclared = isDeclared ? "" : " (NOT IN CHART)"
        return "\(flowID) \(chart): \(transition)\(effectList)\(undeclared)"
    }
}
