import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

/// Where the DPoP and PAR fixtures run: idpyoidc with PAR and DPoP required
/// (`IDENTITYFLOW_OIDC_ISSUER_5`, `Tests/Fixtures/oidc-dpop`) and the resource server that checks
/// DPoP proofs (`IDENTITYFLOW_DPOP_RESOURCE_URL`, `Tests/Fixtures/dpop-resource`), both started by
/// `.ci/run`. Without them the suite is disabled, with that reason.
enum DPoPFixture {
    private static func url(_ name: String) -> URL? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    static let issuer = url("IDENTITYFLOW_OIDC_ISSUER_5")
    static let resource = url("IDENTITYFLOW_DPOP_RESOURCE_URL")
    /// A stock provider without PAR and DPoP (Canaille, `Tests/Fixtures/oidc-canaille`).
    static let providerWithoutPAR = url("IDENTITYFLOW_OIDC_ISSUER_4")

    static var enabled: ConditionTrait {
        .enabled(
            if: issuer != nil && resource != nil,
            "IDENTITYFLOW_OIDC_ISSUER_5 or IDENTITYFLOW_DPOP_RESOURCE_URL is not set: start Tests/Fixtures/oidc-dpop/start.sh and Tests/Fixtures/dpop-resource/start.sh and export their last lines (bash .ci/run does both)"
        )
    }

    /// The configuration of the fixture's public client: DPoP and PAR required, or the FAPI 2.0
    /// profile.
    static func configuration(issuer chosen: URL? = nil, profile: SecurityProfile = .standard) throws -> HTTPServiceConfiguration {
        let issuer: URL = try #require(chosen ?? Self.issuer)
        var configuration = HTTPServiceConfiguration(
            issuer: issuer, clientID: InteropEnvironment.clientID, redirectURI: InteropEnvironment.redirectURI,
            scopes: ["openid", "profile", "email"])
        if profile == .standard {
            configuration.dpop = .required
            configuration.pushedAuthorization = .required
        }
        configuration.securityProfile = profile
        return configuration
    }

    static func service(issuer chosen: URL? = nil, profile: SecurityProfile = .standard) throws -> HTTPIdentityService {
        try HTTPIdentityService(configuration: try configuration(issuer: chosen, profile: profile))
    }

    /// A client of the same provider that does not speak DPoP (`dpop` off): what a thief with a
    /// plain OAuth library sends.
    static func bearerService() throws -> HTTPIdentityService {
        var configuration = try configuration()
        configuration.dpop = .off
        return try HTTPIdentityService(configuration: configuration)
    }

    /// A client of `service` on `storage`, started: device placement unless told otherwise.
    static func client(_ service: HTTPIdentityService, storage: InMemoryStorage, placement: AuthenticatorPlacement = .device(maxPinFailures: 3))
        async throws -> UserClient
    {
        var configuration = ClientConfiguration(redirectURI: InteropEnvironment.redirectURI, defaultScopes: ["openid", "profile", "email"])
        configuration.callbackExecutor = .immediate
        configuration.authenticators = placement
        configuration.logger = .disabled
        let client = UserClient(configuration: configuration, service: service, storage: storage)
        try await client.start()
        return client
    }

