import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart

/// An ``IdentityService`` that talks to a real server over HTTP: OpenID Connect (discovery, PKCE
/// authorization code flow, token exchange, refresh, RFC 7009 revocation, userinfo, ID token
/// validation against the provider's JWKS) plus IdentityFlow's registration and PIN extension
/// endpoints (`docs/extension-api.openapi.yaml`).
///
/// ```swift
/// let configuration = try HTTPServiceConfiguration(contentsOf: Bundle.main.url(forResource: "IdentityFlow", withExtension: "plist")!)
/// let service = try HTTPIdentityService(configuration: configuration)
/// let client = UserClient(configuration: ClientConfiguration(redirectURI: configuration.redirectURI), service: service, storage: storage)
/// ```
///
/// Discovery reads `<issuer>/.well-known/openid-configuration`, falling back to
/// `<issuer>/.well-known/oauth-authorization-server` and RFC 8414's
/// `<origin>/.well-known/oauth-authorization-server/<issuer path>`; the document and the JWKS are
/// cached for the life of the service (the JWKS is fetched again once when an ID token names an
/// unknown `kid`).
///
/// ## Errors
///
/// Every method throws ``IdentityFlowError``; the mapping is the same for every call. Where the
/// server sent an OAuth or extension `error` value, ``IdentityFlowError/oauthError`` holds it.
/// Messages never contain tokens, codes, PINs or proofs.
///
/// | what happened | code |
/// |---|---|
/// | no network; the connection closed or reset before an answer began (the server closed it or crashed) | 9000 ``ErrorCode/networkConnectivityFailure`` |
/// | connection refused, host not found (DNS), timeout, TLS failure | 9001 ``ErrorCode/serverNotReachable`` |
/// | any 5xx answer; 429 (rate limited; the message gives `Retry-After` when it is a number of seconds) | 9001 ``ErrorCode/serverNotReachable`` |
/// | task cancelled, before or during the answer | 9006 ``ErrorCode/actionCancelled`` |
/// | plain `http://` to a non-loopback host (configuration, discovery or redirect) | 10001 ``ErrorCode/configurationInvalid`` |
/// | token endpoint `invalid_client`, `unauthorized_client`, `unsupported_grant_type`, `invalid_scope`; discovered issuer differs from the configured one; no revocation / userinfo / JWKS endpoint | 10001 ``ErrorCode/configurationInvalid`` |
/// | token endpoint `invalid_grant` (reused or expired code, wrong PKCE verifier, rotated-out or revoked refresh token) | 10024 ``ErrorCode/externalIdentityProviderFailure`` |
/// | token endpoint `invalid_request` (e.g. mismatching redirect URI), any other OAuth error | 10015 ``ErrorCode/requestInvalid`` (other errors: 10024) |
/// | extension `invalid_request` (400 / 405), `invalid_nonce`, `profile_bound_to_other_user` (403) | 10015 ``ErrorCode/requestInvalid`` |
/// | extension or userinfo `invalid_token` (401, or 400 naming it) | 9010 ``ErrorCode/userNotAuthenticated`` |
/// | `unknown_identity_provider` (404) | 10020 ``ErrorCode/invalidIdentityProvider`` |
/// | `registration_expired` (410) | 10021 ``ErrorCode/customRegistrationExpired`` |
/// | `session_expired` (410) at the session exchange (Zephr's `status=success`): unknown, expired, used, or another sign-in's session | 10024 ``ErrorCode/externalIdentityProviderFailure`` (`oauthError` set) |
/// | `unknown_profile` (404) at PIN challenge / verify | 9003 ``ErrorCode/userDeregistered``: the flows remove the profile locally |
/// | `user_deregistered` (410) at enrol / PIN challenge | 9003 ``ErrorCode/userDeregistered`` (`userProfile` set) |
/// | `invalid_pin` (401) / `user_deregistered` (410) at PIN verify | not errors: ``PinVerification/rejected(failureCount:maxFailureCount:)`` / ``PinVerification/deregistered`` |
/// | body not JSON, wrong content type, truncated (closed or reset after the head), larger than the cap, a redirect loop (more than 5) or a redirect of a `POST` or `DELETE`, a missing or mistyped member, a custom status outside 2xxx/4xxx/5xxx, any other unexpected status | 11001 ``ErrorCode/invalidServerResponse`` |
/// | ID token expired, issued in the future or not yet valid by the device's clock, which differs from the answer's `Date` by more than the clock skew | 9031 ``ErrorCode/invalidDateTime`` (the message says by how much) |
/// | ID token under a template issuer (`…/{tenantid}/…`): no `tid`, a `tid` that is no GUID, an `iss` that is not the template at its `tid` | 11001 ``ErrorCode/invalidServerResponse`` |
/// | ID token: bad signature, `alg` other than RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 or ES512 (`none`, HS256 ...), a `kid` naming a key that cannot verify the token's `alg`, unknown `kid` after one refetch, wrong `iss` / `aud` / `azp` / `nonce`, expired, `nbf` or `iat` in the future | 11001 ``ErrorCode/invalidServerResponse`` |
/// | a bare 404 or 405 (no `error` member) at an extension endpoint: a server without the extension API, a proxy, a wrong `extensionBaseURL` | 11020 ``ErrorCode/featureNotSupported`` |
/// | a pinned host (``HTTPTransportOptions/pinnedPublicKeys``) whose certificate holds none of its keys: closed before any request byte | 11050 ``ErrorCode/certificatePinMismatch`` |
/// | a pinned host on a Linux system without a usable libcurl, or whose libcurl refuses one of the transfer's options (the pin, the CA file, the protocols, the redirect rule): nothing sent | 11051 ``ErrorCode/certificatePinningUnavailable`` |
/// | discovery lists the token (or revocation) endpoint's client authentication methods without the configured ``HTTPServiceConfiguration/clientAuthentication``: nothing sent | 11052 ``ErrorCode/clientAuthenticationMethodNotSupported`` |
/// | the configuration requires DPoP, PAR or the FAPI 2.0 profile and the provider's metadata lacks it (checked before the browser opens); a token request without a DPoP key under FAPI 2.0 | 11080 ``ErrorCode/securityProfileNotMet`` |
/// | `token_type` `Bearer` answered to a request with a DPoP proof (unless ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP``); the tokens are revoked | 11081 ``ErrorCode/tokenNotSenderConstrained`` |
/// | the pushed authorization request endpoint refuses (any 4xx; `oauthError` set) or answers without a `request_uri`, with an `expires_in` outside 1…3600 s, or not JSON | 11082 ``ErrorCode/pushedAuthorizationFailed`` |
/// | `invalid_dpop_proof`, or `use_dpop_nonce` again after the one retry with the nonce the server gave | 11083 ``ErrorCode/dpopProofRefused`` |
///
/// `profileExists` answers `false` for `404 unknown_profile` and 410; `deregister` and
/// `revokeBiometricKey` treat those (and `404 authenticator_not_registered`) as done. A bare 404
/// is never taken for "gone": it throws 11020.
@_spi(Integrator) public final class HTTPIdentityService: IdentityService {
    /// The configuration the service was made with.
    public let configuration: HTTPServiceConfiguration
    let transport: HTTPTransport
    let now: @Sendable () -> Date
    let cache = Locked(Cache())

