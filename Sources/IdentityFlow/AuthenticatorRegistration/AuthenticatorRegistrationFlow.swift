import Statechart

/// Performs an ``AuthenticatorRegistrationMachine``'s effects.
final class AuthenticatorRegistrationFlow: FlowPerformer {
    typealias Machine = AuthenticatorRegistrationMachine

    let engine: FlowEngine<AuthenticatorRegistrationMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, RegisteredAuthenticator>

    init(client: UserClient, id: FlowID, profile: UserProfile, host: FlowHost<UserProfile, RegisteredAuthenticator>) {
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
        case .storeAuthenticator(let pinKey, let tokens):
            engine.commit()
            let client = self.client, engine = self.engine
            return engine.call { () throws(IdentityFlowError) in
                do throws(IdentityFlowError) {
                    try await client.registerBiometricKey(for: profile, pinKey: pinKey, accessToken: tokens.accessToken, flow: engine.id)
                } catch {
                    await client.revokeUnused(tokens, flow: engine.id)
                    throw error
                }
                try await client.storeSession(profile, tokens: tokens, pinKey: pinKey, flow: engine.id)
                return .authenticatorStored
            }
        case .deleteProfile:
            return engine.deleteProfile(profile, client: client)
        case .revokeTokens(let tokens):
            return engine.revoke(tokens, client: client)
        case .reportSuccess:
            return engine.finish(.success(RegisteredAuthenticator(authenticator: .biometric, profile: profile)), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension AuthenticatorRegistrationMachine.Event: PinEntryEvents {}
