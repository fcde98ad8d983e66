import Foundation

/// What a browser redirect says, once checked against the request that started it.
public enum BrowserRedirect: Sendable, Hashable {
    /// The provider granted access: exchange this code.
    case authorized(code: Redacted<String>)
    /// The provider refused with an OAuth `error` (e.g. `access_denied`).
    case denied(error: String, description: String?)
    /// The `state` is missing or differs from the one sent.
    case stateMismatch
    /// The URL is not the configured redirect URI.
    case redirectMismatch
    /// Neither a code nor an error.
    case malformed

    /// Checks a redirect URL.
    ///
    /// Scheme and host compare case-insensitively, a missing port equals the scheme's default, and
    /// an empty path equals `/` (a trailing slash never matters). Then the `state` must be the one
    /// sent, then an `error` or a `code` must be present.
    /// - Parameters:
    ///   - url: The URL the browser was sent to.
    ///   - request: The request that started the registration.
    /// - Returns: What the redirect says.
    public static func check(_ url: URL, against request: AuthorizationRequest) -> BrowserRedirect {
        guard let actual = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let expected = URLComponents(url: request.redirectURI, resolvingAgainstBaseURL: false),
              Endpoint(actual) == Endpoint(expected)
        else { return .redirectMismatch }
        let items = (actual.queryItems ?? []).reduce(into: [String: String]()) { items, item in
            if items[item.name] == nil { items[item.name] = item.value ?? "" }
        }
        guard items["state"] == request.state.value else { return .stateMismatch }
        if let error = items["error"] { return .denied(error: error, description: items["error_description"]) }
        guard let code = items["code"], !code.isEmpty else { return .malformed }
        return .authorized(code: Redacted(code))
    }

    /// Scheme, host, port and path after normalisation.
    private struct Endpoint: Equatable {
        let scheme: String
        let host: String
        let port: Int?
        let path: String

        init(_ components: URLComponents) {
            scheme = (components.scheme ?? "").lowercased()
            host = (components.host ?? "").lowercased()
            port = components.port ?? Self.defaultPorts[scheme]
            var path = components.path
            while path.hasSuffix("/") { path.removeLast() }
            self.path = path
        }

        private static let defaultPorts = ["http": 80, "https": 443]
    }
}
