import Statechart

/// Performs a ``ChangePinMachine``'s effects.
final class ChangePinFlow: FlowPerformer {
    typealias Machine = ChangePinMachine

    let engine: FlowEngine<ChangePinMachine>
    private let client: UserClient
    private let context: ChangePinMachine.Context
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, context: ChangePinMachine.Context, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.context = context
        self.host = host
        self.engine = FlowEngine(id: id, machine: ChangePinMachine(context: context), client: client)
    }

    func perform(_ effect: ChangePinMachine.Effect) -> EffectWork<ChangePinMachine.Event> {
        let profile = context.profile
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
        case .emitCreatePinChallenge(let error):
            host.challenge(engine.createPinChallenge(for: profile, error: error, answered: ChangePinMachine.Event.pinProvided))
            return .done
        case .enrolPin(let pin, let tokens, let currentKey):
            // From here a cancel changes nothing (cancelCurrentFlow() says false): the server may
            // take the new PIN at any moment, and the device must end up agreeing with it.
            engine.commit()
            let client = self.client
            return engine.call { () throws(IdentityFlowError) in
                return .pinEnrolled(try await client.enrolNewPin(pin, for: profile, currentKey: currentKey, accessToken: tokens.accessToken))
            }
        case .storeSession(let tokens, let pinKey):
            engine.commit()
            let client = self.client, engine = self.engine
            return engine.call { () throws(IdentityFlowError) in
                try await client.storeSession(profile, tokens: tokens, pinKey: pinKey, flow: engine.id)
                return .sessionStored
            }
        case .deleteProfile:
            return engine.deleteProfile(profile, client: client)
        case .revokeTokens(let tokens):
            return engine.revoke(tokens, client: client)
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension ChangePinMachine.Event: PinEntryEvents {}
