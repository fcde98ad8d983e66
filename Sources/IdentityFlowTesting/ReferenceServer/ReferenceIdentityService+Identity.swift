import Foundation
@_spi(Integrator) import IdentityFlow

/// ID tokens, userinfo and provider logout (OpenID Connect RP-Initiated Logout 1.0).
extension ReferenceIdentityService {
    /// The audience of the reference server's ID tokens (its client id).
    public static let clientID = "identityflow-reference"
    /// Where its logout page (`end_session_endpoint`) pretends to live.
    public static let endSessionEndpoint = URL(string: "https://reference.identityflow.invalid/logout")!

    // MARK: - Set-up

    /// Whether the server offers a logout page (on by default); off, it is a provider without
    /// `end_session_endpoint`.
    public var offersProviderLogout: Bool {
        get { state.withLock { $0.offersProviderLogout } }
        set { state.withLock { $0.offersProviderLogout = newValue } }
    }

    /// Sets what the next sign-ins' ID tokens say about the authentication.
    /// - Parameters:
    ///   - acr: The `acr` to claim; `nil` claims the first of the request's `acr_values` (none
    ///     when it sent none), `""` claims none at all.
    ///   - age: How long before the sign-in the user last authenticated (`auth_time`).
    public func setAuthentication(acr: String?, age: TimeInterval = 0) {
        state.withLock { state in
            state.acrOverride = acr
            state.authenticationAge = age
        }
    }

    // MARK: - Inspection

    /// The users whose browser session a provider logout ended, in order.
    public var providerLogouts: [String] { state.withLock { $0.providerLogouts } }

    // MARK: - Service

    /// The claims of the access token's user: `sub`, `name`, `email`, `preferred_username`.
    /// - Throws: `ErrorCode/userNotAuthenticated` for an unknown or expired token;
    ///   `ErrorCode/invalidServerResponse` when `subject` is not its user.
    ///   A DPoP-bound token is refused here (`ErrorCode.dpopProofRefused` (11083): it needs
    ///   `userInfo(accessToken:subject:proofKey:)` with its key).
    @_spi(Integrator) public nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String) async throws(IdentityFlowError) -> UserInfo {
        try await userInfo(accessToken: accessToken, subject: subject, proofKey: nil)
    }

    /// ``endSessionEndpoint`` with the request's parameters, or `nil` when
    /// ``offersProviderLogout`` is off.
    @_spi(Integrator) public nonisolated(nonsending) func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        try await enter(.endSessionURL)
        guard state.withLock({ $0.offersProviderLogout }) else { return nil }
        return URLQuery.url(Self.endSessionEndpoint, appending: request.parameters(clientID: Self.clientID))
    }

    /// Plays the browser at the logout page: ends the browser session of the `id_token_hint`'s
    /// user and returns the redirect to hand to the `ProviderLogoutChallenge`'s sender.
    /// - Parameters:
    ///   - url: The challenge's URL.
    ///   - error: An OAuth error to answer with instead (the logout is then not done).
    /// - Returns: The `post_logout_redirect_uri` with the `state` sent (or the error).
    /// - Throws: `ErrorCode/requestInvalid` for a URL this server did not produce.
    public func logOut(at url: URL, error: String? = nil) throws(IdentityFlowError) -> URL {
        let items = URLQuery.items(of: url) ?? []
        func query(_ name: String) -> String? { items.last { $0.name == name }.map { $0.value ?? "" } }
        guard url.absoluteString.hasPrefix(Self.endSessionEndpoint.absoluteString),
            let redirect = query("post_logout_redirect_uri").flatMap(URL.init(string:))
        else { throw IdentityFlowError(.requestInvalid, "Not a logout URL of this reference server.") }
        var answer: [(String, String)] = []
        if let error {
            answer.append(("error", error))
        } else {
            let hinted = query("id_token_hint").flatMap { try? JSONWebToken(compact: $0).claims["sub"]?.stringValue }
            state.withLock { $0.providerLogouts.append(hinted ?? "") }
        }
        if let sent = query("state") { answer.append(("state", sent)) }
        guard let redirected = URLQuery.url(redirect, appending: answer) else {
            throw IdentityFlowError(.requestInvalid, "The post-logout redirect URI is not a URL.")
        }
        return redirected
    }

    // MARK: - ID tokens

    /// An ID token for a grant: `iss`, `sub`, `aud`, `exp`, `iat`, `auth_time`, `nonce`, `acr`
    /// and the user's profile claims. It is unsigned (`alg` `none`): the reference server is
    /// trusted in-process, and its clients never validate signatures (``HTTPIdentityService``
    /// would refuse it).
    func idToken(for grant: ServerState.Grant, in state: ServerState) -> String {
        let issued = Int(now().timeIntervalSince1970)
        var strings: [(String, String)] = [("iss", Self.issuer), ("sub", grant.user), ("aud", Self.clientID)]
        var numbers: [(String, Int)] = [("iat", issued), ("exp", issued + Int(state.accessTokenLifetime))]
        if let authTime = grant.authTime { numbers.append(("auth_time", Int(authTime.timeIntervalSince1970))) }
        if let nonce = grant.nonce { strings.append(("nonce", nonce)) }
        let acr = state.acrOverride ?? grant.acrValues.first
        if let acr, !acr.isEmpty { strings.append(("acr", acr)) }
        for (name, value) in Self.profileClaims(of: grant.user) where name != "sub" { strings.append((name, value)) }
        // Written directly, keys sorted: Foundation's JSONSerialization cost every registration a
        // few hundred microseconds on Linux (bench row d).
        var writer = JSONWriter(capacity: 256)
        writer.punctuation("{")
        let members = (strings.map { ($0.0, Optional($0.1), Int?.none) } + numbers.map { ($0.0, String?.none, Optional($0.1)) }).sorted { $0.0 < $1.0 }
        for (index, member) in members.enumerated() {
            if index > 0 { writer.punctuation(",") }
            writer.key(member.0)
            if let text = member.1 { writer.string(text) } else { writer.integer(member.2 ?? 0) }
        }
        writer.punctuation("}")
        return Self.unsignedHeader + "." + Base64URL.encode(writer.bytes) + "."
    }

    /// `{"alg":"none","typ":"JWT"}`, base64url-encoded.
    private static let unsignedHeader = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))

    static func profileClaims(of user: String) -> [String: String] {
        ["sub": user, "name": user.capitalized, "email": "\(user)@example.com", "preferred_username": user]
    }
}
