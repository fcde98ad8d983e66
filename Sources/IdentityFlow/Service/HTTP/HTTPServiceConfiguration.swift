import Foundation

/// How an OpenID Connect server (``IdentityServer/openIDConnect(_:)``) reaches its provider: where
/// the provider is, who the app is to it, what the authorization request asks for, and the limits
/// of the transport.
///
/// Build one in code:
///
/// ```swift
/// var configuration = HTTPServiceConfiguration(
///     issuer: URL(string: "https://id.example.com/o")!,
///     clientID: "my-app",
///     redirectURI: URL(string: "myapp://callback")!)
/// configuration.scopes = ["openid", "profile", "email"]
/// configuration.prompt = "login"
/// ```
///
/// or load it from a JSON or property list file (the way the GrabID SDK reads its login session
/// from `Info.plist`) with ``init(contentsOf:)``. The keys are the OAuth parameter names:
///
/// ```json
/// {
///   "issuer": "https://id.example.com/o",
///   "client_id": "my-app",
///   "redirect_uri": "myapp://callback",
///   "scopes": ["openid", "profile", "email"],
///   "prompt": "login",
///   "login_hint": "alice@example.com",
///   "acr_values": "urn:example:loa2",
///   "extra_authorization_parameters": {"ui_locales": "nl"},
///   "clock_skew_seconds": 60,
///   "request_timeout_seconds": 30,
///   "max_response_body_bytes": 1048576,
///   "client_secret": "…",
///   "token_endpoint_auth_method": "client_secret_basic",
///   "headers": {"X-OIDC": "v1"},
///   "pinned_public_keys": {"id.example.com": ["<base64 SHA-256 of the SPKI>", "<backup pin>"]}
/// }
/// ```
///
/// Either `issuer` or `discovery_url` is required; `scopes` may also be one space-separated
/// string. `extension_base_url` defaults to `<origin of the issuer>/identityflow`.
/// `app_authorization_endpoint` names an installed identity app's endpoint (app-to-app login); it
/// must be `https` (or loopback `http`) unless its custom scheme is listed in
/// ``appAuthorizationSchemes``, which only code can set.
/// The Grab ID SDK's own keys are read too: `ServiceDiscoveryUrl` (`discovery_url`), `ClientId`,
/// `RedirectUrl`, `Scope`, `Hint` (`login_hint`), `IdTokenHint`, `Prompt`, `AcrValues` and
/// `Request`; so are 7Pass's `consumerKey`, `consumerSecret` and `callbackUri`; a file naming a
/// key both ways is refused. A whole `Info.plist` works as it is: the
/// keys are then read from its `GrabIdPartnerSDK` dictionary (or `GrabPartnerIdSDK`, the spelling
/// of Grab's README example). `AcrValues` (and `acr_values`) may be Grab's dictionary
/// (`{"SERVICE": "PASSENGER", "consent_ctx": "countryCode=SG"}`), sent as
/// `acr_values=SERVICE:PASSENGER consent_ctx:countryCode=SG` (sorted by key), or a string.
/// `identity_provider_hint_parameter`, `identity_providers` and `app_login_fallback` are
/// described at ``identityProviderHintParameter``, ``identityProviders`` and ``appLoginFallback``;
/// `dpop`, `pushedAuthorization`, `acceptsBearerTokensForDPoP` and `securityProfile` at ``dpop``,
/// ``pushedAuthorization``, ``acceptsBearerTokensForDPoP`` and ``securityProfile``. 7Pass's `environment` picks the issuer
/// from an `environments` table (`{"environment": "qa", "environments": {"qa": "https://…",
/// "production": "https://…"}}`), so that one file serves every stage.
///
/// - Important: Plain `http://` URLs are accepted for loopback hosts only (`127.0.0.0/8`, `::1`,
///   `localhost`); anything else fails with ``ErrorCode/configurationInvalid``.
public struct HTTPServiceConfiguration: Sendable, Hashable {
    /// The OpenID Connect issuer; discovery is read from `<issuer>/.well-known/openid-configuration`
    /// (with RFC 8414's `oauth-authorization-server` document as fallback).
    public var issuer: URL?
    /// An explicit discovery document URL, used instead of the one derived from ``issuer``.
    public var discoveryURL: URL?
    /// The OAuth client id of the app.
    public var clientID: String
    /// The redirect URI registered for the app.
    public var redirectURI: URL
    /// The scopes asked for when an authorization request names none.
    public var scopes: [String]
    /// Where the registration and PIN extension endpoints live; `nil` means
    /// `<origin of the issuer or discovery URL>/identityflow`.
    public var extensionBaseURL: URL?
    /// The OpenID Connect `prompt` parameter (`login`, `consent`, `none`, ...).
    public var prompt: String?
    /// The `login_hint` parameter.
    public var loginHint: String?
    /// The `id_token_hint` parameter: a previously issued ID token, so it is kept redacted.
    public var idTokenHint: Redacted<String>?
    /// The `acr_values` parameter.
    public var acrValues: String?
    /// The `request` parameter: a request object (JWT) passed by value.
    public var requestObject: String?
    /// Where an installed identity app takes the same authorization request (Grab's app-to-app
    /// login), usually a custom URL scheme; `nil` uses the app the discovery document's
    /// `client_public_info_endpoint` lists (Grab's `protocol_ios`), if any.
    /// ``BrowserRegistrationChallenge/appURL`` carries it.
    public var appAuthorizationEndpoint: URL?
    /// The custom URL schemes (such as Grab's `grabconnect2`) an app authorization endpoint may
    /// use, configured or discovered. Empty by default: the endpoint must then be `https`, or
    /// `http` to a loopback host, like every other endpoint, since its URL carries the `state`,
    /// `nonce` and PKCE challenge. Set it in code; a configuration file cannot. `http`, `https`,
    /// `javascript`, `data`, `file`, `blob`, `about`, `vbscript`, `ftp`, `ws` and `wss` are never
    /// custom schemes (``problem`` refuses them).
    public var appAuthorizationSchemes: Set<String> = []
    /// What the browser challenge offers when the identity app is not installed (Grab's App Store
    /// fallback): the browser sign-in (the default), or the App Store link the provider names
    /// (Grab's `appstore_link_ios`), in ``BrowserRegistrationChallenge/appStoreURL``. File key
    /// `app_login_fallback`: `browser` or `app_store`.
    public var appLoginFallback: AppLoginFallback = .browser
    /// The authorization parameter that carries the chosen browser identity provider's
    /// ``IdentityProvider/identifier`` to the provider: `kc_idp_hint` (Keycloak), `idp` (Okta),
    /// `identity_provider` (Cognito), `connection` (Auth0), `domain_hint` (Entra ID). `nil` (the
    /// default) sends none. File key `identity_provider_hint_parameter`.
    public var identityProviderHintParameter: String?
    /// The identity providers to offer, when the provider has no extension endpoint to list them
    /// (every stock OpenID Connect provider): the OpenID Connect server's `identityProviders()` then
    /// answers from this list and asks nothing. `nil` (the default) asks the extension endpoint.
    /// File key `identity_providers`: a list of `{"id": …, "name": …, "type": "browser"}`
    /// (`type` also `custom` with `steps` 1 or 2, `credentials`, `token_exchange`).
    public var identityProviders: [IdentityProvider]?
    /// Further authorization parameters; they never replace the ones IdentityFlow sets itself.
    public var extraAuthorizationParameters: [String: String]
    /// How far the ID token's `exp`, `nbf` and `iat` may be off the device clock, in seconds.
    public var clockSkew: TimeInterval
    /// How long one HTTP request may take, in seconds.
    public var requestTimeout: TimeInterval
    /// The largest response body read; a larger one fails with ``ErrorCode/invalidServerResponse``.
    public var maxResponseBodySize: Int
    /// How the app authenticates at the token and revocation endpoints: ``ClientAuthentication/none``
    /// (a public client, the default) or a client secret, Basic or in the body. The file keys are
    /// `client_secret` and `token_endpoint_auth_method`.
    public var clientAuthentication: ClientAuthentication = .none
    /// The host's session configuration and delegate, headers added to every request, and pinned
    /// public keys. The file keys are `headers` (name → value) and `pinned_public_keys`
    /// (host → list of pins); the session customization is set in code.
    public var transportOptions = HTTPTransportOptions()
    /// When tokens are bound to the profile's DPoP key (RFC 9449): ``DPoPPolicy/whenAdvertised``
    /// by default (a provider that advertises DPoP gets it; off is an explicit choice). File key `dpop`.
    public var dpop: DPoPPolicy = .whenAdvertised
    /// Whether a provider that answers `token_type` `Bearer` to a token request carrying a DPoP
    /// proof is accepted (its tokens are then plain bearer tokens, and used as such). `false` by
    /// default: such an answer is refused with ``ErrorCode/tokenNotSenderConstrained`` and its
    /// tokens revoked, because the app asked for tokens a thief cannot use and would silently get
    /// ones a thief can. Never accepted under ``SecurityProfile/fapi2``. File key
    /// `acceptsBearerTokensForDPoP`.
    public var acceptsBearerTokensForDPoP = false
    /// When authorization requests are pushed (PAR, RFC 9126): ``PushedAuthorizationPolicy/whenAdvertised``
    /// by default; a provider that sets `require_pushed_authorization_requests` gets them pushed
    /// even with ``PushedAuthorizationPolicy/off``. File key `pushedAuthorization`.
    public var pushedAuthorization: PushedAuthorizationPolicy = .whenAdvertised
    /// The rules the client holds itself to: ``SecurityProfile/standard`` by default,
    /// ``SecurityProfile/fapi2`` for the FAPI 2.0 Security Profile's client side. File key
    /// `securityProfile`.
    public var securityProfile: SecurityProfile = .standard

