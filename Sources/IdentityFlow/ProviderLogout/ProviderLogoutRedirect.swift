import Foundation

/// What the redirect back from the provider's logout page says, once checked against the
/// ``EndSessionRequest`` that opened it.
package enum ProviderLogoutRedirect: Sendable, Hashable {
    /// The provider logged the user out and sent the browser back with the `state` sent.
    case confirmed
    /// The `state` is missing or differs from the one sent.
    case stateMismatch
    /// The URL is not the post-logout redirect URI.
    case redirectMismatch
    /// The provider answered with an OAuth-style `error`.
    case denied(error: String, description: String?)

    /// Checks a redirect: the post-logout redirect URI (scheme, host, port and path after the
    /// normalisation ``BrowserRedirect`` applies), then the `state`, then no `error`.
    /// - Parameters:
    ///   - url: The URL the browser was sent to.
    ///   - request: The request that opened the logout page.
    /// - Returns: What the redirect says.
    package static func check(_ url: URL, against request: EndSessionRequest) -> ProviderLogoutRedirect {
        guard let actual = BrowserRedirect.Endpoint(url), let expected = BrowserRedirect.Endpoint(request.postLogoutRedirectURI), actual == expected else {
            return .redirectMismatch
        }
        let items = URLQuery.formItems(of: url) ?? []
        func first(_ name: String) -> String? { items.first { $0.name == name }.map { $0.value ?? "" } }
        guard let state = first("state"), state.hasSameBytes(as: request.state.value) else { return .stateMismatch }
        if let error = first("error") { return .denied(error: error, description: first("error_description")) }
        return .confirmed
    }

    /// Why the provider's logout is not confirmed, or `nil` when it is.
    /// - Parameter redirectURI: The post-logout redirect URI, named in the mismatch message.
    package func failure(expecting redirectURI: URL) -> IdentityFlowError? {
        switch self {
        case .confirmed:
            return nil
        case .stateMismatch:
            return IdentityFlowError(.invalidState, "The logout redirect does not carry the state that was sent.")
        case .redirectMismatch:
            return IdentityFlowError(.redirectMismatch, "The logout redirect does not match the post-logout redirect URI \(redirectURI).")
        case .denied(let oauthError, let description):
            var error = IdentityFlowError(
                .externalIdentityProviderFailure, "The provider refused the logout: \(oauthError)\(description.map { " (\($0))" } ?? "").")
            error.oauthError = oauthError
            return error
        }
    }
}
