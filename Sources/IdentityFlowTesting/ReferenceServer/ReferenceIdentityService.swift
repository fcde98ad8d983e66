import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// An in-memory identity server for tests, demos and hosts' own unit tests.
///
/// It knows the users `alice` and `bob` (``users``; ``addUser(_:)`` adds one): ``logIn(at:as:consent:)``
/// for anyone else throws, and a ``ScriptedResponder`` step that calls it cancels the flow with
/// that reason.
///
/// It offers a browser identity provider (tests play the browser with ``logIn(at:as:consent:)``),
/// scripted custom identity providers, PKCE-checked code exchange, PIN enrolment and PIN-proof
/// login with server-side failure counting, refresh with rotation, revocation and
/// deregistration, and fault injection per call (``inject(_:into:times:)``).
///
/// ```swift
/// let server = ReferenceIdentityService()
/// server.addCustomProvider(id: "two-step", steps: .twoStep) { step, data in
///     data == "retry" ? .status(4001) : .status(2000)
/// }
/// let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
/// ```
public final class ReferenceIdentityService: Sendable {
    /// The browser provider every reference server offers.
    public static let browserProvider = IdentityProvider(identifier: "reference-browser", name: "Reference browser login", kind: .browser)
    /// The issuer it names in authorization responses (RFC 9207 `iss`).
    public static let issuer = "https://reference.identityflow.invalid"
    /// Where its authorization page pretends to live.
    public static let authorizationEndpoint = URL(string: "https://reference.identityflow.invalid/authorize")!
    /// Where its identity app pretends to take authorization requests (app-to-app login).
    public static let appAuthorizationEndpoint = URL(string: "reference-identity-app://authorize")!

    /// Whether browser challenges also carry an ``appAuthorizationEndpoint`` URL (off by default).
    public var offersAppLogin: Bool {
        get { state.withLock { $0.offersAppLogin } }
        set { state.withLock { $0.offersAppLogin = newValue } }
    }

    let state: Locked<ServerState>
    private let clock: any Clock<Duration>
    let now: @Sendable () -> Date

    /// Creates a server with the browser provider and the users `alice` and `bob`.
    /// - Parameters:
    ///   - maxPinFailures: Wrong PINs in a row before the server deregisters a profile.
    ///   - accessTokenLifetime: How long access tokens live.
    ///   - clock: The clock injected latency sleeps on.
    ///   - now: The current time, for token expiry.
    public init(
        maxPinFailures: Int = 3,
        accessTokenLifetime: TimeInterval = 3600,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.state = Locked(ServerState(maxPinFailures: maxPinFailures, accessTokenLifetime: accessTokenLifetime))
        self.clock = clock
        self.now = now
    }

    // MARK: - Set-up

    /// Adds a scripted custom identity provider.
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - name: Its display name.
    ///   - steps: One-step or two-step.
    ///   - script: Decides each step's answer.
    /// - Returns: The provider, to pass to `registerUser(.provider())`.
    @discardableResult
    public func addCustomProvider(id: String, name: String? = nil, steps: CustomRegistrationSteps, script: @escaping CustomProviderScript) -> IdentityProvider {
        let provider = IdentityProvider(identifier: id, name: name ?? id, kind: .custom(steps))
        state.withLock { state in
            state.providers.removeAll { $0.identifier == id }
            state.providers.append(provider)
            state.scripts[id] = script
        }
        return provider
    }

    /// Adds a user the browser provider can log in.
    /// - Parameter username: The user's name.
    public func addUser(_ username: String) { state.withLock { _ = $0.users.insert(username) } }

    /// Enrols a PIN the way PIN proof v1 did, with a password-equivalent verifier, for tests of
    /// the upgrade to v2 (`docs/pin-proof.md`, "Migration from v1"). The profile belongs to `user`.
    /// - Parameters:
    ///   - pin: The PIN.
    ///   - profile: The profile, as a v1 client stored it.
    ///   - user: The user it belongs to.
    ///   - salt: The v1 salt.
    ///   - iterations: The v1 iteration count.
    public func enrolLegacyPin(
        _ pin: String, for profile: UserProfile, user: String = "alice",
        salt: [UInt8] = Array(0..<16), iterations: Int = 16
    ) throws(IdentityFlowError) {
        let verifier = try LegacyPinProof.derivedKey(pin: Redacted(pin), salt: salt, iterations: iterations)
        state.withLock { state in
            state.users.insert(user)
            state.enrolments[profile.profileId] = ServerState.Enrolment(
                user: user, salt: salt, iterations: iterations, verifier: .v1(verifier), biometricKey: nil, failureCount: 0)
        }
    }