    /// Creates a configuration.
    /// - Parameters:
    ///   - issuer: The OpenID Connect issuer (or pass `discoveryURL`).
    ///   - discoveryURL: An explicit discovery document URL.
    ///   - clientID: The OAuth client id.
    ///   - redirectURI: The app's redirect URI.
    ///   - scopes: Default scopes.
    ///   - extensionBaseURL: The extension endpoints' base URL; derived from the issuer when `nil`.
    ///   - clockSkew: Allowed clock difference for ID token times, in seconds.
    ///   - requestTimeout: Per-request timeout, in seconds.
    ///   - maxResponseBodySize: Response body cap, in bytes.
    public init(
        issuer: URL? = nil,
        discoveryURL: URL? = nil,
        clientID: String,
        redirectURI: URL,
        scopes: [String] = ["openid"],
        extensionBaseURL: URL? = nil,
        clockSkew: TimeInterval = 60,
        requestTimeout: TimeInterval = 30,
        maxResponseBodySize: Int = 1 << 20
    ) {
        self.issuer = issuer
        self.discoveryURL = discoveryURL
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.extensionBaseURL = extensionBaseURL
        self.extraAuthorizationParameters = [:]
        self.clockSkew = clockSkew
        self.requestTimeout = requestTimeout
        self.maxResponseBodySize = maxResponseBodySize
    }

