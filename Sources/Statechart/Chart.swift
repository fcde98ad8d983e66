/// A machine's statechart as data: its states, initial state, final states and transitions.
///
/// Every ``StateMachine`` declares its chart once. The ``MachineRunner`` checks each transition it
/// takes against it, the StatechartExport tooling draws it (SCXML, Mermaid, DOT), and tests compare
/// the committed drawings with what the code would write.
///
/// ```swift
/// static let chart = Chart(
///     name: "Door",
///     initial: "closed",
///     finals: ["removed"],
///     transitions: [
///         .init(from: "closed", on: "opened", to: "open"),
///         .init(from: "open", on: "closed", guard: "notLocked", to: "closed"),
///     ])
/// ```
public struct Chart: Sendable, Hashable {
    /// The chart's name, used for file names and diagram titles.
    public let name: String
    /// The name of the state the machine starts in.
    public let initial: String
    /// The names of the states in which the machine has finished.
    public let finals: Set<String>
    /// Every transition the machine may take.
    public let transitions: [ChartTransition]
    /// The Swift type the chart is declared by, named in exported files.
    public let swiftType: String
    /// The compound states: each groups leaf states that a child machine, held as the parent's
    /// state value, walks through. Transitions still name leaf states; exporters nest the leaves
    /// in their compound (SCXML `<state>` in `<state>`, Mermaid `state X { }`). A compound whose
    /// leaves are all another's, and fewer, is nested in that one (a child machine that holds
    /// its own children: a registration's sign-in step and its variants).
    public let compounds: [ChartCompound]

    /// Creates a chart.
    /// - Parameters:
    ///   - name: The chart's name.
    ///   - swiftType: The Swift type that declares it.
    ///   - initial: The initial state.
    ///   - finals: The final states.
    ///   - transitions: Every transition the machine may take.
    ///   - compounds: The compound states grouping leaf states (none by default).
    public init(
        name: String, swiftType: String, initial: String, finals: Set<String>, transitions: [ChartTransition], compounds: [ChartCompound] = []
    ) {
        self.name = name
        self.swiftType = swiftType
        self.initial = initial
        self.finals = finals
        self.transitions = transitions
        self.compounds = compounds
        self.declared = Set(transitions)
    }

    /// The innermost compound state that holds `state`, or `nil` for a top-level state.
    /// - Parameter state: A leaf state's name.
    /// - Returns: The compound whose children include it, the one with the fewest children when
    ///   compounds nest.
    public func compound(holding state: String) -> ChartCompound? {
        compounds(holding: state).last
    }

    /// The compound states that hold `state`, outermost first.
    /// - Parameter state: A leaf state's name.
    /// - Returns: The compounds whose children include it, by decreasing number of children.
    package func compounds(holding state: String) -> [ChartCompound] {
        compounds.filter { $0.children.contains(state) }.sorted { $0.children.count > $1.children.count }
    }

    /// The compound state `compound` is nested in, or `nil` for a top-level compound.
    /// - Parameter compound: One of ``compounds``.
    /// - Returns: The smallest other compound that holds all of its leaves and more.
    package func parent(of compound: ChartCompound) -> ChartCompound? {
        compounds.filter { other in
            other.children.count > compound.children.count && compound.children.allSatisfy(other.children.contains)
        }.min { $0.children.count < $1.children.count }
    }

    /// Every state the chart names, in order of first appearance (initial state first).
    public var states: [String] {
        var seen: Set<String> = []
        var ordered: [String] = []
        for name in [initial] + transitions.flatMap({ [$0.source, $0.target] }) + finals.sorted()
        where seen.insert(name).inserted {
            ordered.append(name)
        }
        return ordered
    }

    /// Whether the chart declares this transition.
    public func declares(_ transition: ChartTransition) -> Bool {
        declared.contains(transition)
    }

    private let declared: Set<ChartTransition>
}

/// One transition of a ``Chart``: in `source`, on `event`, if `guardName` holds, go to `target`.
public struct ChartTransition: Sendable, Hashable, CustomStringConvertible {
    /// The state the transition leaves.
    public let source: String
    /// The name of the event that triggers it.
    public let event: String
    /// The name of the condition that must hold, or `nil` when it is unconditional.
    public let guardName: String?
    /// The state the transition enters.
    public let target: String

    /// Creates a transition.
    /// - Parameters:
    ///   - source: The state it leaves.
    ///   - event: The event name.
    ///   - guardName: The condition's name, if any.
    ///   - target: The state it enters.
    public init(from source: String, on event: String, guard guardName: String? = nil, to target: String) {
        self.source = source
        self.event = event
        self.guardName = guardName
        self.target = target
    }

    /// `source --event [guard]--> target`.
    public var description: String {
        let condition = guardName.map { " [\($0)]" } ?? ""
        return "\(source) --\(event)\(condition)--> \(target)"
    }
}

/// A compound state of a ``Chart``: a named group of leaf states that one child machine walks
/// through while the parent holds it as its state value (the PIN loop inside a login, for example).
///
/// The runner names the parent's state by the child's leaf state, so transitions and coverage stay
/// on leaf states; the compound only groups them for the drawings.
public struct ChartCompound: Sendable, Hashable {
    /// The compound state's name (the parent's state case that holds the child).
    public let name: String
    /// The leaf state the child starts in.
    public let initial: String
    /// The leaf states the child walks through, in drawing order: those of a nested compound too.
    public let children: [String]

    /// Creates a compound state.
    /// - Parameters:
    ///   - name: The compound state's name.
    ///   - initial: The child's initial leaf state.
    ///   - children: Its leaf states.
    public init(name: String, initial: String, children: [String]) {
        self.name = name
        self.initial = initial
        self.children = children
    }
}
