import Foundation
import Statechart

/// Logging out at the provider (OpenID Connect RP-Initiated Logout 1.0) as a pure state
/// machine. The session ends on the device at once; then the provider's logout page is opened
/// in the browser (a ``ProviderLogoutChallenge``), its redirect checked (the post-logout
/// redirect URI and the `state` sent), and the tokens revoked, best effort, whatever the
/// browser did. Its chart is ``ProviderLogoutMachine/chart``.
///
/// The outcome: ``State/loggedOut`` when the provider confirmed; otherwise
/// ``State/loggedOutLocally`` with ``ErrorCode/providerLogoutNotSupported`` (no
/// `end_session_endpoint`) or ``ErrorCode/providerLogoutUnconfirmed`` (cancelled, another
/// `state`, an error, the page could not be built), the cause as its `underlying` error.
package struct ProviderLogoutMachine: StateMachine {
    /// Whether the provider confirmed the logout, as far as the flow got.
    package enum Outcome: Sendable, Equatable {
        /// The provider's redirect came back with the `state` sent.
        case confirmed
        /// It did not; the error the flow ends with.
        case unconfirmed(IdentityFlowError)
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The service builds the provider's logout page URL.
        case preparingLogoutPage
        /// The host shows the logout page; waiting for the redirect back.
        case awaitingBrowserRedirect
        /// The tokens are revoked (best effort); the outcome is known.
        case revokingTokens(Outcome)
        /// Done: logged out here and at the provider. Final.
        case loggedOut
        /// Done: logged out on this device; the provider did not confirm. Final.
        case loggedOutLocally
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The service built the logout page URL.
        case logoutPageBuilt(URL)
        /// The provider offers no `end_session_endpoint`.
        case logoutPageUnavailable
        /// The browser came back.
        case redirectReceived(URL)
        /// The logout challenge was cancelled, released or timed out.
        case challengeAbandoned(ChallengeAbandonment)
        /// The revocation ended (its failure is logged: the session is over on the device anyway).
        case revocationFinished
        /// A server call failed.
        case serviceFailed(IdentityFlowError)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// End the session on the device.
        case endLocalSession
        /// Ask the service for the logout page URL.
        case buildLogoutPage
        /// Hand the host the ``ProviderLogoutChallenge``.
        case emitLogoutChallenge(URL)
        /// Revoke the tokens, best effort.
        case revokeTokens(TokenSet)
        /// Tell the host the user is logged out, here and at the provider.
        case reportSuccess
        /// Tell the host the provider did not confirm (the user is logged out here).
        case reportFailure(IdentityFlowError)
    }

    /// The session's tokens.
    package let tokens: TokenSet
    /// What the logout page is opened with.
    package let request: EndSessionRequest
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - tokens: The session's tokens.
    ///   - request: The hint, post-logout redirect URI and state.
    ///   - state: The state to start in.
    package init(tokens: TokenSet, request: EndSessionRequest, state: State = .idle) {
        self.tokens = tokens
        self.request = request
        self.state = state
    }

    /// Whether the flow ended.
    package var isFinished: Bool { state == .loggedOut || state == .loggedOutLocally }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            state = .preparingLogoutPage
            return Reaction(Effects(.endLocalSession, .buildLogoutPage))
        case .preparingLogoutPage:
            switch event {
            case .logoutPageBuilt(let url):
                state = .awaitingBrowserRedirect
                return Reaction(Effects(.emitLogoutChallenge(url)))
            case .logoutPageUnavailable:
                return revoke(.unconfirmed(IdentityFlowError(.providerLogoutNotSupported)))
            case .serviceFailed(let cause):
                return revoke(.unconfirmed(Self.unconfirmed(cause)))
            case .cancelRequested:
                return revoke(.unconfirmed(Self.unconfirmed(ChallengeAbandonment.flowCancelled)))
            default:
                return nil
            }
        case .awaitingBrowserRedirect:
            switch event {
            case .redirectReceived(let url):
                let redirect = ProviderLogoutRedirect.check(url, against: request)
                guard let problem = redirect.failure(expecting: request.postLogoutRedirectURI) else {
                    return revoke(.confirmed, guard: "confirmed")
                }
                return revoke(.unconfirmed(Self.unconfirmed(problem)), guard: "refused")
            case .challengeAbandoned(let how):
                return revoke(.unconfirmed(Self.unconfirmed(how.error)))
            case .cancelRequested:
                return revoke(.unconfirmed(Self.unconfirmed(ChallengeAbandonment.flowCancelled)))
            default:
                return nil
            }
        case .revokingTokens(let outcome):
            guard case .revocationFinished = event else { return nil }
            switch outcome {
            case .confirmed:
                state = .loggedOut
                return Reaction(guard: "confirmed", Effects(.reportSuccess))
            case .unconfirmed(let error):
                state = .loggedOutLocally
                return Reaction(guard: "unconfirmed", Effects(.reportFailure(error)))
            }
        case .loggedOut, .loggedOutLocally:
            return nil
        }
    }

    private mutating func revoke(_ outcome: Outcome, guard guardName: String? = nil) -> Reaction<Effect> {
        state = .revokingTokens(outcome)
        return Reaction(guard: guardName, Effects(.revokeTokens(tokens)))
    }

    private static func unconfirmed(_ cause: IdentityFlowError) -> IdentityFlowError {
        IdentityFlowError(
            .providerLogoutUnconfirmed,
            "Logged out on this device; the provider did not confirm the logout, so its browser session may remain: \(cause.message)", underlying: cause)
    }
}
