import Foundation

/// What a browser redirect says, once checked against the request that started it.
package enum BrowserRedirect: Sendable, Hashable {
    /// The provider granted access: exchange this code. `issuer` is the response's `iss`
    /// parameter (RFC 9207), `nil` when it carries none; the service checks it before the exchange.
    case authorized(code: Redacted<String>, issuer: String?)
    /// The provider refused with an OAuth `error` (e.g. `access_denied`).
    case denied(error: String, description: String?)
    /// The `state` is missing or differs from the one sent.
    case stateMismatch
    /// The URL is not the configured redirect URI.
    case redirectMismatch
    /// Neither a code nor an error.
    case malformed
    /// The provider signed the user in but needs more registration attributes (Zephr's
    /// `status=partial`): the state key to complete with, and the identifier it knows.
    case partial(stateKey: Redacted<String>, identifier: String)
    /// The provider signed an existing user in and opened a session of its own (Zephr's
    /// `status=success&session_id=…`): the session to exchange for tokens.
    case session(id: Redacted<String>)

    /// Checks a redirect URL.
    ///
    /// Scheme and host compare case-insensitively, a missing port equals the scheme's default, and
    /// an empty path equals `/` (a trailing slash never matters). Then the `state` must be the one
    /// sent, then an `error` or a `code` must be present. Query values are form-decoded (RFC 6749
    /// Appendix B): `+` is a space, `%2B` a plus.
    ///
    /// Zephr's callbacks carry a `status` (`success` with a `session_id`, `partial` with a
    /// `state_key` and `identifier`, `failure` with a `message`) and, as Zephr documents them, no
    /// `state`. Such a callback without `state` is taken (one with a `state` must carry ours): it
    /// is bound to this sign-in otherwise, since what it carries (the session or the state key) is
    /// redeemed only with this request's PKCE verifier, and the waiting flow takes one callback
    /// only (docs/providers.md says what an attacker can still do).
    /// - Parameters:
    ///   - url: The URL the browser was sent to.
    ///   - request: The request that started the registration.
    /// - Returns: What the redirect says.
    package static func check(_ url: URL, against request: AuthorizationRequest) -> BrowserRedirect {
        guard let actual = Endpoint(url), let expected = Endpoint(request.redirectURI), actual == expected else {
            return .redirectMismatch
        }
        let items = URLQuery.formItems(of: url) ?? []
        func first(_ name: String) -> String? {
            items.first { $0.name == name }.map { $0.value ?? "" }
        }
        if let state = first("state") {
            guard state.hasSameBytes(as: request.state.value) else { return .stateMismatch }
        } else {
            // Only a provider callback of Zephr's shape may come without state.
            guard Self.isProviderCallback(first("status")) else { return .stateMismatch }
        }
        if let error = first("error") { return .denied(error: error, description: first("error_description")) }
        // Zephr's callback: status=success (an existing user's session), status=partial (more
        // attributes needed) or status=failure (refused).
        switch first("status") {
        case "success":
            guard let session = first("session_id"), !session.isEmpty else { break }
            return .session(id: Redacted(session))
        case "partial":
            guard let key = first("state_key"), !key.isEmpty else { return .malformed }
            return .partial(stateKey: Redacted(key), identifier: first("identifier") ?? "")
        case "failure":
            return .denied(error: "failure", description: first("message"))
        default: break
        }
        guard let code = first("code"), !code.isEmpty else { return .malformed }
        return .authorized(code: Redacted(code), issuer: first("iss"))
    }

    /// The error a refused redirect ends the flow with; `nil` for ``authorized(code:issuer:)``.
    /// The registration flow and the `identityflow demo` report the same codes.
    /// - Parameter redirectURI: The configured redirect URI, named in the mismatch message.
    package func failure(expecting redirectURI: URL) -> IdentityFlowError? {
        switch self {
        case .authorized, .partial, .session:
            return nil
        case .denied(let oauthError, let description):
            var error = IdentityFlowError(
                .externalIdentityProviderFailure,
                "The identity provider refused: \(oauthError)\(description.map { " (\($0))" } ?? "").")
            error.oauthError = oauthError
            return error
        case .stateMismatch:
            return IdentityFlowError(.invalidState)
        case .redirectMismatch:
            return IdentityFlowError(.redirectMismatch, "The redirect does not match the configured redirect URI \(redirectURI).")
        case .malformed:
            return IdentityFlowError(.invalidServerResponse, "The redirect carries neither a code nor an error.")
        }
    }

    /// The chart's guard name for this outcome.
    var guardName: String {
        switch self {
        case .authorized: "authorized"
        case .denied: "denied"
        case .stateMismatch: "stateMismatch"
        case .redirectMismatch: "redirectMismatch"
        case .malformed: "malformed"
        case .partial: "partial"
        case .session: "session"
        }
    }

    /// Whether `url` belongs to the registration of `state` and `redirectURI`: how
    /// ``UserClient/handleRedirect(_:)`` tells which registration a redirect belongs to. A URL
    /// with a `state` parameter must carry this one as its first, compared as bytes; one without
    /// must be a provider callback of Zephr's shape (a `status` of `success`, `partial` or
    /// `failure`) at the redirect URI.
    static func belongs(_ url: URL, state: String, redirectURI: URL) -> Bool {
        let items = URLQuery.formItems(of: url) ?? []
        if let item = items.first(where: { $0.name == "state" }) { return (item.value ?? "").hasSameBytes(as: state) }
        guard isProviderCallback(items.first(where: { $0.name == "status" })?.value ?? nil) else { return false }
        guard let actual = Endpoint(url), let expected = Endpoint(redirectURI) else { return false }
        return actual == expected
    }

    /// Whether a `status` value is one of Zephr's callback outcomes, which come without `state`.
    private static func isProviderCallback(_ status: String?) -> Bool {
        ["success", "partial", "failure"].contains(status ?? "")
    }

    /// Scheme, host, port and path after normalisation, read from the URL's own parse (a
    /// relative URL's base is not consulted).
    struct Endpoint: Equatable {
        let scheme: String
        let host: String
        let port: Int?
        let path: String

        init?(_ url: URL) {
            guard let url = URLQuery.standalone(url) else { return nil }
            scheme = (url.scheme ?? "").lowercased()
            host = (url.host(percentEncoded: false) ?? "").lowercased()
            port = url.port ?? Self.defaultPort(of: scheme)
            var path = url.path(percentEncoded: false)
            while path.hasSuffix("/") { path.removeLast() }
            self.path = path
        }

        private static func defaultPort(of scheme: String) -> Int? {
            switch scheme {
            case "http": 80
            case "https": 443
            default: nil
            }
        }
    }
}
