import Foundation
import Statechart

/// Performs a ``ProviderLogoutMachine``'s effects.
final class ProviderLogoutFlow: FlowPerformer {
    typealias Machine = ProviderLogoutMachine

    let engine: FlowEngine<ProviderLogoutMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let request: EndSessionRequest
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, profile: UserProfile, tokens: TokenSet, request: EndSessionRequest, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.profile = profile
        self.request = request
        self.host = host
        self.engine = FlowEngine(id: id, machine: ProviderLogoutMachine(tokens: tokens, request: request), client: client)
    }

    func perform(_ effect: ProviderLogoutMachine.Effect) -> EffectWork<ProviderLogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            client.endSessionLocally()
            host.started(profile)
            return .done
        case .buildLogoutPage:
            let service = client.service, request = self.request
            return engine.call { () throws(IdentityFlowError) in
                guard let url = try await service.endSessionURL(for: request) else { return .logoutPageUnavailable }
                return .logoutPageBuilt(url)
            }
        case .emitLogoutChallenge(let url):
            let ticket = engine.ticket("ProviderLogoutChallenge", answered: ProviderLogoutMachine.Event.redirectReceived)
            client.awaitRedirect(RedirectWaiter(flowID: engine.id, state: request.state, redirectURI: request.postLogoutRedirectURI, ticket: ticket))
            host.challenge(
                .providerLogout(
                    ProviderLogoutChallenge(
                        userProfile: profile, url: url, postLogoutRedirectURI: request.postLogoutRedirectURI, sender: ticket, releaseObserver: ticket)))
            return .done
        case .revokeTokens(let tokens):
            // The session is over on the device: nothing a cancel could undo from here.
            engine.commit()
            let client = self.client, id = engine.id
            return .run {
                await client.revokeUnused(tokens, flow: id)
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
