import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// (a) and (b): a transition of the registration machine as a value, an event through the runner,
/// and their floors.
enum MachineScenarios {
    /// The events of a custom one-step registration, which touch every kind of transition the
    /// machine has (start, challenge answer, server answer, PIN check, enrol, store) without
    /// parsing a URL.
    static let registrationEvents: [RegistrationMachine.Event] = [
        .started,
        .customDataProvided(Redacted("name=Ada")),
        .customAnswerReceived(CustomRegistrationAnswer(info: CustomInfo(status: 2000), tokens: TokenSet(accessToken: "at-1", refreshToken: "rt-1"))),
        .pinProvided(Redacted("24680")),
        .pinEnrolled,
        .profileStored,
    ]

    static let context = RegistrationMachine.Context(
        profile: UserProfile(profileId: "bench"),
        provider: IdentityProvider(identifier: "bench-one-step", name: "Bench", kind: .custom(.oneStep)),
        authorization: nil, pinPolicy: PinPolicy(), deviceSecret: Redacted(Array(repeating: 1, count: PinProof.deviceSecretLength)))

    /// (a) ns per transition of `RegistrationMachine`, averaged over whole registrations.
    static func machineTransition(_ settings: BenchSettings) async -> Stats {
        let flows = settings.count(200_000)
        let events = registrationEvents
        return await Harness.measure(settings) {
            await Harness.time(operations: flows * events.count) {
                for _ in 0..<flows {
                    var machine = RegistrationMachine(context: context)
                    for event in events { blackHole(machine.handle(event)) }
                }
            }
        }
    }

    /// (g) ns per transition of a hand-written enum switch over the same six steps.
    static func floorSwitch(_ settings: BenchSettings) async -> Stats {
        let flows = settings.count(2_000_000)
        let events = FloorSwitchMachine.registration
        return await Harness.measure(settings) {
            await Harness.time(operations: flows * events.count) {
                for _ in 0..<flows {
                    var machine = FloorSwitchMachine()
                    for event in events { blackHole(machine.handle(event)) }
                }
            }
        }
    }

    /// (b) ns per event sent to a `MachineRunner` from outside its actor; no effect, a transition
    /// log with no subscriber (as every client has), chart coverage off.
    @inline(never)
    static func runnerEvent(_ settings: BenchSettings) async -> Stats {
        let events = settings.count(500_000)
        return await Harness.measure(settings) {
            let runner = MachineRunner(machine: ToggleMachine(), log: TransitionLog())
            await runner.start(NoEffects(), with: .toggle)
            return await Harness.time(operations: events) {
                for _ in 0..<events { blackHole(await runner.send(.toggle)) }
            }
        }
    }

    /// (g) ns per actor method call with an enum switch.
    @inline(never)  // as runnerEvent: measured outside the suite's long function
    static func floorActorCall(_ settings: BenchSettings) async -> Stats {
        let events = settings.count(500_000)
        return await Harness.measure(settings) {
            let actor = FloorActor()
            return await Harness.time(operations: events) {
                for _ in 0..<events { blackHole(await actor.handle(.toggle)) }
            }
        }
    }
}
