import Statechart

/// Events every flow machine has, so the shared plumbing can produce them.
protocol FlowEvents: Sendable {
    /// The first event of every flow.
    static var started: Self { get }
    /// The host cancelled the flow, or its task was cancelled.
    static var cancelRequested: Self { get }
    /// A server call or the storage failed.
    static func serviceFailed(_ error: IdentityFlowError) -> Self
}

/// Events of flows that hand the host challenges.
protocol ChallengeEvents: FlowEvents {
    /// A challenge ended without an answer.
    static func challengeAbandoned(_ how: ChallengeAbandonment) -> Self
}

/// A flow: performs its machine's effects through a ``FlowEngine``.
protocol FlowPerformer: EffectPerformer where Machine.Event: FlowEvents {
    var engine: FlowEngine<Machine> { get }
    /// The event the machine starts with: `started`, unless the flow continues an earlier one.
    var startEvent: Machine.Event { get }
}

extension FlowPerformer {
    var startEvent: Machine.Event { .started }
}

extension FlowEngine where Machine.Event: FlowEvents {
    /// Runs a call as owned work; a thrown error becomes `serviceFailed`.
    func call(_ body: nonisolated(nonsending) @escaping @Sendable () async throws(IdentityFlowError) -> Machine.Event) -> EffectWork<Machine.Event> {
        .run {
            do throws(IdentityFlowError) { return try await body() } catch { return .serviceFailed(error) }
        }
    }
}

extension FlowEngine where Machine.Event: ChallengeEvents {
    /// A new ``CreatePinChallenge`` bound to this flow.
    func createPinChallenge(for profile: UserProfile, error: IdentityFlowError?, answered: @escaping @Sendable (Redacted<String>) -> Machine.Event) -> Challenge
    {
        let ticket = ticket("CreatePinChallenge", answered: answered)
        return .createPin(
            CreatePinChallenge(userProfile: profile, pinLength: configuration.pinPolicy.length, error: error, sender: ticket, releaseObserver: ticket))
    }

    /// A new ``PinChallenge`` bound to this flow.
    func pinChallenge(
        for profile: UserProfile, counters: PinCounters, error: IdentityFlowError?, answered: @escaping @Sendable (Redacted<String>) -> Machine.Event
    ) -> Challenge {
        let ticket = ticket("PinChallenge", answered: answered)
        return .pin(PinChallenge(userProfile: profile, counters: counters, error: error, sender: ticket, releaseObserver: ticket))
    }
}