    /// Loads a configuration from a JSON or property list file (see the type's discussion for the keys).
    /// - Parameter url: The file.
    /// - Throws: ``ErrorCode/configurationInvalid`` when the file cannot be read or parsed, a
    ///   required key is missing, or a value has the wrong type.
    public init(contentsOf url: URL) throws(IdentityFlowError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw IdentityFlowError(.configurationInvalid, "The configuration file \(url.lastPathComponent) cannot be read.", underlying: error)
        }
        try self.init(data: data, name: url.lastPathComponent)
    }

    /// Parses a configuration from JSON or property list data.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - name: What to call the data in error messages.
    /// - Throws: ``ErrorCode/configurationInvalid`` as ``init(contentsOf:)``.
    public init(data: Data, name: String = "configuration") throws(IdentityFlowError) {
        let object: Any
        do {
            if let json = try? JSONSerialization.jsonObject(with: data) {
                object = json
            } else {
                object = try PropertyListSerialization.propertyList(from: data, format: nil)
            }
        } catch {
            throw IdentityFlowError(.configurationInvalid, "The \(name) is neither JSON nor a property list.", underlying: error)
        }
        guard var values = object as? [String: Any] else {
            throw IdentityFlowError(.configurationInvalid, "The \(name) must be a dictionary at the top level.")
        }
        // Grab: an Info.plist nests the SDK's keys under `GrabIdPartnerSDK`.
        values = try Self.grabSection(of: values, name: name) ?? values
        // 7Pass: `environment` picks the issuer from `environments` (name → issuer URL).
        if let environment = values["environment"] {
            guard let chosen = environment as? String, let table = values["environments"] as? [String: String], let issuer = table[chosen] else {
                throw IdentityFlowError(.configurationInvalid, "The \(name)'s 'environment' names no entry of its 'environments' (name → issuer URL).")
            }
            guard values["issuer"] == nil else { throw IdentityFlowError(.configurationInvalid, "The \(name) names both 'environment' and 'issuer'.") }
            values["issuer"] = issuer
        }
        values["environments"] = nil
        values["environment"] = nil
        for (alias, key) in Self.grabKeys + Self.sevenPassKeys + Self.senderConstraintKeys where values[alias] != nil {
            guard values[key] == nil else {
                throw IdentityFlowError(.configurationInvalid, "The \(name) names both '\(alias)' and '\(key)'.")
            }
            values[key] = values.removeValue(forKey: alias)
        }
        try self.init(values: values, name: name)
    }

    /// The Grab ID SDK's Info.plist keys and the keys they stand for, so that a Grab `GrabIdPartnerSDK`
    /// dictionary configures the service as it is.
    static let grabKeys: [(alias: String, key: String)] = [
        ("ServiceDiscoveryUrl", "discovery_url"), ("ClientId", "client_id"), ("RedirectUrl", "redirect_uri"), ("Scope", "scopes"),
        ("Hint", "login_hint"), ("IdTokenHint", "id_token_hint"), ("Prompt", "prompt"), ("AcrValues", "acr_values"), ("Request", "request"),
    ]

    /// 7Pass's `SevenPassConfiguration` keys and the keys they stand for: `consumerKey`
    /// (`client_id`), `consumerSecret` (`client_secret`, sent as `client_secret_basic` unless
    /// `token_endpoint_auth_method` says otherwise) and `callbackUri` (`redirect_uri`).
    static let sevenPassKeys: [(alias: String, key: String)] = [
        ("consumerKey", "client_id"), ("consumerSecret", "client_secret"), ("callbackUri", "redirect_uri"),
    ]

    private init(values: [String: Any], name: String) throws(IdentityFlowError) {
        func string(_ key: String) throws(IdentityFlowError) -> String? {
            guard let value = values[key] else { return nil }
            guard let text = value as? String else {
                throw IdentityFlowError(.configurationInvalid, "'\(key)' in the \(name) must be a string.")
            }
            return text
        }
        func url(_ key: String) throws(IdentityFlowError) -> URL? {
            guard let text = try string(key) else { return nil }
            guard let url = URL(string: text), url.scheme != nil else {
                throw IdentityFlowError(.configurationInvalid, "'\(key)' in the \(name) is not an absolute URL.")
            }
            return url
        }
        func number(_ key: String) throws(IdentityFlowError) -> Double? {
            guard let value = values[key] else { return nil }
            guard let number = value as? NSNumber, !(value is Bool) else {
                throw IdentityFlowError(.configurationInvalid, "'\(key)' in the \(name) must be a number.")
            }
            return number.doubleValue
        }
        guard let clientID = try string("client_id"), !clientID.isEmpty else {
            throw IdentityFlowError(.configurationInvalid, "The \(name) has no 'client_id'.")
        }
        guard let redirectURI = try url("redirect_uri") else {
            throw IdentityFlowError(.configurationInvalid, "The \(name) has no 'redirect_uri'.")
        }
        self.init(
            issuer: try url("issuer"), discoveryURL: try url("discovery_url"), clientID: clientID, redirectURI: redirectURI,
            extensionBaseURL: try url("extension_base_url"))
        switch values["scopes"] {
        case nil: break
        case let list as [String]: scopes = list
        case let text as String: scopes = text.split(separator: " ").map(String.init)
        default: throw IdentityFlowError(.configurationInvalid, "'scopes' in the \(name) must be a list of strings or one string.")
        }
        prompt = try string("prompt")
        loginHint = try string("login_hint")
        idTokenHint = try string("id_token_hint").map(Redacted.init)
        acrValues = try Self.acrValues(values["acr_values"], name: name)
        requestObject = try string("request")
        appAuthorizationEndpoint = try url("app_authorization_endpoint")
        try readProviderKeys(values, name: name)
        if let extra = values["extra_authorization_parameters"] {
            guard let parameters = extra as? [String: String] else {
                throw IdentityFlowError(.configurationInvalid, "'extra_authorization_parameters' in the \(name) must map strings to strings.")
            }
            extraAuthorizationParameters = parameters
        }
        try readTransportAndClientKeys(values, name: name)
        try readSenderConstraintKeys(values, name: name)
        if let skew = try number("clock_skew_seconds") { clockSkew = skew }
        if let timeout = try number("request_timeout_seconds") { requestTimeout = timeout }
        if let size = try number("max_response_body_bytes") {
            // `Int(_:)` traps on NaN, infinity and values out of range: refuse those instead.
            guard let bytes = Int(exactly: size.rounded(.down)) else {
                throw IdentityFlowError(.configurationInvalid, "'max_response_body_bytes' in the \(name) must be a whole number of bytes (got \(size)).")
            }
            maxResponseBodySize = bytes
        }
    }

    /// Reads `client_secret`, `token_endpoint_auth_method`, `headers` and `pinned_public_keys`.
    private mutating func readTransportAndClientKeys(_ values: [String: Any], name: String) throws(IdentityFlowError) {
        let secret = values["client_secret"], method = values["token_endpoint_auth_method"]
        if secret != nil || method != nil {
            guard secret == nil || secret is String, method == nil || method is String,
                let authentication = ClientAuthentication.named(method as? String, secret: secret as? String)
            else {
                throw IdentityFlowError(
                    .configurationInvalid,
                    "'token_endpoint_auth_method' in the \(name) must be none, client_secret_basic or client_secret_post, with a non-empty string 'client_secret' for the last two and none for 'none'."
                )
            }
            clientAuthentication = authentication
        }
        if let headers = values["headers"] {
            guard let map = headers as? [String: String] else {
                throw IdentityFlowError(.configurationInvalid, "'headers' in the \(name) must map header names to strings.")
            }
            transportOptions.headers = map
        }
        if let pinned = values["pinned_public_keys"] {
            guard let map = pinned as? [String: [String]] else {
                throw IdentityFlowError(.configurationInvalid, "'pinned_public_keys' in the \(name) must map host names to lists of pins.")
            }
            transportOptions.pinnedPublicKeys = map.mapValues(Set.init)
        }
        if let problem = transportOptions.problem { throw problem }
    }

    // MARK: - Checks

    /// The first rule the configuration breaks, or `nil` when it is usable.
    ///
    /// Rules: an issuer or a discovery URL; a client id; every server URL `https`, or `http` to a
    /// loopback host; the app authorization endpoint too, or of a scheme listed in
    /// ``appAuthorizationSchemes``, which lists custom schemes only; a positive, finite timeout; a
    /// clock skew from 0 to 300 seconds (an infinite or huge skew would switch ID token expiry
    /// checks off); a body cap of at least 1 KiB; a hint parameter that is a parameter name and
    /// not one IdentityFlow sets itself; a provider list that is not empty and names no
    /// identifier twice; a template issuer (`…/{tenantid}/…`) only with a discovery URL.
    public var problem: IdentityFlowError? {
        guard let base = discoveryURL ?? issuer else {
            return IdentityFlowError(.configurationInvalid, "Give the issuer or the discovery URL.")
        }
        if clientID.isEmpty { return IdentityFlowError(.configurationInvalid, "The client id is empty.") }
        for url in [base, extensionBaseURL].compactMap({ $0 }) {
            if let problem = Self.transportProblem(url) { return problem }
        }
        for scheme in appAuthorizationSchemes where !Self.isCustomScheme(scheme) {
            return IdentityFlowError(
                .configurationInvalid, "appAuthorizationSchemes lists '\(scheme)', which is not a custom URL scheme an identity app can own.")
        }
        if let appAuthorizationEndpoint, let problem = appAuthorizationEndpointProblem(appAuthorizationEndpoint) { return problem }
        if let problem = identityProviderProblem { return problem }
        if let issuer, IssuerTemplate(issuer.absoluteString) != nil, discoveryURL == nil {
            return IdentityFlowError(
                .configurationInvalid,
                "The issuer \(issuer.absoluteString) is a tenant template: give the discovery URL too (e.g. Entra ID's …/common/v2.0/.well-known/openid-configuration), or configure the issuer …/common/v2.0."
            )
        }
        if !(requestTimeout > 0 && requestTimeout.isFinite) { return IdentityFlowError(.configurationInvalid, "requestTimeout must be positive and finite.") }
        if !(clockSkew >= 0 && clockSkew <= Self.maximumClockSkew) {
            return IdentityFlowError(.configurationInvalid, "clockSkew must be from 0 to \(Int(Self.maximumClockSkew)) seconds (got \(clockSkew)).")
        }
        if maxResponseBodySize < 1024 { return IdentityFlowError(.configurationInvalid, "maxResponseBodySize must be at least 1024 bytes.") }
        if let problem = transportOptions.problem { return problem }
        if let problem = clientAuthenticationProblem { return problem }
        return nil
    }

    /// A client secret that is empty, or that would go over plain `http` (loopback aside: the
    /// issuer's and discovery URL's checks already refuse other plain `http`).
    private var clientAuthenticationProblem: IdentityFlowError? {
        switch clientAuthentication {
        case .none: return nil
        case .clientSecretBasic(let secret), .clientSecretPost(let secret):
            return secret.value.isEmpty ? IdentityFlowError(.configurationInvalid, "The client secret is empty.") : nil
        }
    }

    /// The largest clock skew a configuration may allow, in seconds (5 minutes).
    package static let maximumClockSkew: TimeInterval = 300

    /// The discovery documents to try, in order.
    var discoveryCandidates: [URL] {
        if let discoveryURL { return [discoveryURL] }
        guard let issuer else { return [] }
        return Self.metadataURLs(of: issuer.absoluteString)
    }

    /// Where an issuer publishes its metadata: OpenID Connect Discovery's
    /// `<issuer>/.well-known/openid-configuration`, then RFC 8414's document, appended and (for an
    /// issuer with a path) inserted after the origin.
    static func metadataURLs(of issuer: String) -> [URL] {
        let trimmed = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        var candidates = [trimmed + openIDSuffix, trimmed + oauthSuffix]
        if let url = URL(string: issuer), var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            !components.path.isEmpty, components.path != "/"
        {
            let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.path = oauthSuffix + path
            components.query = nil
            if let inserted = components.string { candidates.append(inserted) }
        }
        return candidates.compactMap(URL.init(string:))
    }

    private static let openIDSuffix = "/.well-known/openid-configuration"
    private static let oauthSuffix = "/.well-known/oauth-authorization-server"

    /// The extension endpoints' base URL: the configured one or `<origin>/identityflow`.
    var resolvedExtensionBaseURL: URL? {
        if let extensionBaseURL { return extensionBaseURL }
        guard let base = issuer ?? discoveryURL, var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        components.path = "/identityflow"
        components.query = nil
        components.fragment = nil
        return components.url
    }

    /// `nil` when `url` may be used: `https`, or `http` to a loopback host.
    static func transportProblem(_ url: URL) -> IdentityFlowError? {
        switch url.scheme?.lowercased() {
        case "https": return nil
        case "http" where isLoopback(url.host): return nil
        case "http":
            return IdentityFlowError(.configurationInvalid, "Plain http is allowed for loopback hosts only, not for \(url.host ?? "a URL without host").")
        default: return IdentityFlowError(.configurationInvalid, "Only https URLs can reach the server (got scheme '\(url.scheme ?? "")').")
        }
    }

    /// `nil` when an app authorization endpoint (configured or discovered) may carry the request:
    /// `https`, `http` to a loopback host, or a custom scheme listed in ``appAuthorizationSchemes``.
    func appAuthorizationEndpointProblem(_ url: URL) -> IdentityFlowError? {
        let scheme = url.scheme?.lowercased() ?? ""
        if Self.isCustomScheme(scheme), appAuthorizationSchemes.contains(where: { $0.lowercased() == scheme }) { return nil }
        if ["https", "http"].contains(scheme), Self.transportProblem(url) == nil { return nil }
        return IdentityFlowError(
            .configurationInvalid,
            "The app_authorization_endpoint (configured, or the client public info's protocol_ios) must be https, or http to a loopback host, like every endpoint (got scheme '\(scheme)'\(scheme == "http" ? " to \(url.host ?? "no host")" : "")): its URL carries the state, nonce and PKCE challenge. A custom scheme is taken only when the app lists it in appAuthorizationSchemes."
        )
    }

    /// Schemes that are never an identity app's: the web's own, and those that run or read content.
    private static let nonCustomSchemes: Set<String> = ["http", "https", "javascript", "data", "file", "blob", "about", "vbscript", "ftp", "ws", "wss"]

    /// Whether `scheme` is a syntactically valid URL scheme (RFC 3986 §3.1) that an app can own.
    static func isCustomScheme(_ scheme: String) -> Bool {
        let lowered = scheme.lowercased()
        guard let first = lowered.unicodeScalars.first, ("a"..."z").contains(first), !nonCustomSchemes.contains(lowered) else { return false }
        return lowered.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }

    /// Whether a host is `localhost`, `::1` or in `127.0.0.0/8`.
    static func isLoopback(_ host: String?) -> Bool {
        guard var host = host?.lowercased() else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ UInt8($0) != nil }) else { return false }
        return octets[0] == "127"
    }
}
