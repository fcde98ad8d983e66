import Foundation

/// How the app authenticates to the provider's token and revocation endpoints (OpenID Connect
/// Core §9, RFC 6749 §2.3.1): a public client sends only its id, a confidential client its secret too.
///
/// ```swift
/// var configuration = HTTPServiceConfiguration(issuer: issuer, clientID: "my-server", redirectURI: callback)
/// configuration.clientAuthentication = .clientSecretBasic(Redacted(secret))
/// ```
///
/// The secret is ``Redacted``: it is never part of a description, a log line, an error message or
/// a transcript. It is sent at every token endpoint call (code exchange, refresh, password grant,
/// token exchange) and at RFC 7009 revocation; the extension endpoints authenticate the user's
/// access token instead and never see it.
///
/// When the provider's discovery document lists `token_endpoint_auth_methods_supported` (or
/// `revocation_endpoint_auth_methods_supported` for revocation) without the configured method,
/// the call fails with ``ErrorCode/clientAuthenticationMethodNotSupported`` before anything is sent.
public enum ClientAuthentication: Sendable, Hashable, CustomStringConvertible {
    /// A public client (`none`): `client_id` in the form body, no secret. The default.
    case none
    /// `client_secret_basic`: HTTP Basic authentication with the client id and secret, each
    /// form-urlencoded first (RFC 6749 §2.3.1); the body carries no `client_id`.
    case clientSecretBasic(Redacted<String>)
    /// `client_secret_post`: `client_id` and `client_secret` in the form body.
    case clientSecretPost(Redacted<String>)

    /// The method's registered name (`none`, `client_secret_basic`, `client_secret_post`), as
    /// discovery's `token_endpoint_auth_methods_supported` lists it.
    public var methodName: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        }
    }

    /// The method's name, never the secret (for example `client_secret_basic(<redacted>)`).
    public var description: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic, .clientSecretPost: "\(methodName)(<redacted>)"
        }
    }

    /// The method named `name` with `secret`, as a configuration file gives them.
    /// - Parameters:
    ///   - name: `none`, `client_secret_basic` or `client_secret_post`; `nil` means
    ///     `client_secret_basic` when there is a secret (OpenID Connect's default) and `none` otherwise.
    ///   - secret: The client secret, if any.
    /// - Returns: The method, or `nil` when the name is unknown, a secret method has no secret, or
    ///   `none` is given a secret.
    package static func named(_ name: String?, secret: String?) -> ClientAuthentication? {
        switch (name ?? (secret == nil ? "none" : "client_secret_basic"), secret) {
        case ("none", nil): ClientAuthentication.none
        case ("client_secret_basic", let secret?) where !secret.isEmpty: .clientSecretBasic(Redacted(secret))
        case ("client_secret_post", let secret?) where !secret.isEmpty: .clientSecretPost(Redacted(secret))
        default: nil
        }
    }

    /// The request with this client's authentication: the `Authorization: Basic` header, or the
    /// `client_id` (and `client_secret`) form fields.
    /// - Parameters:
    ///   - fields: The form fields without any client field.
    ///   - clientID: The client id.
    /// - Returns: The fields to send and the `Authorization` header value, if any.
    func authenticate(_ fields: [(String, String)], clientID: String) -> (fields: [(String, String)], authorization: Redacted<String>?) {
        switch self {
        case .none:
            return (fields + [("client_id", clientID)], nil)
        case .clientSecretPost(let secret):
            return (fields + [("client_id", clientID), ("client_secret", secret.value)], nil)
        case .clientSecretBasic(let secret):
            // RFC 6749 §2.3.1: the id and the secret are form-urlencoded, then joined by ':' and base64-encoded.
            let credentials = HTTPIdentityService.formEncode(clientID) + ":" + HTTPIdentityService.formEncode(secret.value)
            return (fields, Redacted("Basic " + Data(credentials.utf8).base64EncodedString()))
        }
    }
}
