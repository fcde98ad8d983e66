import Foundation

/// What a ``BrowserRegistrationChallenge`` offers when the identity app of an app-to-app login
/// (Grab's) is not installed.
public enum AppLoginFallback: String, Sendable, Hashable, CaseIterable {
    /// Sign in in the browser, as without an identity app (the default).
    case browser
    /// Send the user to the App Store page the provider names, to install the identity app
    /// (Grab's `appstore_link_ios`); the browser when the provider names none.
    case appStore = "app_store"
}

// The configuration of identity providers: the hint parameter, a configured provider list, Grab's
// nested Info.plist section and its dictionary of ACR values.
extension HTTPServiceConfiguration {
    /// The keys of Grab's SDK section in an `Info.plist`: the SDK's own, and the spelling of its
    /// README's example.
    static let grabSectionKeys = ["GrabIdPartnerSDK", "GrabPartnerIdSDK"]

    /// The Grab SDK section of a whole `Info.plist`, or `nil` when the dictionary has none (it is
    /// then the configuration itself).
    static func grabSection(of values: [String: Any], name: String) throws(IdentityFlowError) -> [String: Any]? {
        let present = grabSectionKeys.filter { values[$0] != nil }
        guard let key = present.first else { return nil }
        guard present.count == 1 else {
            throw IdentityFlowError(.configurationInvalid, "The \(name) names both '\(grabSectionKeys[0])' and '\(grabSectionKeys[1])'.")
        }
        guard let section = values[key] as? [String: Any] else {
            throw IdentityFlowError(.configurationInvalid, "'\(key)' in the \(name) must be a dictionary.")
        }
        return section
    }

    /// `acr_values` from a string, or from Grab's dictionary (`key:value` pairs joined by spaces,
    /// sorted by key; empty keys or values are left out, as Grab's SDK does).
    static func acrValues(_ value: Any?, name: String) throws(IdentityFlowError) -> String? {
        switch value {
        case nil: return nil
        case let text as String: return text
        case let pairs as [String: String]:
            let joined = pairs.filter { !$0.key.isEmpty && !$0.value.isEmpty }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            return joined.isEmpty ? nil : joined.joined(separator: " ")
        default:
            throw IdentityFlowError(
                .configurationInvalid, "'acr_values' (or Grab's 'AcrValues') in the \(name) must be a string or a dictionary of strings.")
        }
    }

    /// Reads `identity_provider_hint_parameter`, `identity_providers` and `app_login_fallback`.
    mutating func readProviderKeys(_ values: [String: Any], name: String) throws(IdentityFlowError) {
        if let hint = values["identity_provider_hint_parameter"] {
            guard let text = hint as? String else {
                throw IdentityFlowError(.configurationInvalid, "'identity_provider_hint_parameter' in the \(name) must be a string.")
            }
            identityProviderHintParameter = text
        }
        if let fallback = values["app_login_fallback"] {
            guard let text = fallback as? String, let chosen = AppLoginFallback(rawValue: text) else {
                throw IdentityFlowError(.configurationInvalid, "'app_login_fallback' in the \(name) must be 'browser' or 'app_store'.")
            }
            appLoginFallback = chosen
        }
        if let list = values["identity_providers"] {
            guard let entries = list as? [[String: Any]] else {
                throw IdentityFlowError(.configurationInvalid, "'identity_providers' in the \(name) must be a list of dictionaries.")
            }
            var providers: [IdentityProvider] = []
            for entry in entries { providers.append(try Self.identityProvider(entry, name: name)) }
            identityProviders = providers
        }
    }

    /// One `identity_providers` entry: `id`, `name` (defaults to the id), `type` (defaults to
    /// `browser`) and, for `custom`, `steps` (1 or 2).
    private static func identityProvider(_ entry: [String: Any], name: String) throws(IdentityFlowError) -> IdentityProvider {
        guard let id = entry["id"] as? String, !id.isEmpty else {
            throw IdentityFlowError(.configurationInvalid, "An entry of 'identity_providers' in the \(name) has no 'id'.")
        }
        let display = entry["name"] as? String ?? id
        let kind: IdentityProvider.Kind
        switch (entry["type"] as? String ?? "browser", (entry["steps"] as? NSNumber)?.intValue) {
        case ("browser", _): kind = .browser
        case ("credentials", _): kind = .credentials
        case ("token_exchange", _): kind = .tokenExchange
        case ("custom", let steps?) where CustomRegistrationSteps(rawValue: steps) != nil: kind = .custom(CustomRegistrationSteps(rawValue: steps) ?? .oneStep)
        default:
            throw IdentityFlowError(
                .configurationInvalid,
                "The entry '\(id)' of 'identity_providers' in the \(name) has no valid 'type' (browser, credentials, token_exchange, or custom with steps 1 or 2)."
            )
        }
        return IdentityProvider(identifier: id, name: display, kind: kind)
    }

    /// The OAuth and OpenID Connect parameters IdentityFlow sets itself: a hint parameter may not
    /// be one of them.
    static let reservedAuthorizationParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
        "prompt", "login_hint", "id_token_hint", "acr_values", "request", "request_uri", "response_mode", "max_age", "claims",
        "autologin_token",
    ]

    /// The first problem of the hint parameter or the configured provider list, if any: a hint
    /// parameter that is empty or a parameter IdentityFlow sets itself; an empty list, or one
    /// naming an identifier twice.
    var identityProviderProblem: IdentityFlowError? {
        if let hint = identityProviderHintParameter {
            if hint.isEmpty || hint.unicodeScalars.contains(where: { !(0x21...0x7E).contains($0.value) || "&=#".unicodeScalars.contains($0) }) {
                return IdentityFlowError(.configurationInvalid, "identityProviderHintParameter must be a parameter name (got '\(hint)').")
            }
            if Self.reservedAuthorizationParameters.contains(hint) {
                return IdentityFlowError(
                    .configurationInvalid, "identityProviderHintParameter names '\(hint)', which IdentityFlow sets itself; name the provider's hint parameter.")
            }
        }
        if let identityProviders {
            if identityProviders.isEmpty {
                return IdentityFlowError(.configurationInvalid, "identityProviders is empty: list at least one provider, or leave it nil to ask the server.")
            }
            var seen = Set<String>()
            for provider in identityProviders where !seen.insert(provider.identifier).inserted {
                return IdentityFlowError(.configurationInvalid, "identityProviders names '\(provider.identifier)' twice.")
            }
        }
        return nil
    }

    /// The hint parameter for a browser provider, when one is configured.
    func identityProviderHint(for provider: IdentityProvider) -> (String, String)? {
        guard provider.kind == .browser, let name = identityProviderHintParameter, !provider.identifier.isEmpty else { return nil }
        return (name, provider.identifier)
    }
}
