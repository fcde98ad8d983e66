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
        self.engine = FlowEngine(id: id, machine: AuthenticatorRegistrationMachine(profile: profile), client: client)
    }

    func perform(_ effect: AuthenticatorRegistrationMachine.Effect) -> EffectWork<AuthenticatorRegistrationMachine.Event> {
        let profile = profile
        switch effect {
        case .reportStarted:
            host.started(profile)
            return .done
        case .fetchPinStatus:
            return engine.fetchPinStatus(of: profile, client: client)
        case .emitPinChallenge(let counters, let error):
            return engine.emitPinChallenge(for: profile, counters: counters, error: error, to: host)
        case .verifyPin(let pin):
            return engine.verifyPin(pin, of: profile, client: client)
        case .storeAuthenticator(let key, let tokens):
            let client = self.client
            return engine.call { () throws(IdentityFlowError) in
                try client.updateStoredProfile(profile) { $0.biometricKey = key }
                try client.storeSession(profile, tokens: tokens)
                return .authenticatorStored
            }
        case .deleteProfile:
            return engine.deleteProfile(profile, client: client)
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension AuthenticatorRegistrationMachine.Event: PinEntryEvents {}