    struct Cache: Sendable {
        var metadata: OpenIDProviderMetadata?
        var keys: JWKSKeys?
        /// The latest `DPoP-Nonce` of each origin (RFC 9449 §8, §9), for the next proof sent there.
        var dpopNonces: [String: String] = [:]
        /// When each pushed authorization request's `request_uri` expires (RFC 9126 §2.2).
        var pushedRequestExpiries: [String: Date] = [:]
    }

    /// Creates a service. Nothing is fetched until the first call.
    /// - Parameters:
    ///   - configuration: Where the server is and who the app is.
    ///   - now: The clock ID token times are checked against (inject one in tests).
    /// - Throws: ``ErrorCode/configurationInvalid`` when ``HTTPServiceConfiguration/problem`` names one.
    public init(configuration: HTTPServiceConfiguration, now: @escaping @Sendable () -> Date = { Date() }) throws(IdentityFlowError) {
        if let problem = configuration.problem { throw problem }
        self.configuration = configuration
        self.transport = HTTPTransport(
            timeout: configuration.requestTimeout, maxBodySize: configuration.maxResponseBodySize, options: configuration.transportOptions)
        self.now = now
    }

    // MARK: - Discovery

    /// The provider's metadata, fetched on first use and cached.
    /// - Returns: The metadata.
    /// - Throws: As the table in the type's discussion; ``ErrorCode/configurationInvalid`` when the
    ///   document's `issuer` differs from the configured one.
    package func providerMetadata() async throws(IdentityFlowError) -> OpenIDProviderMetadata {
        if let cached = cache.withLock({ $0.metadata }) { return cached }
        var lastError = IdentityFlowError(.configurationInvalid, "No discovery document URL could be derived.")
        var tried: [URL] = []
        for candidate in configuration.discoveryCandidates {
            tried.append(candidate)
            let response = try await transport.send(URLRequest(url: candidate))
            guard response.status == 200 else {
                lastError = Self.statusError(response, context: "discovery")
                if response.status == 404 || response.status == 410 { continue }
                throw lastError
            }
            var metadata = try checkedMetadata(response)
            // Providers often list revocation (or userinfo, JWKS) only in their RFC 8414 document;
            // the issuer now pinned names where that is, even when only a discovery URL was
            // configured. Only documents on the same origin are asked.
            let supplements = HTTPServiceConfiguration.metadataURLs(of: metadata.issuer).filter { Self.sameOrigin($0, candidate) }
            for supplement in supplements where metadata.lacksOptionalEndpoints && !tried.contains(supplement) {
                tried.append(supplement)
                guard let more = await supplementaryMetadata(supplement, issuer: metadata.issuer) else { continue }
                metadata = metadata.filling(from: more)
            }
            cache.withLock { $0.metadata = metadata }
            return metadata
        }
        throw lastError
    }

