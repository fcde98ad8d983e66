import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPIdentityService {
    /// The longest `expires_in` a pushed authorization request may have, in seconds: RFC 9126 §2.2
    /// expects "relatively short" lifetimes (5 to 600 seconds); an hour is refused as broken.
    package static let maximumPushedRequestLifetime: TimeInterval = 3600

    /// The longest `request_uri` taken (it goes into the browser's URL).
    package static let maximumRequestURILength = 2048

    /// The pushed authorization request endpoint to use for this sign-in, or `nil` to send the
    /// parameters in the browser's URL: the provider's endpoint when it sets
    /// `require_pushed_authorization_requests`, when ``HTTPServiceConfiguration/pushedAuthorization``
    /// is ``PushedAuthorizationPolicy/whenAdvertised`` or ``PushedAuthorizationPolicy/required``,
    /// or under ``SecurityProfile/fapi2``.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` when PAR is required (by the configuration, or
    ///   by the provider's own `require_pushed_authorization_requests`) and the provider names no endpoint.
    func pushedAuthorizationEndpoint(_ metadata: OpenIDProviderMetadata) throws(IdentityFlowError) -> URL? {
        let required = configuration.pushedAuthorization == .required || configuration.securityProfile == .fapi2
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else {
            if required {
                throw IdentityFlowError(
                    .securityProfileNotMet,
                    "The configuration requires pushed authorization requests (\(configuration.securityProfile == .fapi2 ? "securityProfile: fapi2" : "pushedAuthorization: required")), but the provider names no pushed_authorization_request_endpoint (RFC 9126); nothing was sent."
                )
            }
            if metadata.requirePushedAuthorizationRequests {
                throw IdentityFlowError(
                    .securityProfileNotMet,
                    "The provider requires pushed authorization requests (require_pushed_authorization_requests) but names no pushed_authorization_request_endpoint; nothing was sent."
                )
            }
            return nil
        }
        return required || configuration.pushedAuthorization == .whenAdvertised || metadata.requirePushedAuthorizationRequests ? endpoint : nil
    }

    /// Pushes the authorization request's parameters (RFC 9126 §2.1), authenticated as at the token
    /// endpoint, and returns the authorization endpoint's URL with `client_id` and the pushed
    /// `request_uri` only (§4). The `request_uri`'s expiry is recorded
    /// (``authorizationURLExpiry(_:)``).
    /// - Parameters:
    ///   - endpoint: The pushed authorization request endpoint.
    ///   - parameters: The authorization parameters (without the client's own fields).
    ///   - metadata: The provider's metadata.
    /// - Returns: The page to open.
    /// - Throws: ``ErrorCode/pushedAuthorizationFailed`` for a refusal (the OAuth error in the
    ///   message and in ``IdentityFlowError/oauthError``) or an answer that breaks RFC 9126 (not
    ///   JSON, no `request_uri`, an `expires_in` that is not a number of seconds from 1 to
    ///   ``maximumPushedRequestLifetime``); 9001 for 5xx and 429;
    ///   ``ErrorCode/clientAuthenticationMethodNotSupported`` as at the token endpoint.
    func pushAuthorizationRequest(to endpoint: URL, parameters: [(String, String)], metadata: OpenIDProviderMetadata) async throws(IdentityFlowError)
        -> URL
    {
        let response = try await transport.send(clientRequest(endpoint, parameters.filter { $0.0 != "client_id" }, metadata: metadata))
        guard response.status == 201 || response.status == 200 else {
            if response.status >= 500 || response.status == 429 { throw Self.statusError(response, context: "the pushed authorization request") }
            let named = Self.errorCode(of: response)
            var error = IdentityFlowError(
                .pushedAuthorizationFailed,
                "The pushed authorization request endpoint refused the request (HTTP \(response.status)\(named.map { ", \($0)" } ?? "")).")
            error.oauthError = named
            throw error
        }
        guard let json = response.json, json.objectValue != nil else {
            throw IdentityFlowError(.pushedAuthorizationFailed, "The pushed authorization request's answer is not a JSON object (RFC 9126 §2.2).")
        }
        guard let requestURI = json["request_uri"]?.stringValue, !requestURI.isEmpty, requestURI.utf8.count <= Self.maximumRequestURILength else {
            throw IdentityFlowError(.pushedAuthorizationFailed, "The pushed authorization request's answer has no valid 'request_uri' (RFC 9126 §2.2).")
        }
        guard let lifetime = json["expires_in"]?.doubleValue, lifetime >= 1, lifetime <= Self.maximumPushedRequestLifetime else {
            throw IdentityFlowError(
                .pushedAuthorizationFailed,
                "The pushed authorization request's answer has no 'expires_in' from 1 to \(Int(Self.maximumPushedRequestLifetime)) seconds (RFC 9126 §2.2).")
        }
        let expiry = now().addingTimeInterval(lifetime)
        cache.withLock { cache in
            let current = now()
            cache.pushedRequestExpiries = cache.pushedRequestExpiries.filter { $0.value > current }
            cache.pushedRequestExpiries[requestURI] = expiry
        }
        guard var components = URLComponents(url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false) else {
            throw IdentityFlowError(.invalidServerResponse, "The authorization endpoint is not a valid URL.")
        }
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery =
            existing
            + [("client_id", configuration.clientID), ("request_uri", requestURI)].map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }
            .joined(separator: "&")
        guard let url = components.url else { throw IdentityFlowError(.invalidServerResponse, "The authorization URL could not be built.") }
        return url
    }

    /// When the pushed authorization request behind `url` expires: the `expires_in` of the push
    /// that made it, counted from its answer. `nil` for a URL that carries the whole request.
    /// - Parameter url: A URL ``authorizationURL(for:request:)`` returned.
    /// - Returns: The expiry, or `nil`.
    public func authorizationURLExpiry(_ url: URL) async -> Date? {
        guard let requestURI = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first(where: { $0.name == "request_uri" })?.value
        else { return nil }
        return cache.withLock { $0.pushedRequestExpiries[requestURI] }
    }
}
