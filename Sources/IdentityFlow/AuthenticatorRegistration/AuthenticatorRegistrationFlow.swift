import Statechart

/// Performs an ``AuthenticatorRegistrationMachine``'s effects.
final class AuthenticatorRegistrationFlow: FlowPerformer {
    typealias Machine = AuthenticatorRegistrationMachine

    let engine: FlowEngine<AuthenticatorRegistrationMachine>
    private let steps: AuthenticatorRegistrationSteps
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, RegisteredAuthenticator>

    /// A biometric registration that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - profile: The profile biometrics are registered for.
    ///   - host: Where challenges and the outcome go.
    init(steps: AuthenticatorRegistrationSteps, id: FlowID, profile: UserProfile, host: FlowHost<UserProfile, RegisteredAuthenticator>) {
        self.steps = steps
        self.profile = profile
        self.host = host
        self.engine = FlowEngine(id: id, machine: AuthenticatorRegistrationMachine(profile: profile), environment: steps.dependencies.environment)
    }

    func perform(_ effect: AuthenticatorRegistrationMachine.Effect) -> EffectWork<AuthenticatorRegistrationMachine.Event> {
        let profile = profile
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
        case .storeAuthenticator(let pinKey, let tokens):
            engine.commit()
            let steps = self.steps, engine = self.engine
            return engine.call { () throws(IdentityFlowError) in
                try await steps.storeAuthenticator(for: profile, pinKey: pinKey, tokens: tokens, flow: engine.id)
                return .authenticatorStored
            }
        case .deleteProfile:
            return engine.deleteProfile(profile, sessions: steps.sessions)
        case .revokeTokens(let tokens):
            return engine.revoke(tokens, of: profile, pinLoop: steps.pinLoop)
        case .reportSuccess:
            return engine.finish(.success(RegisteredAuthenticator(authenticator: .biometric, profile: profile)), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension AuthenticatorRegistrationMachine.Event: PinEntryEvents {}
