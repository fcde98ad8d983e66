import Statechart

/// Performs a ``DeregistrationMachine``'s effects.
final class DeregistrationFlow: FlowPerformer {
    typealias Machine = DeregistrationMachine

    let engine: FlowEngine<DeregistrationMachine>
    private let steps: DeregistrationSteps
    private let stored: StoredProfile
    /// The session's PIN key when the profile is logged in with the PIN, taken at the start.
    private let pinKey: ProvenPinKey
    private let host: FlowHost<UserProfile, UserProfile>

    /// A deregistration that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - stored: The profile to remove.
    ///   - host: Where the outcome goes.
    init(steps: DeregistrationSteps, id: FlowID, stored: StoredProfile, host: FlowHost<UserProfile, UserProfile>) {
        self.steps = steps
        self.stored = stored
        self.pinKey = steps.sessions.sessionPinKey(for: stored.profile)
        self.host = host
        self.engine = FlowEngine(id: id, machine: DeregistrationMachine(profile: stored.profile), environment: steps.dependencies.environment)
    }

    func perform(_ effect: DeregistrationMachine.Effect) -> EffectWork<DeregistrationMachine.Event> {
        let stored = stored
        switch effect {
        case .deregisterOnServer:
            let steps = self.steps, pinKey = self.pinKey, id = engine.id
            return .run {
                do throws(IdentityFlowError) { try await steps.deregisterOnServer(stored, pinKey: pinKey, flow: id) } catch { return .serverFailed(error) }
                return .serverDeregistered
            }
        case .deleteLocalData:
            let steps = self.steps
            return engine.call { () throws(IdentityFlowError) in
                try steps.deleteProfileLocally(stored.profile)
                return .localDataDeleted
            }
        case .reportSuccess:
            return engine.finish(.success(stored.profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension DeregistrationMachine.Event: FlowEvents {}
