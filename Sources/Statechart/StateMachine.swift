/// A pure state machine: a value that reacts to events by changing state and naming effects.
///
/// A machine does no I/O and never awaits, so it is tested as a plain value. Effects are data that
/// a ``MachineRunner`` hands to an ``EffectPerformer``; their results come back as events.
///
/// ```swift
/// var machine = DoorMachine()
/// let reaction = machine.handle(.opened)   // nil when the chart has no such transition
/// ```
public protocol StateMachine: Sendable {
    /// What the machine waits for. Cases name the waiting (`awaitingKey`), payloads are structs.
    associatedtype State: Sendable & Equatable
    /// What happened (`keyTurned`, `doorPushed`).
    associatedtype Event: Sendable
    /// What to do next (`unlock`, `chime`).
    associatedtype Effect: Sendable

    /// The chart this machine follows: every transition ``handle(_:)`` can take is declared here.
    static var chart: Chart { get }

    /// The current state.
    var state: State { get }

    /// Whether the machine has reached a final state; it handles no event after that.
    var isFinished: Bool { get }

    /// Reacts to an event.
    ///
    /// - Parameter event: What happened.
    /// - Returns: The guard that held and the effects to perform, or `nil` when the current state
    ///   has no transition for the event; the state is then unchanged.
    mutating func handle(_ event: Event) -> Reaction<Effect>?
}

/// The outcome of a handled event: which guard held and which effects to perform, in order.
public struct Reaction<Effect: Sendable>: Sendable {
    /// The name of the guard that selected this transition, as declared in the chart.
    public var guardName: String?
    /// The effects to perform, in order.
    public var effects: Effects<Effect>

    /// Creates a reaction.
    /// - Parameters:
    ///   - guardName: The guard that held, if the transition has one.
    ///   - effects: The effects to perform.
    @inlinable
    public init(guard guardName: String? = nil, _ effects: Effects<Effect> = Effects()) {
        self.guardName = guardName
        self.effects = effects
    }
}

extension StateMachine {
    /// The chart name of a state: its enum case name.
    public static func name(of state: State) -> String { caseName(of: state) }
    /// The chart name of an event: its enum case name.
    public static func name(of event: Event) -> String { caseName(of: event) }
    /// The chart name of an effect: its enum case name.
    public static func name(of effect: Effect) -> String { caseName(of: effect) }
}

/// The case name of an enum value, without its payload (payloads never reach logs).
///
/// - Parameter value: An enum value; other values print as `String(describing:)`.
/// - Returns: The case name, e.g. `awaitingKey` for `.awaitingKey(attempt)`.
package func caseName(of value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .enum, let child = mirror.children.first, let label = child.label {
        if let nested = child.value as? any ChildMachineState { return nested.chartStateName }
        return label
    }
    return String(describing: value)
}

/// A child machine held as a parent machine's state value (a compound state of the parent's
/// chart): the parent's state is named by the child's current leaf state, so the runner checks and
/// records the child's transitions on the parent's chart.
///
/// ```swift
/// enum State { case idle, enteringPin(PinEntry), done }   // named "awaitingPin", ...
/// ```
package protocol ChildMachineState: Sendable {
    /// The chart name of the child's current leaf state.
    var chartStateName: String { get }
}
