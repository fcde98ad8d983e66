import Foundation
@_spi(Integrator) import IdentityFlow

/// DPoP (RFC 9449) and pushed authorization requests (RFC 9126) on the reference server, so that
/// hosts can unit-test sender-constrained sessions without a real provider.
///
/// With DPoP on, the token, revocation and userinfo calls that get a key build a proof with it
/// for the server's own endpoint URLs (``tokenEndpoint``, ``revocationEndpoint``,
/// ``userInfoEndpoint``) and verify it as a real provider would (signature against the embedded
/// `jwk`, `typ`, `htm`, `htu`, `iat`, a `jti` never seen before, `ath`); the tokens issued are
/// bound to the key's thumbprint (`token_type` `DPoP`), and a bound token presented with another
/// key, or without one, is refused with `ErrorCode.dpopProofRefused` (11083).
extension ReferenceIdentityService {
    /// What the reference server asks of DPoP and PAR.
    public struct SenderConstraint: Sendable, Equatable {
        /// Whether the server supports DPoP (as a provider advertising
        /// `dpop_signing_alg_values_supported`): `usesDPoP()` is `true`, and calls with a key get
        /// bound tokens. Off, a key is ignored and tokens are bearer tokens.
        public var offersDPoP: Bool
        /// Whether the token endpoint refuses a request without a DPoP proof (implies ``offersDPoP``).
        public var requiresDPoP: Bool
        /// Whether every authorization request is pushed first (`require_pushed_authorization_requests`):
        /// `authorizationURL(for:request:)` returns a URL with `client_id` and `request_uri` only,
        /// and ``ReferenceIdentityService/logIn(at:as:consent:)`` refuses any other.
        public var requiresPushedAuthorization: Bool
        /// How long a pushed request stays usable (its `expires_in`), in seconds.
        public var pushedRequestLifetime: TimeInterval

        /// Creates the options; all off by default.
        /// - Parameters:
        ///   - offersDPoP: Whether the server supports DPoP.
        ///   - requiresDPoP: Whether the token endpoint requires DPoP proofs.
        ///   - requiresPushedAuthorization: Whether authorization requests must be pushed.
        ///   - pushedRequestLifetime: A pushed request's lifetime, in seconds.
        public init(offersDPoP: Bool = false, requiresDPoP: Bool = false, requiresPushedAuthorization: Bool = false, pushedRequestLifetime: TimeInterval = 60) {
            self.offersDPoP = offersDPoP
            self.requiresDPoP = requiresDPoP
            self.requiresPushedAuthorization = requiresPushedAuthorization
            self.pushedRequestLifetime = pushedRequestLifetime
        }

        /// DPoP required and every authorization request pushed: what a FAPI 2.0 provider asks.
        public static let fapi2 = SenderConstraint(offersDPoP: true, requiresDPoP: true, requiresPushedAuthorization: true)

        var usesDPoP: Bool { offersDPoP || requiresDPoP }
    }

    /// Where the token endpoint pretends to live: the `htu` of code exchange and refresh proofs.
    public static let tokenEndpoint = URL(string: issuer + "/token")!
    /// Where the revocation endpoint pretends to live.
    public static let revocationEndpoint = URL(string: issuer + "/revoke")!
    /// Where the userinfo endpoint pretends to live.
    public static let userInfoEndpoint = URL(string: issuer + "/userinfo")!
    /// Where the extension API's PIN login pretends to live: the `htu` of a PIN login's proof.
    public static let pinVerifyEndpoint = URL(string: issuer + "/pin/verify")!
    /// Where the extension API's biometric login pretends to live.
    public static let biometricVerifyEndpoint = URL(string: issuer + "/biometric/verify")!
    /// Where the pushed authorization request endpoint pretends to live.
    public static let pushedAuthorizationEndpoint = URL(string: issuer + "/par")!
    /// Where the extension API's PIN enrolment pretends to live: the `htu` of the proof that
    /// goes with a DPoP-bound access token there (as at ``biometricEnrolEndpoint``,
    /// ``mobileAuthEnrolEndpoint``, ``mobileAuthPushEndpoint`` and ``implicitEnrolEndpoint``).
    public static let pinEnrolEndpoint = URL(string: issuer + "/pin/enrol")!
    /// Where the extension API's biometric key registration pretends to live.
    public static let biometricEnrolEndpoint = URL(string: issuer + "/biometric/enrol")!
    /// Where the extension API's mobile authentication enrolment pretends to live.
    public static let mobileAuthEnrolEndpoint = URL(string: issuer + "/mobile-auth/enrol")!
    /// Where the extension API's push enrolment pretends to live.
    public static let mobileAuthPushEndpoint = URL(string: issuer + "/mobile-auth/push")!
    /// Where the extension API's implicit authentication enrolment pretends to live.
    public static let implicitEnrolEndpoint = URL(string: issuer + "/implicit/enrol")!

