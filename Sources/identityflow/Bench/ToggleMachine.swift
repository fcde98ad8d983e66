import Statechart

/// The smallest machine the engine can run: two states, one event, no effect. It measures what
/// the runner adds to an event.
struct ToggleMachine: StateMachine {
    enum State: Sendable, Equatable { case off, on }
    enum Event: Sendable { case toggle }
    typealias Effect = Never

    static let chart = Chart(
        name: "Toggle", swiftType: "ToggleMachine", initial: "off", finals: [],
        transitions: [.init(from: "off", on: "toggle", to: "on"), .init(from: "on", on: "toggle", to: "off")])

    private(set) var state = State.off
    var isFinished: Bool { false }

    mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .off: state = .on
        case .on: state = .off
        }
        return Reaction()
    }
}

/// Performs nothing: the toggle machine names no effect.
final class NoEffects: EffectPerformer {
    typealias Machine = ToggleMachine

    func perform(_ effect: Never) -> EffectWork<ToggleMachine.Event> {}
}