    /// Removes a profile as the server's operator would, without the PIN key's proof that
    /// `deregister(_:authorization:)` needs: its enrolment, device keys, requests and its user's
    /// tokens. For tests of a profile the server no longer knows.
    /// - Parameter profile: The profile.
    public func removeProfile(_ profile: UserProfile) { state.withLock { $0.forget(profile) } }

    /// Forgets a profile's biometric public key on the server alone, as an operator would.
    package func revokeBiometricKeyForTesting(of profile: UserProfile) {
        state.withLock { $0.enrolments[profile.profileId]?.biometricKey = nil }
    }

    /// Puts another public key in place of a profile's PIN key (and of its biometric key, when it
    /// has one), as if both had been replaced from another device: every proof this device
    /// makes is wrong from then on.
    package func replacePinKeyForTesting(of profile: UserProfile, with publicKey: [UInt8]) {
        state.withLock { state in
            guard let enrolment = state.enrolments[profile.profileId] else { return }
            state.enrolments[profile.profileId] = ServerState.Enrolment(
                user: enrolment.user, salt: enrolment.salt, iterations: enrolment.iterations, verifier: .v2(publicKey: publicKey),
                biometricKey: enrolment.biometricKey == nil ? nil : publicKey, failureCount: enrolment.failureCount)
        }
    }

    /// Makes the next `times` calls of `call` fail (or slow down) with `fault`.
    /// - Parameters:
    ///   - fault: What goes wrong.
    ///   - call: Which call.
    ///   - times: How many calls in a row it affects.
    public func inject(_ fault: ServiceFault, into call: ServiceCall, times: Int = 1) {
        state.withLock { $0.faults[call, default: []] += Array(repeating: fault, count: times) }
    }

    /// Sets how many wrong PINs in a row the server accepts before it deregisters the profile.
    /// - Parameter count: The new limit.
    public func setMaxPinFailures(_ count: Int) { state.withLock { $0.maxPinFailures = count } }

    // MARK: - Playing the browser

    /// What the user does on the login page.
    public enum Consent: Sendable {
        /// Logs in and grants access.
        case allow
        /// Refuses: the redirect carries `error=access_denied`.
        case deny
        /// Signs in a new user the provider needs more attributes from (Zephr's partial
        /// registration): the redirect carries `status=partial`, a `state_key` and `identifier`.
        /// Complete it with attributes including `email`; `@blocked.example` addresses are
        /// refused, and so is the address of a user the server knows (`<user>@example.com`).
        case partial(identifier: String)
        /// Logs an existing user in the way Zephr does: the redirect carries `action=login`,
        /// `status=success`, a `tracking_id` and a `session_id` (no code), which
        /// `exchangeSession(_:request:)` exchanges for tokens with the request's PKCE verifier.
        case session
    }

