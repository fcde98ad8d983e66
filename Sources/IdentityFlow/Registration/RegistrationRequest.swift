/// What a registration asks for: how the user signs in (an identity provider, another provider's
/// token, or the checkpointed browser sign-in to resume), whether the session is stateless, and
/// the scopes. Every registration entry point of ``UserClient`` takes one: the delegate, the
/// responder and the answering closure style alike.
///
/// ```swift
/// client.registerUser(.default, delegate: registrationScreen)              // the server's first browser provider
/// let result = try await client.registerUser(.provider(custom), responder: screen)
/// let social = try await client.registerUser(.externalToken(googleToken), responder: screen)
/// let guest = try await client.registerUser(.provider(browser).stateless(), responder: screen)
/// let resumed = try await client.registerUser(.resume, responder: screen)  // after process death
/// ```
///
/// Per-call authorization parameters (`acr_values`, `max_age`, `prompt`, `login_hint`, ...) are
/// meant to join this value as one more stored property, so that every entry point gets them at
/// once.
public struct RegistrationRequest: Sendable, Hashable, CustomStringConvertible {
    /// How the user signs in.
    public enum SignIn: Sendable, Hashable {
        /// With the server's first browser identity provider (``UserClient/identityProviders()``).
        case serverDefault
        /// With this identity provider: browser, custom (one- or two-step) or credentials. A
        /// custom provider the server does not offer fails with ``ErrorCode/invalidIdentityProvider``.
        case identityProvider(IdentityProvider)
        /// With a token another provider issued (Google, Facebook, ...): the server exchanges it
        /// (RFC 8693); a refused token fails with ``ErrorCode/externalTokenRefused``.
        case externalToken(ExternalToken)
        /// Continues the browser registration ``UserClient/start()`` found checkpointed
        /// (``LaunchReport/resumableRegistrations``), with the redirect
        /// ``UserClient/handleRedirect(_:)`` kept for it, or with its browser challenge again.
        case resume
    }

    private struct Fields: Sendable, Hashable {
        var signIn: SignIn
        var scopes: [String]?
        var isStateless: Bool
        var authorizationParameters: AuthorizationParameters
    }

    /// One word, not 160 bytes: a request sits in the frame of every task that awaits a
    /// registration (docs/performance-notes.md#boxed-payloads).
    private var fields: Box<Fields>

    /// How the user signs in.
    public var signIn: SignIn {
        get { fields.value.signIn }
        set { fields = fields.replacing(\.signIn, with: newValue) }
    }
    /// The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``. An empty list
    /// fails with ``ErrorCode/requestInvalid`` before anything is sent.
    public var scopes: [String]? {
        get { fields.value.scopes }
        set { fields = fields.replacing(\.scopes, with: newValue) }
    }
    /// Whether the registration is stateless: the same providers and challenges but no PIN, and
    /// nothing stored on the device (no profile, no tokens, no checkpoint). The session lives in
    /// memory until ``UserClient/logout()``, another registration, or the end of the process; the
    /// profile is flagged ``UserProfile/isStateless`` and is not among ``UserClient/userProfiles``.
    public var isStateless: Bool {
        get { fields.value.isStateless }
        set { fields = fields.replacing(\.isStateless, with: newValue) }
    }
    /// The sign-in's own authorization request parameters (step-up with `acr_values` and
    /// `max_age`, `prompt`, `login_hint`, `ui_locales`, the provider's own), sent with a browser
    /// sign-in and checked against its ID token (``AuthorizationParameters``); empty by default.
    public var authorizationParameters: AuthorizationParameters {
        get { fields.value.authorizationParameters }
        set { fields = fields.replacing(\.authorizationParameters, with: newValue) }
    }

    /// Creates a request.
    /// - Parameters:
    ///   - signIn: How the user signs in.
    ///   - scopes: The scopes; `nil` for ``ClientConfiguration/defaultScopes``.
    ///   - isStateless: Whether nothing is stored and no PIN is asked for.
    ///   - authorizationParameters: The sign-in's own authorization parameters.
    public init(
        signIn: SignIn = .serverDefault, scopes: [String]? = nil, isStateless: Bool = false,
        authorizationParameters: AuthorizationParameters = AuthorizationParameters()
    ) {
        fields = Box(Fields(signIn: signIn, scopes: scopes, isStateless: isStateless, authorizationParameters: authorizationParameters))
    }

