import Statechart

/// Performs an ``AuthenticationMachine``'s effects.
final class AuthenticationFlow: FlowPerformer {
    typealias Machine = AuthenticationMachine

    let engine: FlowEngine<AuthenticationMachine>
    private let steps: AuthenticationSteps
    private let context: AuthenticationMachine.Context
    private let host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>
    /// Whether the last proof the server checked came from the PIN (after a biometric fallback,
    /// the PIN is the authenticator that succeeded).
    private let provedWithPin = Locked(false)

    /// A login that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - context: What the login is about.
    ///   - host: Where challenges and the outcome go.
    init(steps: AuthenticationSteps, id: FlowID, context: AuthenticationMachine.Context, host: FlowHost<AuthenticationMachine.Context, AuthenticationResult>) {
        self.steps = steps
        self.context = context
        self.host = host
        self.engine = FlowEngine(id: id, machine: AuthenticationMachine(context: context), environment: steps.dependencies.environment)
    }

    func perform(_ effect: AuthenticationMachine.Effect) -> EffectWork<AuthenticationMachine.Event> {
        let profile = context.profile
        switch effect {
        case .reportStarted:
            host.started(context)
            return .done
        case .logOutPreviousUser:
            let steps = self.steps, engine = self.engine
            return engine.call { () throws(IdentityFlowError) in
                await steps.session.logOutLocallyRevoking(flow: engine.id)
                return .previousUserLoggedOut
            }
        case .emitBiometricChallenge:
            let ticket = engine.ticket("BiometricChallenge", answered: AuthenticationMachine.Event.biometricAnswered)
            host.challenge(.biometric(BiometricChallenge(userProfile: profile, authenticator: context.authenticator, sender: ticket, releaseObserver: ticket)))
            return .done
        case .verifyBiometricKey:
            let steps = self.steps
            return engine.call { () throws(IdentityFlowError) in .pinChecked(try await steps.checkBiometricKey(for: profile)) }
        case .fetchPinStatus:
            return engine.fetchPinStatus(of: profile, pinLoop: steps.pinLoop)
        case .emitPinChallenge(let counters, let error):
            return engine.emitPinChallenge(for: profile, counters: counters, error: error, to: host)
        case .verifyPin(let pin):
            provedWithPin.withLock { $0 = true }
            return engine.verifyPin(pin, of: profile, pinLoop: steps.pinLoop)
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
            let authenticator = provedWithPin.current ? Authenticator.pin : context.authenticator
            return engine.finish(.success(AuthenticationResult(profile: profile, authenticator: authenticator, info: nil)), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension AuthenticationMachine.Event: PinEntryEvents {}
