import Statechart

/// Logging out as a pure state machine: the session ends on the device at once, then the
/// server is asked to revoke the tokens. When it cannot be told, the logout is local only
/// (``ErrorCode/localLogout``). Its chart is ``LogoutMachine/chart``.
package struct LogoutMachine: StateMachine {
    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The server revokes the tokens.
        case revokingTokens
        /// Done: logged out here and on the server. Final.
        case loggedOut
        /// Done: logged out on this device only. Final.
        case loggedOutLocally
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server revoked the tokens.
        case tokensRevoked
        /// The server could not be told.
        case serviceFailed(IdentityFlowError)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// End the session on the device.
        case endLocalSession
        /// Ask the server to revoke the tokens.
        case revokeTokens(TokenSet)
        /// Tell the host the user is logged out.
        case reportSuccess
        /// Tell the host the logout was local only.
        case reportFailure(IdentityFlowError)
    }

    /// The tokens of the session that ends.
    package let tokens: TokenSet
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - tokens: The session's tokens.
    ///   - state: The state to start in.
    package init(tokens: TokenSet, state: State = .idle) {
        self.tokens = tokens
        self.state = state
    }

    /// Whether the logout ended.
    package var isFinished: Bool { state == .loggedOut || state == .loggedOutLocally }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            state = .revokingTokens
            return Reaction(Effects(.endLocalSession, .revokeTokens(tokens)))
        case .revokingTokens:
            switch event {
            case .tokensRevoked:
                state = .loggedOut
                return Reaction(Effects(.reportSuccess))
            case .serviceFailed(let cause):
                state = .loggedOutLocally
                return Reaction(Effects(.reportFailure(Self.localOnly(cause))))
            case .cancelRequested:
                state = .loggedOutLocally
                return Reaction(Effects(.reportFailure(Self.localOnly(ChallengeAbandonment.flowCancelled))))
            default:
                return nil
            }
        case .loggedOut, .loggedOutLocally:
            return nil
        }
    }

    private static func localOnly(_ cause: IdentityFlowError) -> IdentityFlowError {
        IdentityFlowError(.localLogout, "Logged out on this device; the server could not revoke the tokens: \(cause.message)", underlying: cause)
    }
}
