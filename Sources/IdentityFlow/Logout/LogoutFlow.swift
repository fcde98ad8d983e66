import Statechart

/// Performs a ``LogoutMachine``'s effects.
final class LogoutFlow: FlowPerformer {
    typealias Machine = LogoutMachine

    let engine: FlowEngine<LogoutMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, profile: UserProfile, tokens: TokenSet, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.profile = profile
        self.host = host
        self.engine = FlowEngine(id: id, machine: LogoutMachine(tokens: tokens), client: client)
    }

    func perform(_ effect: LogoutMachine.Effect) -> EffectWork<LogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            client.endSessionLocally()
            return .done
        case .revokeTokens(let tokens):
            let client = self.client
            return engine.call { () throws(IdentityFlowError) in
                try await client.service.revoke(tokens)
                return .tokensRevoked
            }
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension LogoutMachine.Event: FlowEvents {}
