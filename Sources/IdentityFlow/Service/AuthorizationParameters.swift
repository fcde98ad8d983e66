import Foundation

/// Authorization request parameters for one sign-in: step-up (`acr_values`, `max_age`),
/// `prompt`, `login_hint`, `ui_locales` and parameters of the provider's own.
///
/// They are sent with the browser sign-in's authorization request, beside (and instead of) the
/// ones ``HTTPServiceConfiguration`` sets for every sign-in. When the tokens come back, the ID
/// token is checked against what was asked (OpenID Connect Core §3.1.2.1, §2):
///
/// - **`acr_values`**: the provider may satisfy another class than the ones asked for (the
///   parameter is a voluntary claim request). With ``requiresRequestedACR`` on (the default), the
///   ID token's `acr` must be one of ``acrValues``, as if they were requested as essential: an
///   `acr` that is missing or not among them fails the sign-in with
///   ``ErrorCode/stepUpNotSatisfied``. Turn it off to take whatever the provider did and read
///   ``IdentityClaims/authenticationContextClass`` yourself.
/// - **`max_age`**: the ID token's `auth_time` must be present, and not older than ``maxAge``
///   seconds plus ``authTimeLeeway`` (60 s by default, for the two clocks); otherwise
///   ``ErrorCode/stepUpNotSatisfied``.
///
/// A failed check revokes the tokens; nothing is stored.
///
/// ```swift
/// var parameters = AuthorizationParameters(acrValues: ["urn:example:mfa"], maxAge: 300)
/// parameters.loginHint = "alice@example.com"
/// parameters.extra["kc_idp_hint"] = "google"
/// ```
public struct AuthorizationParameters: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    private struct Fields: Sendable, Hashable {
        var acrValues: [String] = []
        var requiresRequestedACR = true
        var maxAge: Int?
        var prompt: String?
        var loginHint: String?
        var uiLocales: [String] = []
        var extra: [String: String] = [:]
        var authTimeLeeway: TimeInterval = 60
    }

    /// One word, shared by every empty value: most sign-ins ask nothing, and a registration
    /// keeps its parameters for its whole life (docs/performance-notes.md#boxed-payloads).
    private var fields: Box<Fields>
    private static let none = Box(Fields())

    /// `acr_values`: the authentication context classes asked for, most preferred first.
    public var acrValues: [String] {
        get { fields.value.acrValues }
        set { fields = fields.replacing(\.acrValues, with: newValue) }
    }
    /// Whether the ID token's `acr` must be one of ``acrValues`` (when any are sent). `true` by default.
    public var requiresRequestedACR: Bool {
        get { fields.value.requiresRequestedACR }
        set { fields = fields.replacing(\.requiresRequestedACR, with: newValue) }
    }
    /// `max_age`: the longest time since the user last authenticated, in seconds; `0` forces a
    /// new authentication.
    public var maxAge: Int? {
        get { fields.value.maxAge }
        set { fields = fields.replacing(\.maxAge, with: newValue) }
    }
    /// `prompt`: `login`, `consent`, `select_account` or `none` (several separated by spaces).
    public var prompt: String? {
        get { fields.value.prompt }
        set { fields = fields.replacing(\.prompt, with: newValue) }
    }
    /// `login_hint`: who is expected to sign in (an e-mail address, a phone number).
    public var loginHint: String? {
        get { fields.value.loginHint }
        set { fields = fields.replacing(\.loginHint, with: newValue) }
    }
    /// `ui_locales`: the languages of the provider's pages, most preferred first (BCP 47).
    public var uiLocales: [String] {
        get { fields.value.uiLocales }
        set { fields = fields.replacing(\.uiLocales, with: newValue) }
    }
    /// Parameters of the provider's own (`kc_idp_hint`, `domain_hint`, ...). Those the client
    /// sets itself are refused (``reservedNames``).
    public var extra: [String: String] {
        get { fields.value.extra }
        set { fields = fields.replacing(\.extra, with: newValue) }
    }
    /// How much older than ``maxAge`` the `auth_time` may be, for the difference between the
    /// provider's clock and the device's; 60 seconds by default.
    public var authTimeLeeway: TimeInterval {
        get { fields.value.authTimeLeeway }
        set { fields = fields.replacing(\.authTimeLeeway, with: newValue) }
    }

    /// Creates parameters; all are optional.
    /// - Parameters:
    ///   - acrValues: `acr_values`.
    ///   - requiresRequestedACR: Whether the ID token's `acr` must be one of `acrValues`.
    ///   - maxAge: `max_age`, in seconds.
    ///   - prompt: `prompt`.
    ///   - loginHint: `login_hint`.
    ///   - uiLocales: `ui_locales`.
    ///   - extra: The provider's own parameters.
    public init(
        acrValues: [String] = [], requiresRequestedACR: Bool = true, maxAge: Int? = nil, prompt: String? = nil, loginHint: String? = nil,
        uiLocales: [String] = [], extra: [String: String] = [:]
    ) {
        let fields = Fields(
            acrValues: acrValues, requiresRequestedACR: requiresRequestedACR, maxAge: maxAge, prompt: prompt, loginHint: loginHint,
            uiLocales: uiLocales, extra: extra)
        self.fields = fields == Self.none.value ? Self.none : Box(fields)
    }

    /// The names ``extra`` may not use: the protocol's own parameters the client sets (PKCE,
    /// `state`, `nonce`, the redirect URI, ...) and those this type names.
    public static let reservedNames: Set<String> = [
        "response_type", "response_mode", "client_id", "client_secret", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "request", "request_uri", "id_token_hint", "autologin_token", "acr_values", "max_age", "prompt",
        "login_hint", "ui_locales",
    ]

    /// Whether nothing is set.
    public var isEmpty: Bool { fields === Self.none || fields.value == Self.none.value }

    /// Checks the parameters before anything is sent.
    /// - Throws: ``ErrorCode/authorizationParameterReserved`` when ``extra`` names a reserved
    ///   parameter; ``ErrorCode/requestInvalid`` for a negative ``maxAge``.
    public func validate() throws(IdentityFlowError) {
        if let name = extra.keys.sorted().first(where: { Self.reservedNames.contains($0.lowercased()) }) {
            throw IdentityFlowError(
                .authorizationParameterReserved, "The authorization parameter '\(name)' is set by the client itself; it cannot be given as an extra parameter.")
        }
        if let maxAge, maxAge < 0 { throw IdentityFlowError(.requestInvalid, "max_age must not be negative.") }
    }

    /// The query parameters, in a fixed order: the typed ones, then ``extra`` by name.
    package var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if !acrValues.isEmpty { items.append(("acr_values", acrValues.joined(separator: " "))) }
        if let maxAge { items.append(("max_age", String(maxAge))) }
        if let prompt { items.append(("prompt", prompt)) }
        if let loginHint { items.append(("login_hint", loginHint)) }
        if !uiLocales.isEmpty { items.append(("ui_locales", uiLocales.joined(separator: " "))) }
        items += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return items
    }

    /// Checks an ID token's claims against what was asked (see the type's discussion).
    /// - Parameters:
    ///   - claims: The claims of the ID token the sign-in returned; `nil` when it returned none.
    ///   - now: The current time.
    /// - Throws: ``ErrorCode/stepUpNotSatisfied`` naming the failed check.
    package func check(_ claims: @autoclosure () -> IdentityClaims?, now: Date) throws(IdentityFlowError) {
        let checksACR = requiresRequestedACR && !acrValues.isEmpty
        guard checksACR || maxAge != nil else { return }
        // Read only when something is asked of them: most sign-ins ask nothing.
        let claims = claims()
        guard let claims else {
            throw IdentityFlowError(.stepUpNotSatisfied, "The sign-in returned no ID token to check acr_values or max_age against.")
        }
        if checksACR {
            guard let acr = claims.authenticationContextClass else {
                throw IdentityFlowError(.stepUpNotSatisfied, "The ID token has no acr although acr_values were asked for.")
            }
            guard acrValues.contains(where: { $0.hasSameBytes(as: acr) }) else {
                throw IdentityFlowError(.stepUpNotSatisfied, "The ID token's acr '\(acr)' is not among the acr_values asked for.")
            }
        }
        if let maxAge {
            guard let authTime = claims.authenticationTime else {
                throw IdentityFlowError(.stepUpNotSatisfied, "The ID token has no auth_time although max_age was sent.")
            }
            let age = now.timeIntervalSince(authTime)
            guard age <= TimeInterval(maxAge) + max(0, authTimeLeeway) else {
                throw IdentityFlowError(
                    .stepUpNotSatisfied, "The user last authenticated \(Int(age)) s ago, more than the max_age of \(maxAge) s asked for.")
            }
        }
    }

    /// Lists the names of what is set, never their values (`login_hint` names a person).
    public var description: String {
        let names = queryItems.map(\.0)
        return "AuthorizationParameters(\(names.isEmpty ? "none" : names.joined(separator: ", ")))"
    }

    /// Shows the description only, so `dump` reveals no value either.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
