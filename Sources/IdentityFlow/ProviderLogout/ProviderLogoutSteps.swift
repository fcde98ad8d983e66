import Foundation
import Statechart

/// The I/O steps of a provider logout (``ProviderLogoutFlow``): ending the session on the device,
/// the provider's logout page, the redirect back, revoking the tokens. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct ProviderLogoutSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    /// Ends the session on this device, and with it the profile's sign-in: in device mode the
    /// vault drops its refresh token, and the next PIN login says the profile must register again
    /// (``SessionEnd/signInEnded``).
    /// - Returns: The session's last tokens, the ones to revoke (a refresh may have replaced the
    ///   ones the flow began with), or `nil` when nobody was logged in.
    func endSessionLocally() -> TokenSet? { dependencies.sessions.endSessionLocally(.signInEnded)?.tokens }

    /// The provider's logout page for `request`, or `nil` when it has none.
    nonisolated(nonsending) func logoutPage(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        try await dependencies.service.endSessionURL(for: request)
    }

    /// Routes ``UserClient/handleRedirect(_:)`` to the logout's open challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) { dependencies.environment.awaitRedirect(waiter) }

    /// Revokes the ended session's tokens (best effort: a failure is logged).
    nonisolated(nonsending) func revokeUnused(_ tokens: TokenSet, proofKey: DPoPKey?, flow: FlowID) async {
        await SessionSteps(dependencies: dependencies).revokeUnused(tokens, proofKey: proofKey, flow: flow)
    }
}
