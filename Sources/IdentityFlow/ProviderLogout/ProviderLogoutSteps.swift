import Foundation
import Statechart

/// The I/O steps of a provider logout (``ProviderLogoutFlow``): ending the session on the device,
/// the provider's logout page, the redirect back, revoking the tokens. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct ProviderLogoutSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    /// Ends the session on this device.
    func endSessionLocally() { dependencies.sessions.endSessionLocally() }

    /// The provider's logout page for `request`, or `nil` when it has none.
    nonisolated(nonsending) func logoutPage(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        try await dependencies.service.endSessionURL(for: request)
    }

    /// Routes ``UserClient/handleRedirect(_:)`` to the logout's open challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) { dependencies.environment.awaitRedirect(waiter) }

    /// Revokes the ended session's tokens (best effort: a failure is logged).
    nonisolated(nonsending) func revokeUnused(_ tokens: TokenSet, flow: FlowID) async {
        await SessionSteps(dependencies: dependencies).revokeUnused(tokens, flow: flow)
    }
}
