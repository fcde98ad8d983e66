/// Carries out a machine's effects for a ``MachineRunner``.
///
/// The runner calls ``perform(_:)`` on its own actor, synchronously, in order, right after the
/// transition that named the effect. Effects that only hand something over (ask the user,
/// report a result) do it there and return ``EffectWork/done``, so their order is the machine's
/// order. Effects that wait for I/O return ``EffectWork/run(_:)``: the runner runs that work as a
/// task it owns and sends the event it returns back to the machine.
public protocol EffectPerformer<Machine>: AnyObject, Sendable {
    /// The machine whose effects this performs.
    associatedtype Machine: StateMachine

    /// Performs an effect, or describes the asynchronous work that performs it.
    /// - Parameter effect: The effect the machine named.
    /// - Returns: ``EffectWork/done``, or the work to run.
    func perform(_ effect: Machine.Effect) -> EffectWork<Machine.Event>
}

/// What remains of an effect after ``EffectPerformer/perform(_:)`` returned.
public enum EffectWork<Event: Sendable>: Sendable {
    /// Nothing: the effect is done.
    case done
    /// Asynchronous work; the event it returns, if any, is sent back to the machine. The runner
    /// cancels it when the machine takes another transition or finishes.
    ///
    /// The work starts at once, on the runner's actor, inside the transition's step, and runs there
    /// until it first suspends (it is `nonisolated(nonsending)`): work that finishes without
    /// suspending (an in-process server, a local store) costs no task switch, and its event is
    /// handled right after the step's other effects.
    case run(Work)

    /// Work an effect leaves to do: it returns the event to send back, if any.
    public typealias Work = nonisolated(nonsending) @Sendable () async -> Event?
}
