/// Performs an ``AuthenticationMachine``'s effects.
final class AuthenticationFlow: FlowPerformer {
    typealias Machine = AuthenticationMachine

    let engine: FlowEngine<AuthenticationMachine>
    private let client: UserClient
    private let context: AuthenticationMachine.Context
    private let host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>

    init(client: UserClient, id: FlowID, context: AuthenticationMachine.Context, host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>) {
        self.client = client
        self.context = context
        self.host = host
        self.engine = FlowEngine(
            id: id, machine: AuthenticationMachine(context: context), configuration: client.configuration,
            log: client.transitionLog, release: { [weak client] id in client?.flowEnded(id) })
    }

    func perform(_ effect: AuthenticationMachine.Effect) -> EffectWork<AuthenticationMachine.Event> {
        let profile = context.profile
        switch effect {
        case .reportStarted:
            host.started(context)
            return .done
        case .logOutPreviousUser:
            return engine.call { [client, engine] () throws(IdentityFlowError) in
                await client.logOutLocallyRevoking(flow: engine.id)
                return .previousUserLoggedOut
            }
        case .emitBiometricChallenge:
            let (ticket, sender) = engine.ticket("BiometricChallenge", answered: AuthenticationMachine.Event.biometricAnswered)
            host.challenge(.biometric(BiometricChallenge(userProfile: profile, authenticator: context.authenticator, sender: sender, releaseObserver: ticket)))
            return .done
        case .verifyBiometricKey:
            return engine.call { [client] () throws(IdentityFlowError) in .pinChecked(try await client.checkBiometricKey(for: profile)) }
        case .fetchPinStatus:
            return engine.call { [client] () throws(IdentityFlowError) in
                guard let counters = try await client.pinStatus(for: profile) else { return .pinChecked(.deregistered) }
                return .pinStatusFetched(counters)
            }
        case .emitPinChallenge(let counters, let error):
            host.challenge(engine.pinChallenge(for: profile, counters: counters, error: error, answered: AuthenticationMachine.Event.pinProvided))
            return .done
        case .verifyPin(let pin):
            return engine.call { [client] () throws(IdentityFlowError) in .pinChecked(try await client.checkPin(pin, for: profile)) }
        case .storeSession(let tokens):
            return engine.call { [client] () throws(IdentityFlowError) in
                try client.storeSession(profile, tokens: tokens)
                return .sessionStored
            }
        case .deleteProfile:
            return .run { [client, engine] in
                client.forgetProfile(profile, flow: engine.id)
                return .profileDeleted
            }
        case .reportSuccess:
            engine.end()
            host.finished(.success(AuthenticationResult(profile: profile, authenticator: context.authenticator, info: nil)))
            return .done
        case .reportFailure(let error):
            engine.end()
            host.finished(.failure(error))
            return .done
        }
    }
}

extension AuthenticationMachine.Event: ChallengeEvents {}
