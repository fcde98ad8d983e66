/// Performs an ``AuthenticatorRegistrationMachine``'s effects.
final class AuthenticatorRegistrationFlow: FlowPerformer {
    typealias Machine = AuthenticatorRegistrationMachine

    let engine: FlowEngine<AuthenticatorRegistrationMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, profile: UserProfile, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.profile = profile
        self.host = host
        self.engine = FlowEngine(
            id: id, machine: AuthenticatorRegistrationMachine(profile: profile), configuration: client.configuration,
            log: client.transitionLog, release: { [weak client] id in client?.flowEnded(id) })
    }

    func perform(_ effect: AuthenticatorRegistrationMachine.Effect) -> EffectWork<AuthenticatorRegistrationMachine.Event> {
        let profile = profile
        switch effect {
        case .reportStarted:
            host.started(profile)
            return .done
        case .fetchPinStatus:
            return engine.call { [client] () throws(IdentityFlowError) in
                guard let counters = try await client.pinStatus(for: profile) else { return .pinChecked(.deregistered) }
                return .pinStatusFetched(counters)
            }
        case .emitPinChallenge(let counters, let error):
            host.challenge(engine.pinChallenge(for: profile, counters: counters, error: error, answered: AuthenticatorRegistrationMachine.Event.pinProvided))
            return .done
        case .verifyPin(let pin):
            return engine.call { [client] () throws(IdentityFlowError) in .pinChecked(try await client.checkPin(pin, for: profile)) }
        case .storeAuthenticator(let key, let tokens):
            return engine.call { [client] () throws(IdentityFlowError) in
                try client.updateStoredProfile(profile) { $0.biometricKey = key }
                try client.storeSession(profile, tokens: tokens)
                return .authenticatorStored
            }
        case .deleteProfile:
            return .run { [client, engine] in
                client.forgetProfile(profile, flow: engine.id)
                return .profileDeleted
            }
        case .reportSuccess:
            engine.end()
            host.finished(.success(profile))
            return .done
        case .reportFailure(let error):
            engine.end()
            host.finished(.failure(error))
            return .done
        }
    }
}

extension AuthenticatorRegistrationMachine.Event: ChallengeEvents {}