    /// Signs alice in with a new key, as the client does: the request pushed (inside
    /// `authorizationURL`) with the key's thumbprint as `dpop_jkt`, the login form, `iss` checked,
    /// the code exchanged with a proof. Returns the key, the tokens and the ID token's subject.
    static func signIn(_ service: HTTPIdentityService) async throws -> (key: DPoPKey, tokens: TokenSet, subject: String, url: URL) {
        let key = try DPoPKey.generate()
        var request = try InteropEnvironment.request()
        request.dpopKeyThumbprint = key.thumbprint
        let url = try await service.authorizationURL(for: InteropEnvironment.browserProvider, request: request)
        let redirect = try await HeadlessBrowser().authorize(url)
        guard case .authorized(let code, let issuer) = BrowserRedirect.check(redirect, against: request) else {
            throw HeadlessBrowser.Failure(description: "the redirect carried no code: \(redirect)")
        }
        try await service.checkAuthorizationResponseIssuer(issuer)
        let tokens = try await service.exchangeCode(code, request: request, proofKey: key)
        let subject = try await service.validateIdToken(try #require(tokens.idToken), nonce: request.nonce.value).subject
        return (key, tokens, subject, url)
    }

    /// Expires the session's access token and calls the resource through `client`, which must
    /// refresh with the profile's key first. Returns the refreshed tokens, checked new and bound.
    static func refreshThroughAPI(_ client: UserClient, _ profile: UserProfile, _ comment: Comment) async throws -> TokenSet {
        let before = try client.sessionTokens()
        client.withState { $0.profiles[profile]?.tokens.expiresAt = .distantPast }
        #expect(try await client.authenticatedRequest(URLRequest(url: try #require(resource))).1.statusCode == 200, comment)
        let refreshed = try client.sessionTokens()
        #expect(refreshed.accessToken != before.accessToken && refreshed.isSenderConstrained)
        return refreshed
    }

    /// One request to the resource server, by hand: its status and headers (names lowercased).
    static func call(authorization: String?, proof: Redacted<String>?, method: String = "GET") async throws -> (status: Int, headers: [String: String]) {
        var request = URLRequest(url: try #require(resource))
        request.httpMethod = method
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        if let proof { request.setValue(proof.value, forHTTPHeaderField: "DPoP") }
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
        return (http.statusCode, headers)
    }

    /// Whether the provider still takes `token`: its introspection endpoint, asked with the
    /// confidential client the fixture registers for the resource server.
    static func isActive(_ token: Redacted<String>) async throws -> Bool {
        let issuer: URL = try #require(issuer)
        var request = URLRequest(url: issuer.appendingPathComponent("introspection"))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let credentials = Data("identityflow-resource:identityflow-resource-secret".utf8).base64EncodedString()
        request.setValue("Basic \(credentials)", forHTTPHeaderField: "Authorization")
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        request.httpBody = Data("token=\(token.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")".utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return answer["active"] as? Bool == true
    }

    /// A proof of `key` for a `GET` of the resource with `accessToken`, with the server's nonce.
    static func resourceProof(_ key: DPoPKey, _ accessToken: Redacted<String>, nonce: String?) throws -> Redacted<String> {
        try key.proof(method: "GET", url: try #require(resource), accessToken: accessToken, nonce: nonce, at: Date())
    }

    /// The resource server's current nonce, read from the 401 a proof without one gets.
    static func nonce(_ key: DPoPKey, _ accessToken: Redacted<String>) async throws -> String {
        let answer = try await call(authorization: "DPoP \(accessToken.value)", proof: try resourceProof(key, accessToken, nonce: nil))
        #expect(answer.status == 401 && answer.headers["www-authenticate"]?.contains(#"error="use_dpop_nonce""#) == true)
        return try #require(answer.headers["dpop-nonce"])
    }
}

/// Issue 40 against servers IdentityFlow did not write: idpyoidc with PAR and DPoP required, and a
/// resource server that checks every proof, in the device placement
/// (``DPoPServerPlacementInteropTests`` runs the server placement against the same provider).
@Suite("Interop: DPoP and PAR against idpyoidc and a proof-checking resource server", .serialized, DPoPFixture.enabled)
struct DPoPInteropTests {
    @Test("the provider's discovery: PAR required, DPoP with ES256, iss in the redirect")
    func discovery() async throws {
        let issuer = try #require(DPoPFixture.issuer)
        let (data, _) = try await URLSession.shared.data(from: issuer.appendingPathComponent(".well-known/openid-configuration"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(document["pushed_authorization_request_endpoint"] is String && document["require_pushed_authorization_requests"] as? Bool == true)
        #expect((document["dpop_signing_alg_values_supported"] as? [String])?.contains("ES256") == true)
        let metadata = try await DPoPFixture.service().providerMetadata()
        #expect(metadata.issuer == issuer.absoluteString && metadata.sendsAuthorizationResponseIssuer)
        #expect(metadata.codeChallengeMethodsSupported == ["S256"])
        #expect(try await DPoPFixture.service().usesDPoP())
    }

    @Test("sign-in: the browser gets client_id and request_uri only; the code exchange answers DPoP-bound tokens")
    func signIn() async throws {
        let service = try DPoPFixture.service()
        let (key, tokens, subject, url) = try await DPoPFixture.signIn(service)
        let names = Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(names == ["client_id", "request_uri"])
        #expect(tokens.isSenderConstrained && tokens.refreshToken != nil)
        #expect(try await DPoPFixture.isActive(try #require(tokens.refreshToken)))
        #expect(try await service.userInfo(accessToken: tokens.accessToken, subject: subject, proofKey: key)["sub"]?.stringValue == subject)
    }

    @Test("the resource server: nonce asked and retried, the proof accepted once, a replayed proof refused")
    func replayedProof() async throws {
        let (key, tokens, _, _) = try await DPoPFixture.signIn(try DPoPFixture.service())
        let nonce = try await DPoPFixture.nonce(key, tokens.accessToken)
        let proof = try DPoPFixture.resourceProof(key, tokens.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: proof).status == 200)
        let replayed = try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: proof)
        #expect(replayed.status == 401 && replayed.headers["www-authenticate"]?.contains("invalid_dpop_proof") == true)
    }

    @Test("a copied access token without the key is refused at the resource server: as Bearer, without a proof, with another key's proof")
    func copiedAccessToken() async throws {
        let (key, tokens, _, _) = try await DPoPFixture.signIn(try DPoPFixture.service())
        let nonce = try await DPoPFixture.nonce(key, tokens.accessToken)
        let thief = try DPoPKey.generate()
        #expect(try await DPoPFixture.call(authorization: "Bearer \(tokens.accessToken.value)", proof: nil).status == 401)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: nil).status == 401)
        let stolen = try DPoPFixture.resourceProof(thief, tokens.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: stolen).status == 401)
        let own = try DPoPFixture.resourceProof(key, tokens.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: own).status == 200)
    }

    @Test("refresh: the bound refresh token works with the key and is refused with another key (11083) or without a proof")
    func refresh() async throws {
        let service = try DPoPFixture.service()
        let (key, tokens, _, _) = try await DPoPFixture.signIn(service)
        let refreshToken = try #require(tokens.refreshToken)
        await InteropEnvironment.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
            try await service.refresh(refreshToken, proofKey: try DPoPKey.generate())
        }
        let plain = try DPoPFixture.bearerService()
        await #expect(throws: IdentityFlowError.self, "no proof: refused by the provider") { try await plain.refresh(refreshToken, proofKey: nil) }
        let refreshed = try await service.refresh(refreshToken, proofKey: key)
        #expect(refreshed.isSenderConstrained && refreshed.accessToken != tokens.accessToken)
        let nonce = try await DPoPFixture.nonce(key, refreshed.accessToken)
        let proof = try DPoPFixture.resourceProof(key, refreshed.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(refreshed.accessToken.value)", proof: proof).status == 200)
        await #expect(throws: IdentityFlowError.self, "the spent refresh token (rotation)") { try await service.refresh(refreshToken, proofKey: key) }
    }

    @Test("revocation with a proof: the access token is dead at the resource server, the refresh token at the provider")
    func revocation() async throws {
        let service = try DPoPFixture.service()
        let (key, tokens, _, _) = try await DPoPFixture.signIn(service)
        try await service.revoke(tokens, proofKey: key)
        let nonce = try await DPoPFixture.nonce(key, tokens.accessToken)
        let proof = try DPoPFixture.resourceProof(key, tokens.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(tokens.accessToken.value)", proof: proof).status == 401)
        #expect(try await !DPoPFixture.isActive(try #require(tokens.refreshToken)))
        await #expect(throws: IdentityFlowError.self) { try await service.refresh(try #require(tokens.refreshToken), proofKey: key) }
    }

    @Test(
        "device mode: registration with PAR and DPoP, API call, copied tokens refused, logout, PIN login, PIN change, relaunch, refresh with the bound token, deregistration"
    )
    func deviceLifecycle() async throws {
        let storage = InMemoryStorage()
        let service = try DPoPFixture.service()
        let client = try await DPoPFixture.client(service, storage: storage)
        let responder = InteropResponder()
        let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder).profile
        #expect(responder.seen.current.first == "browser")
        let registered = try client.sessionTokens()
        #expect(registered.isSenderConstrained)

        // The API: the client signs a proof, the server asks for its nonce, the client retries once.
        let api = URLRequest(url: try #require(DPoPFixture.resource))
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200)
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200, "the nonce is remembered or asked again")

        // What a thief copies from a log or a proxy: the access token, without the key.
        let thief = try DPoPKey.generate()
        #expect(try await DPoPFixture.call(authorization: "Bearer \(registered.accessToken.value)", proof: nil).status == 401)
        let nonce = try await DPoPFixture.nonce(thief, registered.accessToken)
        let stolen = try DPoPFixture.resourceProof(thief, registered.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(registered.accessToken.value)", proof: stolen).status == 401)
        // ... or the refresh token, from a storage copy: refused at the provider without the key.
        let copiedRefreshToken = try #require(registered.refreshToken)
        let thiefService = try DPoPFixture.service()
        await InteropEnvironment.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
            try await thiefService.refresh(copiedRefreshToken, proofKey: thief)
        }

        try await client.logout()
        try await client.authenticateUser(profile, responder: ScriptedAnswers(["11111", "73914"]))
        #expect(try client.sessionTokens().isSenderConstrained)
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200, "after a PIN login with the bound refresh token")

