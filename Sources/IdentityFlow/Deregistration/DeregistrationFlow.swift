import Statechart

/// Performs a ``DeregistrationMachine``'s effects.
final class DeregistrationFlow: FlowPerformer {
    typealias Machine = DeregistrationMachine

    let engine: FlowEngine<DeregistrationMachine>
    private let client: UserClient
    private let stored: StoredProfile
    /// The session's PIN key when the profile is logged in with the PIN, taken at the start.
    private let pinKey: ProvenPinKey
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, stored: StoredProfile, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.stored = stored
        self.pinKey = client.sessionPinKey(for: stored.profile)
        self.host = host
        self.engine = FlowEngine(id: id, machine: DeregistrationMachine(profile: stored.profile), client: client)
    }

    func perform(_ effect: DeregistrationMachine.Effect) -> EffectWork<DeregistrationMachine.Event> {
        let stored = stored
        switch effect {
        case .deregisterOnServer:
            let client = self.client, pinKey = self.pinKey, id = engine.id
            return .run {
                do throws(IdentityFlowError) { try await client.deregisterOnServer(stored, pinKey: pinKey, flow: id) } catch { return .serverFailed(error) }
                return .serverDeregistered
            }
        case .deleteLocalData:
            let client = self.client
            return engine.call { () throws(IdentityFlowError) in
                try client.deleteProfileLocally(stored.profile)
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
