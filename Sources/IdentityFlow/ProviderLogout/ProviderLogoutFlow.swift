import Foundation
import Statechart

/// Performs a ``ProviderLogoutMachine``'s effects.
final class ProviderLogoutFlow: FlowPerformer {
    typealias Machine = ProviderLogoutMachine

    let engine: FlowEngine<ProviderLogoutMachine>
    private let steps: ProviderLogoutSteps
    private let profile: UserProfile
    private let request: EndSessionRequest
    private let host: FlowHost<UserProfile, UserProfile>
    /// The session's last tokens when it ended here, which the revocation takes over the ones the
    /// flow began with (a refresh may have replaced those since).
    private let endedTokens = Locked<TokenSet?>(nil)
    /// The profile's DPoP key, read while the session lives (in device mode it opens with the
    /// session's key), for the revocation's proof.
    private let proofKey: DPoPKey?

    /// A provider logout that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - profile: The logged-in profile.
    ///   - tokens: Its session's tokens.
    ///   - request: The end-session request for the provider.
    ///   - host: Where the challenge and the outcome go.
    init(
        steps: ProviderLogoutSteps, id: FlowID, profile: UserProfile, tokens: TokenSet, request: EndSessionRequest, host: FlowHost<UserProfile, UserProfile>
    ) {
        self.steps = steps
        self.profile = profile
        self.request = request
        self.host = host
        self.proofKey = steps.dependencies.sessions.dpopKey(for: profile)
        self.engine = FlowEngine(id: id, machine: ProviderLogoutMachine(tokens: tokens, request: request), environment: steps.dependencies.environment)
    }

    func perform(_ effect: ProviderLogoutMachine.Effect) -> EffectWork<ProviderLogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            let ended = steps.endSessionLocally()
            endedTokens.withLock { $0 = ended }
            host.started(profile)
            return .done
        case .buildLogoutPage:
            let steps = self.steps, request = self.request
            return engine.call { () throws(IdentityFlowError) in
                guard let url = try await steps.logoutPage(for: request) else { return .logoutPageUnavailable }
                return .logoutPageBuilt(url)
            }
        case .emitLogoutChallenge(let url):
            let ticket = engine.ticket("ProviderLogoutChallenge", answered: ProviderLogoutMachine.Event.redirectReceived)
            steps.awaitRedirect(RedirectWaiter(flowID: engine.id, state: request.state, redirectURI: request.postLogoutRedirectURI, ticket: ticket))
            host.challenge(
                .providerLogout(
                    ProviderLogoutChallenge(
                        userProfile: profile, url: url, postLogoutRedirectURI: request.postLogoutRedirectURI, sender: ticket, releaseObserver: ticket)))
            return .done
        case .revokeTokens(let tokens):
            // The session is over on the device: nothing a cancel could undo from here.
            engine.commit()
            let steps = self.steps, id = engine.id, tokens = endedTokens.withLock { $0 } ?? tokens, proofKey = self.proofKey
            return .run {
                await steps.revokeUnused(tokens, proofKey: proofKey, flow: id)
                return .revocationFinished
            }
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension ProviderLogoutMachine.Event: ChallengeEvents {}