    /// What the server asks of DPoP and PAR (all off by default).
    public var senderConstraint: SenderConstraint {
        get { state.withLock { $0.senderConstraint } }
        set { state.withLock { $0.senderConstraint = newValue } }
    }

    // MARK: - Service

    /// Whether sign-ins get DPoP-bound tokens: ``SenderConstraint/offersDPoP`` or ``SenderConstraint/requiresDPoP``.
    @_spi(Integrator) public nonisolated(nonsending) func usesDPoP() async throws(IdentityFlowError) -> Bool {
        state.withLock { $0.senderConstraint.usesDPoP }
    }

    /// Refreshes as ``refresh(_:)`` does, with a proof by `proofKey` for ``tokenEndpoint``: the new
    /// pair is bound to the key; a bound refresh token needs a proof by its own key.
    @_spi(Integrator) public nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)
        -> TokenSet
    {
        try await enter(.refresh)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(of: proofKey, method: "POST", url: Self.tokenEndpoint, at: date, in: &state)
            guard let grant = state.refreshTokens[refreshToken.value] else {
                throw Self.invalidGrant("The refresh token is unknown, revoked or was used before.")
            }
            guard grant.dpopKeyThumbprint == nil || grant.dpopKeyThumbprint == thumbprint else {
                throw Self.dpopRefused("The refresh token is bound to another DPoP key, or the request carried no proof.")
            }
            state.refreshTokens[refreshToken.value] = nil
            return issueTokens(for: grant.user, scopes: ["openid"], in: &state, family: grant.family, dpopKeyThumbprint: grant.dpopKeyThumbprint ?? thumbprint)
        }
    }

    /// Revokes as ``revoke(_:)`` does, with a proof by `proofKey` for ``revocationEndpoint``: a
    /// bound token is revoked only with a proof by its key.
    @_spi(Integrator) public nonisolated(nonsending) func revoke(_ tokens: TokenSet, proofKey: DPoPKey?) async throws(IdentityFlowError) {
        try await enter(.revoke)
        let date = now()
        try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(of: proofKey, method: "POST", url: Self.revocationEndpoint, at: date, in: &state)
            try Self.revoke(tokens, thumbprint: thumbprint, in: &state)
        }
    }

    /// The userinfo claims as ``userInfo(accessToken:subject:)`` gives them, with a proof by
    /// `proofKey` for ``userInfoEndpoint`` naming the token (`ath`): a bound token needs its key.
    @_spi(Integrator) public nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> UserInfo
    {
        try await enter(.userInfo)
        let date = now()
        let user = try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(
                of: proofKey, method: "GET", url: Self.userInfoEndpoint, accessToken: accessToken, at: date, in: &state, tokenEndpoint: false)
            guard let grant = state.accessTokens[accessToken.value], grant.expiresAt > date else {
                throw IdentityFlowError(.userNotAuthenticated, "The reference server does not accept the access token.")
            }
            guard grant.dpopKeyThumbprint == thumbprint else {
                throw Self.dpopRefused("The access token is bound to another DPoP key, or the request carried no proof.")
            }
            return grant.user
        }
        guard user == subject else { throw IdentityFlowError(.invalidServerResponse, "The userinfo answer is for another subject.") }
        return try UserInfo(claims: Self.profileClaims(of: user).mapValues { .string($0) })
    }

    // MARK: - For the resource server

    /// The user and DPoP binding of an access token the server accepts now, `nil` for any other.
    package func accessTokenGrant(_ token: String) -> (user: String, dpopKeyThumbprint: String?)? {
        let date = now()
        return state.withLock { state in
            state.accessTokens[token].flatMap { $0.expiresAt > date ? ($0.user, $0.dpopKeyThumbprint) : nil }
        }
    }

    /// The thumbprint of the DPoP key an access token is bound to (`cnf.jkt`), `nil` for a bearer
    /// or unknown token.
    /// - Parameter token: The access token.
    /// - Returns: The thumbprint.
    public func dpopKeyThumbprint(ofAccessToken token: String) -> String? { accessTokenGrant(token)?.dpopKeyThumbprint }

    /// The thumbprint of the DPoP key a refresh token is bound to, `nil` for a bearer or unknown token.
    /// - Parameter token: The refresh token.
    /// - Returns: The thumbprint.
    public func dpopKeyThumbprint(ofRefreshToken token: String) -> String? {
        state.withLock { $0.refreshTokens[token]?.dpopKeyThumbprint }
    }

    // MARK: - Proofs

    /// Builds a proof with `key` for the server's own endpoint and verifies it as a provider
    /// would; returns the key's thumbprint, or `nil` without a key (refused when DPoP is
    /// required at the token endpoint) or when the server does not offer DPoP (the key is ignored).
    static func thumbprint(
        of key: DPoPKey?, method: String, url: URL, accessToken: Redacted<String>? = nil, at date: Date, in state: inout ServerState,
        tokenEndpoint: Bool = true
    ) throws(IdentityFlowError) -> String? {
        guard state.senderConstraint.usesDPoP else { return nil }
        guard let key else {
            if tokenEndpoint, state.senderConstraint.requiresDPoP { throw dpopRefused("The reference server requires a DPoP proof.") }
            return nil
        }
        let proof = try key.proof(method: method, url: url, accessToken: accessToken, at: date)
        return try verify(proof.value, method: method, url: url, accessToken: accessToken?.value, at: date, in: &state)
    }

    /// The thumbprint of the key that proves an extension call carrying `accessToken` at `url`:
    /// a proof by `key` naming the token (`ath`), verified as a resource server would; `nil`
    /// without a key (a DPoP-bound token is then refused by ``ServerState/bearer(_:at:proofThumbprint:)``)
    /// or when the server does not offer DPoP.
    static func accessProof(of key: DPoPKey?, at url: URL, accessToken: Redacted<String>, date: Date, in state: inout ServerState)
        throws(IdentityFlowError) -> String?
    {
        try thumbprint(of: key, method: "POST", url: url, accessToken: accessToken, at: date, in: &state, tokenEndpoint: false)
    }

    /// Verifies a proof the request carried (tests hand the server a recorded one this way).
    static func verify(_ proof: String, method: String, url: URL, accessToken: String?, at date: Date, in state: inout ServerState)
        throws(IdentityFlowError) -> String
    {
        do {
            return try DPoPProofCheck(proof: proof, method: method, url: url, accessToken: accessToken).verify(at: date, seen: &state.seenProofs)
        } catch {
            switch error {
            case .invalidProof(let reason): throw dpopRefused(reason)
            case .nonceRequired: throw dpopRefused("The reference server asks for a nonce.")
            }
        }
    }

    /// Checks a proof recorded from a request to the token endpoint, as the endpoint would (a
    /// test replays one with this).
    /// - Parameters:
    ///   - proof: The `DPoP` header's value.
    ///   - method: The request's method.
    ///   - url: The request's URL.
    /// - Returns: The proof key's thumbprint.
    /// - Throws: `ErrorCode.dpopProofRefused` (11083) for a proof the server refuses (a replayed one among them).
    public func checkProof(_ proof: String, method: String = "POST", url: URL = tokenEndpoint) throws(IdentityFlowError) -> String {
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in try Self.verify(proof, method: method, url: url, accessToken: nil, at: date, in: &state)
        }
    }

    /// Forgets the tokens, as ``revoke(_:)``; bound ones only for the proof of their key.
    static func revoke(_ tokens: TokenSet, thumbprint: String?, in state: inout ServerState) throws(IdentityFlowError) {
        if let refresh = tokens.refreshToken {
            guard !refresh.value.isEmpty else { throw invalidRequest("The revocation request has an empty token (RFC 7009 §2.1).") }
            if let bound = state.refreshTokens[refresh.value]?.dpopKeyThumbprint, bound != thumbprint {
                throw dpopRefused("The refresh token is bound to another DPoP key, or the request carried no proof.")
            }
            state.refreshTokens[refresh.value] = nil
        }
        guard !tokens.accessToken.value.isEmpty else { throw invalidRequest("The revocation request has an empty token (RFC 7009 §2.1).") }
        if let bound = state.accessTokens[tokens.accessToken.value]?.dpopKeyThumbprint, bound != thumbprint {
            throw dpopRefused("The access token is bound to another DPoP key, or the request carried no proof.")
        }
        state.accessTokens[tokens.accessToken.value] = nil
    }

    /// The refusal of a DPoP proof, or of a bound token without its key (`invalid_dpop_proof`).
    static func dpopRefused(_ message: String) -> IdentityFlowError {
        var error = IdentityFlowError(.dpopProofRefused, message)
        error.oauthError = "invalid_dpop_proof"
        return error
    }

    // MARK: - PAR

    /// Stores a request's parameters as a pushed request and returns the URL the browser opens:
    /// `client_id` and `request_uri` only.
    func pushedAuthorizationURL(at endpoint: URL, parameters: [(name: String, value: String)]) -> URL? {
        let date = now()
        let requestURI = state.withLock { state in
            state.pushedRequests = state.pushedRequests.filter { $0.value.expiresAt > date }
            let uri = "urn:ietf:params:oauth:request_uri:" + state.nextSerial()
            state.pushedRequests[uri] = ServerState.PushedRequest(
                parameters: parameters, expiresAt: date.addingTimeInterval(state.senderConstraint.pushedRequestLifetime))
            return uri
        }
        return URLQuery.url(endpoint, appending: [("client_id", Self.clientID), ("request_uri", requestURI)])
    }

    /// The parameters of the authorization request behind a URL the browser opens: a pushed
    /// request's (used once, refused when expired), or the URL's own (refused when PAR is required).
    func authorizationParameters(of url: URL) throws(IdentityFlowError) -> [(name: String, value: String)] {
        let items = (URLQuery.items(of: url) ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            guard let requestURI = items.last(where: { $0.name == "request_uri" })?.value else {
                if state.senderConstraint.requiresPushedAuthorization {
                    throw Self.invalidRequest("The reference server requires pushed authorization requests: the URL carries no request_uri.")
                }
                return items
            }
            guard let pushed = state.pushedRequests.removeValue(forKey: requestURI) else {
                throw Self.invalidRequest("The request_uri is unknown or was used before.")
            }
            guard pushed.expiresAt > date else { throw Self.invalidRequest("The pushed authorization request expired.") }
            guard items.allSatisfy({ $0.name == "client_id" || $0.name == "request_uri" }) else {
                throw Self.invalidRequest("A URL with a request_uri carries client_id and request_uri only.")
            }
            return pushed.parameters
        }
    }

    /// The number of pushed requests the server holds (not used, not expired).
    public var pendingPushedRequestCount: Int {
        let date = now()
        return state.withLock { $0.pushedRequests.values.filter { $0.expiresAt > date }.count }
    }
}