    /// Plays the browser (or the identity app, at an app URL): logs a user in at an authorization
    /// URL the server produced and returns the redirect URL to hand to the challenge's sender.
    /// - Parameters:
    ///   - url: The challenge's URL.
    ///   - username: Who logs in.
    ///   - consent: Allow or deny.
    /// - Returns: The redirect URL, with `code` (or `error`) and `state`; Zephr's callbacks
    ///   (``Consent/partial(identifier:)``, ``Consent/session``) without `state`.
    /// - Throws: `ErrorCode/requestInvalid` for a URL this server did not produce or an unknown user.
    public func logIn(at url: URL, as username: String = "alice", consent: Consent = .allow) throws(IdentityFlowError) -> URL {
        guard
            url.absoluteString.hasPrefix(Self.authorizationEndpoint.absoluteString)
                || url.absoluteString.hasPrefix(Self.appAuthorizationEndpoint.absoluteString)
        else { throw IdentityFlowError(.requestInvalid, "Not an authorization URL of this reference server.") }
        // A pushed request's parameters (senderConstraint.requiresPushedAuthorization), or the URL's own.
        let items = try authorizationParameters(of: url)
        func query(_ name: String) -> String? { items.last { $0.name == name }?.value }
        guard
            let redirect = query("redirect_uri").flatMap(URL.init(string:)),
            let challenge = query("code_challenge"), query("code_challenge_method") == "S256"
        else { throw IdentityFlowError(.requestInvalid, "Not an authorization URL of this reference server.") }
        var answer: [(name: String, value: String)] = []
        switch consent {
        case .deny:
            answer.append(("error", "access_denied"))
        case .partial(let identifier):
            let scopes = query("scope")?.split(separator: " ").map(String.init) ?? []
            let expiresAt = now().addingTimeInterval(600)
            let key = state.withLock { state in
                let key = "sk-" + state.nextSerial()
                state.partialGrants[key] = (ServerState.Grant(user: "", codeChallenge: challenge, redirectURI: redirect, scopes: scopes), identifier, expiresAt)
                return key
            }
            answer += [("action", "register"), ("status", "partial"), ("state_key", key), ("identifier", identifier)]
        case .session:
            let scopes = query("scope")?.split(separator: " ").map(String.init) ?? []
            let session = try state.withLock { state throws(IdentityFlowError) in
                guard state.users.contains(username) else {
                    throw IdentityFlowError(
                        .requestInvalid,
                        "No user \(username) on the reference server; it knows \(state.users.sorted().joined(separator: ", ")) (add one with addUser(_:)).")
                }
                let session = "zs-" + state.nextSerial()
                state.grants[session] = ServerState.Grant(user: username, codeChallenge: challenge, redirectURI: redirect, scopes: scopes)
                return session
            }
            answer += [("action", "login"), ("status", "success"), ("tracking_id", "t-" + session), ("session_id", session)]
        case .allow:
            let scopes = query("scope")?.split(separator: " ").map(String.init) ?? []
            let code = try state.withLock { state throws(IdentityFlowError) in
                // An autologin token (7Pass) signs its user in; the interaction it stood for is done.
                let username = query("autologin_token").flatMap { state.autologinTokens.removeValue(forKey: $0) } ?? username
                state.usersNeedingInteraction.remove(username)
                guard state.users.contains(username) else {
                    throw IdentityFlowError(
                        .requestInvalid,
                        "No user \(username) on the reference server; it knows \(state.users.sorted().joined(separator: ", ")) (add one with addUser(_:)).")
                }
                let code = "code-" + state.nextSerial()
                state.grants[code] = ServerState.Grant(
                    user: username, codeChallenge: challenge, redirectURI: redirect, scopes: scopes, nonce: query("nonce"),
                    acrValues: query("acr_values")?.split(separator: " ").map(String.init) ?? [],
                    authTime: now().addingTimeInterval(-state.authenticationAge), dpopKeyThumbprint: query("dpop_jkt"))
                return code
            }
            answer.append(("code", code))
        }
        // Zephr's callbacks (partial, session) carry neither state nor iss, as Zephr documents them.
        switch consent {
        case .partial, .session: break
        case .allow, .deny:
            if let sentState = query("state") { answer.append(("state", sentState)) }
            answer.append(("iss", Self.issuer))
        }
        guard let redirected = URLQuery.url(redirect, appending: answer) else {
            throw IdentityFlowError(.requestInvalid, "The redirect URI is not a URL.")
        }
        return redirected
    }

    // MARK: - Inspection

