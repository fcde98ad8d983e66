import Foundation

/// How a challenge ended without an answer. Every kind fails the flow with
/// ``ErrorCode/actionCancelled``; the message says which.
package enum ChallengeAbandonment: Sendable, Hashable {
    /// The host called the sender's `cancel`.
    case cancelled
    /// Every reference to the challenge was released before it was answered.
    case released
    /// The configured per-challenge timeout passed.
    case timedOut

    /// The error the flow fails with.
    package var error: IdentityFlowError {
        switch self {
        case .cancelled: IdentityFlowError(.actionCancelled, "The host cancelled the challenge.")
        case .released: IdentityFlowError(.actionCancelled, "The challenge was released without an answer; keep a reference until you answer it.")
        case .timedOut: IdentityFlowError(.actionCancelled, "The challenge was not answered within the configured timeout.")
        }
    }

    /// The error a flow fails with when the host cancels it or its task is cancelled.
    package static var flowCancelled: IdentityFlowError {
        IdentityFlowError(.actionCancelled, "The flow was cancelled.")
    }
}
