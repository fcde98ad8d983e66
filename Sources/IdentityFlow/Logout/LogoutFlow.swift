import Statechart

/// Performs a ``LogoutMachine``'s effects.
final class LogoutFlow: FlowPerformer {
    typealias Machine = LogoutMachine

    let engine: FlowEngine<LogoutMachine>
    private let steps: LogoutSteps
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, UserProfile>
    /// Whether the provider is asked to revoke the tokens: not for a device-mode profile, which
    /// keeps its provider session for the next login (``AuthenticatorHome/revokesTokensAtLogout``).
    private let revokes: Bool
    /// The profile's DPoP key, read while the session lives, for the revocation's proof.
    private let proofKey: DPoPKey?

    /// A logout that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - profile: The logged-in profile.
    ///   - tokens: Its session's tokens.
    ///   - host: Where the outcome goes.
    init(steps: LogoutSteps, id: FlowID, profile: UserProfile, tokens: TokenSet, host: FlowHost<UserProfile, UserProfile>) {
        self.steps = steps
        self.profile = profile
        self.host = host
        self.revokes = steps.revokesTokensAtLogout(of: profile)
        self.proofKey = steps.dpopKey(of: profile)
        self.engine = FlowEngine(id: id, machine: LogoutMachine(tokens: tokens), environment: steps.dependencies.environment)
    }

    func perform(_ effect: LogoutMachine.Effect) -> EffectWork<LogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            steps.endSessionLocally()
            return .done
        case .revokeTokens(let tokens):
            let steps = self.steps, revokes = self.revokes, proofKey = self.proofKey
            return engine.call { () throws(IdentityFlowError) in
                if revokes { try await steps.revoke(tokens, proofKey: proofKey) }
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
