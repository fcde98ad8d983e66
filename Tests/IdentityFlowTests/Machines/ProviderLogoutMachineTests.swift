import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The provider logout machine as a plain value.
@Suite("Provider logout machine")
struct ProviderLogoutMachineTests {
    static let tokens = TokenSet(accessToken: "at", refreshToken: "rt", idToken: "h.p.s")
    static let redirectURI = URL(string: "identityflow-test://callback")!
    static let request = EndSessionRequest(idTokenHint: Redacted("h.p.s"), postLogoutRedirectURI: redirectURI, state: Redacted("S1"))
    static let page = URL(string: "https://idp.example/logout?state=S1")!
    static let confirmed = URL(string: "identityflow-test://callback?state=S1")!
    static let forged = URL(string: "identityflow-test://callback?state=S2")!
    static let elsewhere = URL(string: "other://callback?state=S1")!
    static let refused = URL(string: "identityflow-test://callback?state=S1&error=server_error")!

    @Test("ProviderLogoutMachine follows its chart")
    func sweep() {
        typealias M = ProviderLogoutMachine
        ChartSweep<M>(
            variants: [M(tokens: Self.tokens, request: Self.request)],
            events: [
                .started, .logoutPageBuilt(Self.page), .logoutPageUnavailable, .redirectReceived(Self.confirmed), .redirectReceived(Self.forged),
                .challengeAbandoned(.cancelled), .challengeAbandoned(.released), .challengeAbandoned(.timedOut), .revocationFinished,
                .serviceFailed(IdentityFlowError(.networkConnectivityFailure)), .cancelRequested,
            ]
        ).run()
    }

    @Test("the session ends on the device first, then the logout page is built")
    func startEndsTheSession() {
        var machine = ProviderLogoutMachine(tokens: Self.tokens, request: Self.request)
        #expect(machine.handle(.started)?.effects == [.endLocalSession, .buildLogoutPage])
        #expect(machine.handle(.logoutPageBuilt(Self.page))?.effects == [.emitLogoutChallenge(Self.page)])
        #expect(machine.state == .awaitingBrowserRedirect)
    }

    @Test("a redirect with the state sent confirms; the tokens are revoked, then success")
    func confirmedRedirect() {
        var machine = ProviderLogoutMachine(tokens: Self.tokens, request: Self.request, state: .awaitingBrowserRedirect)
        let reaction = machine.handle(.redirectReceived(Self.confirmed))
        #expect(reaction?.guardName == "confirmed")
        #expect(reaction?.effects == [.revokeTokens(Self.tokens)])
        #expect(machine.handle(.revocationFinished)?.effects == [.reportSuccess])
        #expect(machine.state == .loggedOut)
    }

    @Test(
        "another state, another redirect URI or an error leaves the provider unconfirmed (11063), with the cause",
        arguments: [(forged, ErrorCode.invalidState), (elsewhere, .redirectMismatch), (refused, .externalIdentityProviderFailure)])
    func unconfirmedRedirect(url: URL, cause: ErrorCode) throws {
        var machine = ProviderLogoutMachine(tokens: Self.tokens, request: Self.request, state: .awaitingBrowserRedirect)
        #expect(machine.handle(.redirectReceived(url))?.guardName == "refused")
        let effects = try #require(machine.handle(.revocationFinished)?.effects)
        guard case .reportFailure(let error) = effects.first else {
            Issue.record("expected a failure, got \(effects)")
            return
        }
        #expect(error.code == .providerLogoutUnconfirmed)
        #expect((error.underlying as? IdentityFlowError)?.code == cause)
        #expect(machine.state == .loggedOutLocally)
    }

    @Test("no end_session_endpoint: the tokens are still revoked, and the outcome is 11062")
    func noEndpoint() {
        var machine = ProviderLogoutMachine(tokens: Self.tokens, request: Self.request, state: .preparingLogoutPage)
        #expect(machine.handle(.logoutPageUnavailable)?.effects == [.revokeTokens(Self.tokens)])
        #expect(machine.handle(.revocationFinished)?.effects == [.reportFailure(IdentityFlowError(.providerLogoutNotSupported))])
    }

    @Test("the end-session request's parameters: id_token_hint, client_id, post_logout_redirect_uri, state; no secret in its description")
    func requestParameters() {
        let names = Self.request.parameters(clientID: "app").map(\.0)
        #expect(names == ["id_token_hint", "client_id", "post_logout_redirect_uri", "state"])
        #expect(!Self.request.description.contains("h.p.s") && !Self.request.description.contains("S1"))
        let unhinted = EndSessionRequest(idTokenHint: nil, postLogoutRedirectURI: Self.redirectURI, state: Redacted("S"))
        #expect(unhinted.parameters(clientID: nil).map(\.0) == ["post_logout_redirect_uri", "state"])
    }
}