        // A PIN change rotates the vault, which reseals the same key; a relaunch unseals it again.
        _ = try await client.changePin(responder: ScriptedAnswers(["73914"], newPin: "80426"))
        let relaunched = try await DPoPFixture.client(service, storage: storage)
        try await relaunched.authenticateUser(profile, responder: ScriptedAnswers(["80426"]))
        let refreshed = try await DPoPFixture.refreshThroughAPI(relaunched, profile, "refreshed with the key after a rotation and a relaunch")

        try await relaunched.deregister(profile)
        #expect(try storage.keys().isEmpty, "the profile and its DPoP key are gone")
        #expect(try await !DPoPFixture.isActive(try #require(refreshed.refreshToken)), "deregistration revoked the refresh token")
    }

    @Test("the FAPI 2.0 profile against this provider: registration with PAR, DPoP and iss, then the API")
    func fapi2() async throws {
        let service = try DPoPFixture.service(profile: .fapi2)
        #expect(try await service.usesDPoP())
        let (_, tokens, _, url) = try await DPoPFixture.signIn(service)
        #expect(Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? []) == ["client_id", "request_uri"])
        #expect(tokens.isSenderConstrained)

        let storage = InMemoryStorage()
        let client = try await DPoPFixture.client(service, storage: storage)
        let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
        #expect(try await client.authenticatedRequest(URLRequest(url: try #require(DPoPFixture.resource))).1.statusCode == 200)
        try await client.deregister(profile)
        #expect(try storage.keys().isEmpty)
    }

    @Test(
        "the FAPI 2.0 profile against a stock provider without PAR or DPoP (Canaille): 11080 before the browser opens",
        .enabled(if: DPoPFixture.providerWithoutPAR != nil, "IDENTITYFLOW_OIDC_ISSUER_4 (Canaille) is not set"))
    func fapi2Refused() async throws {
        let service = try DPoPFixture.service(issuer: DPoPFixture.providerWithoutPAR, profile: .fapi2)
        await InteropEnvironment.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in try await service.usesDPoP() }
        let request = try InteropEnvironment.request()
        await InteropEnvironment.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
            try await service.authorizationURL(for: InteropEnvironment.browserProvider, request: request)
        }

        let storage = InMemoryStorage()
        let client = try await DPoPFixture.client(service, storage: storage)
        let responder = InteropResponder()
        await InteropEnvironment.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
            try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder)
        }
        #expect(!responder.seen.current.contains("browser"), "no browser opened")
        #expect(try storage.keys().isEmpty)
    }
}