    /// The server's first browser identity provider, the default scopes, a stored profile with a PIN.
    public static var `default`: RegistrationRequest { RegistrationRequest() }

    /// As ``default``, but stateless (see ``isStateless``).
    public static var stateless: RegistrationRequest { RegistrationRequest(isStateless: true) }

    /// Continue the checkpointed browser registration (see ``SignIn/resume``). Its provider,
    /// scopes and mode are the checkpoint's: setting ``scopes`` or ``isStateless`` on it fails
    /// with ``ErrorCode/requestInvalid``.
    public static var resume: RegistrationRequest { RegistrationRequest(signIn: .resume) }

    /// Signs in with an identity provider.
    /// - Parameters:
    ///   - provider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes; `nil` for ``ClientConfiguration/defaultScopes``.
    /// - Returns: The request.
    public static func provider(_ provider: IdentityProvider?, scopes: [String]? = nil) -> RegistrationRequest {
        RegistrationRequest(signIn: provider.map { .identityProvider($0) } ?? .serverDefault, scopes: scopes)
    }

    /// Signs in with another provider's token, which the server exchanges (social login, RFC 8693).
    /// An `interaction_required` answer continues in the browser with a
    /// ``BrowserRegistrationChallenge`` that signs the user in without asking again.
    /// - Parameters:
    ///   - token: The other provider's token.
    ///   - scopes: The scopes; `nil` for ``ClientConfiguration/defaultScopes``.
    /// - Returns: The request.
    public static func externalToken(_ token: ExternalToken, scopes: [String]? = nil) -> RegistrationRequest {
        RegistrationRequest(signIn: .externalToken(token), scopes: scopes)
    }

    /// This request, stateless (see ``isStateless``).
    /// - Returns: A copy with ``isStateless`` set.
    public func stateless() -> RegistrationRequest {
        var request = self
        request.isStateless = true
        return request
    }

    /// This request with the sign-in's own authorization parameters.
    ///
    /// ```swift
    /// let result = try await client.registerUser(
    ///     .provider(browser).with(AuthorizationParameters(acrValues: ["urn:example:mfa"], maxAge: 300)), responder: screen)
    /// ```
    /// - Parameter parameters: The parameters (see ``AuthorizationParameters`` for the checks).
    /// - Returns: A copy with ``authorizationParameters`` set.
    public func with(_ parameters: AuthorizationParameters) -> RegistrationRequest {
        var request = self
        request.authorizationParameters = parameters
        return request
    }

    /// This request with other scopes.
    /// - Parameter scopes: The scopes; `nil` for ``ClientConfiguration/defaultScopes``.
    /// - Returns: A copy with ``scopes`` set.
    public func withScopes(_ scopes: [String]?) -> RegistrationRequest {
        var request = self
        request.scopes = scopes
        return request
    }

    /// The sign-in, mode and scopes; an external token prints redacted.
    public var description: String {
        let signIn: String =
            switch signIn {
            case .serverDefault: "serverDefault"
            case .identityProvider(let provider): "identityProvider(\(provider.identifier))"
            case .externalToken(let token): "\(token)"
            case .resume: "resume"
            }
        let parameters = authorizationParameters.isEmpty ? "" : ", \(authorizationParameters)"
        return "RegistrationRequest(\(signIn)\(isStateless ? ", stateless" : "")\(scopes.map { ", scopes: \($0)" } ?? "")\(parameters))"
    }
}

extension RegistrationRequest {
    /// The provider a failure callback names before the flow resolved one: the requested
    /// provider, the token exchange's, or `nil` (the server's default, a resume).
    var requestedProvider: IdentityProvider? {
        switch signIn {
        case .identityProvider(let provider): provider
        case .externalToken(let token): UserClient.exchangeProvider(token)
        case .serverDefault, .resume: nil
        }
    }
}
