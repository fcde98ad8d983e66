import Foundation

/// What a provider logout (OpenID Connect RP-Initiated Logout 1.0) sends to the provider's
/// `end_session_endpoint`, and must find again in the redirect that comes back.
@_spi(Integrator) public struct EndSessionRequest: Sendable, Hashable, CustomStringConvertible {
    /// The session's ID token, sent as `id_token_hint` so that the provider knows whose session
    /// ends (and may skip asking); `nil` when the session has none.
    public let idTokenHint: Redacted<String>?
    /// Where the provider sends the browser back (`post_logout_redirect_uri`); it must be
    /// registered with the provider for the client.
    public let postLogoutRedirectURI: URL
    /// The opaque value the redirect must carry back (`state`).
    public let state: Redacted<String>

    /// Creates a request.
    /// - Parameters:
    ///   - idTokenHint: The session's ID token.
    ///   - postLogoutRedirectURI: Where the browser comes back.
    ///   - state: The value the redirect must carry back.
    public init(idTokenHint: Redacted<String>?, postLogoutRedirectURI: URL, state: Redacted<String>) {
        self.idTokenHint = idTokenHint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.state = state
    }

    /// Creates a request with a fresh random `state` (32 bytes from the system's secure generator).
    /// - Throws: ``ErrorCode/unknown`` if the generator fails.
    init(idTokenHint: Redacted<String>?, postLogoutRedirectURI: URL) throws(IdentityFlowError) {
        let state: String
        do { state = try SecureRandom.token(byteCount: 32) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        self.init(idTokenHint: idTokenHint, postLogoutRedirectURI: postLogoutRedirectURI, state: Redacted(state))
    }

    /// The query parameters, in the order they are sent: `id_token_hint` (when present),
    /// `post_logout_redirect_uri`, `state`, and `client_id` when one is given.
    /// - Parameter clientID: The client id, sent beside the hint as §2 recommends.
    /// - Returns: Name and value pairs.
    package func parameters(clientID: String?) -> [(String, String)] {
        var parameters: [(String, String)] = []
        if let idTokenHint { parameters.append(("id_token_hint", idTokenHint.value)) }
        if let clientID { parameters.append(("client_id", clientID)) }
        parameters.append(("post_logout_redirect_uri", postLogoutRedirectURI.absoluteString))
        parameters.append(("state", state.value))
        return parameters
    }

    /// Names the redirect URI; the hint and state print redacted.
    public var description: String {
        "EndSessionRequest(postLogoutRedirectURI: \(postLogoutRedirectURI), idTokenHint: \(idTokenHint == nil ? "none" : "<redacted>"), state: <redacted>)"
    }
}