    /// Every call received so far, in order.
    public var calls: [ServiceCall] { state.withLock { $0.calls } }
    /// The access tokens the server still accepts.
    public var activeAccessTokenCount: Int { state.withLock { $0.accessTokens.count } }
    /// The refresh tokens the server still accepts.
    public var activeRefreshTokenCount: Int { state.withLock { $0.refreshTokens.count } }
    /// The profiles with an enrolled PIN.
    public var enrolledProfiles: Set<UserProfile> { state.withLock { Set($0.enrolments.keys.map(UserProfile.init(profileId:))) } }
    /// The PIN proof version of a profile's enrolment (1 or 2), or `nil` when it has none.
    /// - Parameter profile: The profile.
    /// - Returns: The version.
    public func pinProofVersion(of profile: UserProfile) -> Int? {
        state.withLock { state in
            state.enrolments[profile.profileId].map { if case .v1 = $0.verifier { 1 } else { 2 } }
        }
    }
    /// Whether the server holds a biometric key for a profile.
    /// - Parameter profile: The profile.
    /// - Returns: Whether one is registered.
    public func hasBiometricKey(for profile: UserProfile) -> Bool {
        state.withLock { $0.enrolments[profile.profileId]?.biometricKey != nil }
    }
    /// The users the server knows.
    public var users: Set<String> { state.withLock { $0.users } }

    /// Whether the server accepts this access token now.
    /// - Parameter token: The token.
    /// - Returns: `true` for a known, unexpired, unrevoked token.
    public func acceptsAccessToken(_ token: String) -> Bool {
        let date = now()
        return state.withLock { $0.accessTokens[token].map { $0.expiresAt > date } ?? false }
    }

    // MARK: - Helpers

    /// Records the call, applies an injected fault (sleeping first for latency), or lets it through.
    nonisolated(nonsending) func enter(_ call: ServiceCall) async throws(IdentityFlowError) {
        let fault = state.withLock { state in
            state.calls.append(call)
            return state.faults[call]?.isEmpty == false ? state.faults[call]?.removeFirst() : nil
        }
        if case .latency(let delay) = fault {
            do { try await clock.sleep(for: delay) } catch {
                throw IdentityFlowError(.actionCancelled, "The call was cancelled while the server was slow.")
            }
        }
        if let error = fault?.error { throw error }
        if Task.isCancelled { throw IdentityFlowError(.actionCancelled, "The call was cancelled.") }
    }

    /// Issues an access and a refresh token: a new sign-in (token family), or the next pair of
    /// `family` at a refresh.
    /// With `dpopKeyThumbprint`, both tokens are bound to that DPoP key (`token_type` `DPoP`).
    func issueTokens(for user: String, scopes: [String], in state: inout ServerState, family: String? = nil, dpopKeyThumbprint: String? = nil) -> TokenSet {
        let family = family ?? "family-" + state.nextSerial()
        let access = "at-" + state.nextSerial()
        let refresh = "rt-" + state.nextSerial()
        let expiresAt = now().addingTimeInterval(state.accessTokenLifetime)
        state.accessTokens[access] = ServerState.AccessGrant(user: user, expiresAt: expiresAt, family: family, dpopKeyThumbprint: dpopKeyThumbprint)
        state.refreshTokens[refresh] = ServerState.RefreshGrant(user: user, family: family, dpopKeyThumbprint: dpopKeyThumbprint)
        var tokens = TokenSet(accessToken: access, refreshToken: refresh, expiresAt: expiresAt, scopes: scopes)
        tokens.tokenType = dpopKeyThumbprint == nil ? "Bearer" : "DPoP"
        return tokens
    }

}

extension ReferenceIdentityService {
    /// Forgets every access token, as if they had been revoked: the next API call gets `401`.
    public func revokeAllAccessTokens() { state.withLock { $0.accessTokens = [:] } }
    /// Forgets every refresh token: the next refresh is refused with `invalid_grant`.
    public func revokeAllRefreshTokens() { state.withLock { $0.refreshTokens = [:] } }
}

extension ReferenceIdentityService {
    /// Every access and refresh token the server still accepts, for tests that look for leaks.
    public var issuedTokensForTesting: [String] {
        state.withLock { Array($0.accessTokens.keys) + Array($0.refreshTokens.keys) }
    }
}

/// The reference server is an ``IdentityService`` for the package's own tests and integrators;
/// hosts hand it to ``UserClient`` through `UserClient(configuration:service:storage:transport:)`.
@_spi(Integrator) extension ReferenceIdentityService: IdentityService {}