    /// Metadata from a discovery answer, whose issuer must be the configured one (when configured).
    /// Either way the issuer is then pinned: every ID token must name it (a template issuer: its
    /// tenant's issuer, ``IssuerTemplate``).
    private func checkedMetadata(_ response: HTTPResponse) throws(IdentityFlowError) -> OpenIDProviderMetadata {
        let metadata = try OpenIDProviderMetadata(document: try Self.jsonObject(response, context: "The discovery document"))
        // Entra ID's multi-tenant endpoints name a template issuer (`…/{tenantid}/v2.0`): a
        // configured `common`, `organizations` or `consumers` issuer fits it (IssuerTemplate).
        if let issuer = configuration.issuer, !Self.sameIssuer(issuer.absoluteString, metadata.issuer),
            !IssuerTemplate.configured(issuer.absoluteString, fits: metadata.issuer)
        {
            throw IdentityFlowError(
                .configurationInvalid, "The discovery document names issuer \(metadata.issuer), not the configured \(issuer.absoluteString).")
        }
        return metadata
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && a.port == b.port
    }

    /// Another metadata document of the same provider, or `nil` when it is absent or unusable (it
    /// only adds endpoints, so its failure never fails discovery).
    private func supplementaryMetadata(_ url: URL, issuer: String) async -> OpenIDProviderMetadata? {
        do throws(IdentityFlowError) {
            let response = try await transport.send(URLRequest(url: url))
            guard response.status == 200 else { return nil }
            let metadata = try checkedMetadata(response)
            return Self.sameIssuer(metadata.issuer, issuer) ? metadata : nil
        } catch {
            return nil
        }
    }

    /// Issuers compare as bytes, a trailing slash aside.
    private static func sameIssuer(_ a: String, _ b: String) -> Bool { trimmed(a).hasSameBytes(as: trimmed(b)) }

    private static func trimmed(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }

    // MARK: - Requests

    /// A form-encoded `POST` (RFC 6749 appendix B encoding).
    func formRequest(_ url: URL, _ fields: [(String, String)], bearer: Redacted<String>? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer.value)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(fields.map { "\(Self.formEncode($0.0))=\(Self.formEncode($0.1))" }.joined(separator: "&").utf8)
        return request
    }

    /// A form-encoded `POST` to the token endpoint (`metadata.tokenEndpoint`) or, with
    /// `revocation`, to the revocation endpoint, authenticated as
    /// ``HTTPServiceConfiguration/clientAuthentication`` says.
    /// - Throws: ``ErrorCode/clientAuthenticationMethodNotSupported`` when the provider lists the
    ///   endpoint's methods without the configured secret-bearing one (a public client is never
    ///   refused here: providers often leave `none` out of the list yet serve public clients).
    func clientRequest(
        _ url: URL, _ fields: [(String, String)], metadata: OpenIDProviderMetadata, revocation: Bool = false
    ) throws(IdentityFlowError) -> URLRequest {
        let authentication = configuration.clientAuthentication
        let supported = revocation ? metadata.revocationEndpointAuthMethods : metadata.tokenEndpointAuthMethods
        if authentication != .none, !supported.isEmpty, !supported.contains(authentication.methodName) {
            let member = revocation ? "revocation_endpoint_auth_methods_supported" : "token_endpoint_auth_methods_supported"
            throw IdentityFlowError(
                .clientAuthenticationMethodNotSupported,
                "The provider's \(member) (\(supported.joined(separator: ", "))) does not list the configured \(authentication.methodName); nothing was sent."
            )
        }
        let (fields, authorization) = authentication.authenticate(fields, clientID: configuration.clientID)
        var request = formRequest(url, fields)
        if let authorization { request.setValue(authorization.value, forHTTPHeaderField: "Authorization") }
        return request
    }

    /// A JSON request to an extension endpoint.
    func jsonRequest(_ url: URL, method: String, body: JSONValue?, bearer: Redacted<String>? = nil) throws(IdentityFlowError) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let bearer { request.setValue("Bearer \(bearer.value)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            do { request.httpBody = try JSONEncoder().encode(body) } catch {
                throw IdentityFlowError(.unknown, "A request body could not be encoded.", underlying: error)
            }
        }
        return request
    }

    private static let formAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func formEncode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: formAllowed) ?? ""
    }
}
