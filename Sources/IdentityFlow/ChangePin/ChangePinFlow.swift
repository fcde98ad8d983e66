import Statechart

/// Performs a ``ChangePinMachine``'s effects.
final class ChangePinFlow: FlowPerformer {
    typealias Machine = ChangePinMachine

    let engine: FlowEngine<ChangePinMachine>
    private let steps: ChangePinSteps
    private let context: ChangePinMachine.Context
    private let host: FlowHost<UserProfile, UserProfile>

    /// A PIN change that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - context: What the PIN change is about.
    ///   - host: Where challenges and the outcome go.
    init(steps: ChangePinSteps, id: FlowID, context: ChangePinMachine.Context, host: FlowHost<UserProfile, UserProfile>) {
        self.steps = steps
        self.context = context
        self.host = host
        self.engine = FlowEngine(id: id, machine: ChangePinMachine(context: context), environment: steps.dependencies.environment)
    }

    func perform(_ effect: ChangePinMachine.Effect) -> EffectWork<ChangePinMachine.Event> {
        let profile = context.profile
        switch effect {
        case .reportStarted:
            host.started(profile)
            return .done
        case .fetchPinStatus:
            return engine.fetchPinStatus(of: profile, pinLoop: steps.pinLoop)
        case .emitPinChallenge(let counters, let error):
            return engine.emitPinChallenge(for: profile, counters: counters, error: error, to: host)
        case .verifyPin(let pin):
            return engine.verifyPin(pin, of: profile, pinLoop: steps.pinLoop)
        case .emitCreatePinChallenge(let error):
            host.challenge(engine.createPinChallenge(for: profile, error: error, answered: ChangePinMachine.Event.pinProvided))
            return .done
        case .enrolPin(let pin, let tokens, let currentKey):
            // From here a cancel changes nothing (cancelCurrentFlow() says false): the server may
            // take the new PIN at any moment, and the device must end up agreeing with it.
            engine.commit()
            let steps = self.steps
            return engine.call { () throws(IdentityFlowError) in
                return .pinEnrolled(try await steps.enrolNewPin(pin, for: profile, currentKey: currentKey, tokens: tokens))
            }
        case .storeSession(let tokens, let pinKey):
            engine.commit()
            let steps = self.steps, engine = self.engine
            return engine.call { () throws(IdentityFlowError) in
                try await steps.session.storeSession(profile, tokens: tokens, pinKey: pinKey, flow: engine.id)
                return .sessionStored
            }
        case .deleteProfile:
            return engine.deleteProfile(profile, sessions: steps.sessions)
        case .revokeTokens(let tokens):
            return engine.revoke(tokens, of: profile, pinLoop: steps.pinLoop)
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension ChangePinMachine.Event: PinEntryEvents {}
