import Statechart

/// Performs a ``LogoutMachine``'s effects.
final class LogoutFlow: FlowPerformer {
    typealias Machine = LogoutMachine

    let engine: FlowEngine<LogoutMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, UserProfile>
    /// Whether the provider is asked to revoke the tokens: not for a device-mode profile, which
    /// keeps its provider session for the next login (``StoredProfile/revokesTokensAtLogout``).
    private let revokes: Bool

    init(client: UserClient, id: FlowID, profile: UserProfile, tokens: TokenSet, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.profile = profile
        self.host = host
        self.revokes = client.withState { $0.profiles[profile]?.revokesTokensAtLogout ?? true }
        self.engine = FlowEngine(id: id, machine: LogoutMachine(tokens: tokens), client: client)
    }

    func perform(_ effect: LogoutMachine.Effect) -> EffectWork<LogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            client.endSessionLocally()
            return .done
        case .revokeTokens(let tokens):
            let client = self.client, revokes = self.revokes
            return engine.call { () throws(IdentityFlowError) in
                if revokes { try await client.service.revoke(tokens) }
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
