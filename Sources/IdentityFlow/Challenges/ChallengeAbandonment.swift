import Foundation

/// How a challenge ended without an answer. Every kind fails the flow with
/// ``ErrorCode/actionCancelled``; the message says which.
package enum ChallengeAbandonment: Sendable, Hashable {
    /// The host called the sender's `cancel`.
    case cancelled
    /// A test kit cancelled it and said why (a ``Challenge/cancel(because:)``): the reason goes
    /// into the flow's error, so a failed scripted step explains the flow's failure.
    case cancelledBecause(String)
    /// Every reference to the challenge was released before it was answered.
    case released
    /// The configured per-challenge timeout passed.
    case timedOut
    /// The challenge reached a delegate method the host did not implement, whose default cannot
    /// answer it (say `userClient(_:didReceiveBrowserRegistrationChallenge:)`); the associated
    /// value names the method and its protocol.
    case unimplemented(String)

    /// The error the flow fails with.
    package var error: IdentityFlowError {
        switch self {
        case .cancelled: IdentityFlowError(.actionCancelled, "The host cancelled the challenge.")
        case .cancelledBecause(let reason): IdentityFlowError(.actionCancelled, "The host cancelled the challenge: \(reason)")
        case .released: IdentityFlowError(.actionCancelled, "The challenge was released without an answer; keep a reference until you answer it.")
        case .timedOut: IdentityFlowError(.actionCancelled, "The challenge was not answered within the configured timeout.")
        case .unimplemented(let method):
            IdentityFlowError(
                .actionCancelled,
                "The delegate does not implement \(method), so the challenge that needs it was cancelled. Implement it with exactly this name: a misspelt method compiles as an unrelated one."
            )
        }
    }

    /// The error a flow fails with when the host cancels it or its task is cancelled.
    package static var flowCancelled: IdentityFlowError {
        IdentityFlowError(.actionCancelled, "The flow was cancelled.")
    }
}
