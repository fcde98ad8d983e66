import Foundation

// MARK: - Redacted descriptions

/// A configuration carries values that identify the user or authorize the request: the login
/// hint (often an e-mail address), the ID token hint and the request object (a JWT that may hold
/// claims), and the client secret. Descriptions, debug descriptions and `dump` show `<redacted>`
/// for them; of the host's headers only the names are shown.
extension HTTPServiceConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The configuration with `login_hint`, `id_token_hint` and `request` shown as `<redacted>`.
    public var description: String {
        let fields = Self.shown(self).map { "\($0.label): \($0.value)" }
        return "HTTPServiceConfiguration(\(fields.joined(separator: ", ")))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror whose secret-bearing children are `<redacted>`, so that `dump` shows none of them.
    public var customMirror: Mirror {
        Mirror(self, children: Self.shown(self).map { (label: Optional($0.label), value: $0.value as Any) }, displayStyle: .struct)
    }

    /// Each stored property as it may be shown.
    private static func shown(_ configuration: HTTPServiceConfiguration) -> [(label: String, value: String)] {
        func text(_ value: (some Any)?) -> String { value.map { "\($0)" } ?? "nil" }
        func secret(_ value: (some Any)?) -> String { value == nil ? "nil" : "<redacted>" }
        return [
            ("issuer", text(configuration.issuer)), ("discoveryURL", text(configuration.discoveryURL)),
            ("clientID", configuration.clientID), ("redirectURI", "\(configuration.redirectURI)"), ("scopes", "\(configuration.scopes)"),
            ("extensionBaseURL", text(configuration.extensionBaseURL)), ("prompt", text(configuration.prompt)),
            ("loginHint", secret(configuration.loginHint)), ("idTokenHint", secret(configuration.idTokenHint)),
            ("acrValues", text(configuration.acrValues)), ("requestObject", secret(configuration.requestObject)),
            ("appAuthorizationEndpoint", text(configuration.appAuthorizationEndpoint)),
            ("appAuthorizationSchemes", "\(configuration.appAuthorizationSchemes.sorted())"),
            ("appLoginFallback", configuration.appLoginFallback.rawValue),
            ("identityProviderHintParameter", text(configuration.identityProviderHintParameter)),
            ("identityProviders", text(configuration.identityProviders?.map(\.identifier))),
            ("extraAuthorizationParameters", "\(configuration.extraAuthorizationParameters.keys.sorted())"),
            ("clockSkew", "\(configuration.clockSkew)"), ("requestTimeout", "\(configuration.requestTimeout)"),
            ("maxResponseBodySize", "\(configuration.maxResponseBodySize)"),
            ("clientAuthentication", configuration.clientAuthentication.description),
            ("headers", "\(configuration.transportOptions.headers.keys.sorted())"),
            ("pinnedHosts", "\(configuration.transportOptions.pinnedPublicKeys.keys.sorted())"),
            ("session", configuration.transportOptions.session == nil ? "default" : "custom"),
            ("dpop", configuration.dpop.rawValue), ("acceptsBearerTokensForDPoP", "\(configuration.acceptsBearerTokensForDPoP)"),
            ("pushedAuthorization", configuration.pushedAuthorization.rawValue), ("securityProfile", configuration.securityProfile.rawValue),
        ]
    }
}
