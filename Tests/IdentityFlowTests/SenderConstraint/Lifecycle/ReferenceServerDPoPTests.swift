import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// The reference server's DPoP (RFC 9449) and PAR (RFC 9126), as a real provider and resource
/// server check them: what hosts unit-test sender-constrained sessions against.
@Suite("Reference server: DPoP and PAR")
struct ReferenceServerDPoPTests {
    static let redirect = URL(string: "app://callback")!
    static let api = URLRequest(url: URL(string: "https://api.example/me?x=1")!)

    /// A server with DPoP (and PAR when asked) and a bound sign-in of alice.
    static func signedIn(_ constraint: ReferenceIdentityService.SenderConstraint = .fapi2, key: DPoPKey) async throws -> (ReferenceIdentityService, TokenSet) {
        let server = ReferenceIdentityService()
        server.senderConstraint = constraint
        var request = try AuthorizationRequest(redirectURI: redirect, scopes: ["openid"])
        request.dpopKeyThumbprint = key.thumbprint
        let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        let code = try #require(URLQuery.items(of: try server.logIn(at: url))?.first { $0.name == "code" }?.value)
        return (server, try await server.exchangeCode(Redacted(code), request: request, proofKey: key))
    }

    @Test("a code exchanged with a proof gets tokens bound to the key (token_type DPoP, cnf.jkt the thumbprint)")
    func boundTokens() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        #expect(tokens.tokenType == "DPoP")
        #expect(tokens.isSenderConstrained)
        #expect(server.dpopKeyThumbprint(ofAccessToken: tokens.accessToken.value) == key.thumbprint)
        #expect(server.dpopKeyThumbprint(ofRefreshToken: try #require(tokens.refreshToken).value) == key.thumbprint)
        #expect(try await server.usesDPoP())
    }

    @Test("with DPoP required, a code exchange without a proof is refused (11083); a code bound by dpop_jkt refuses another key")
    func exchangeNeedsTheKey() async throws {
        let server = ReferenceIdentityService()
        server.senderConstraint = ReferenceIdentityService.SenderConstraint(requiresDPoP: true)
        let key = try DPoPKey.generate()
        var request = try AuthorizationRequest(redirectURI: Self.redirect, scopes: ["openid"])
        request.dpopKeyThumbprint = key.thumbprint
        let code = { () async throws -> Redacted<String> in
            let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
            return Redacted(try #require(URLQuery.items(of: try server.logIn(at: url))?.first { $0.name == "code" }?.value))
        }
        let withoutProof = await #expect(throws: IdentityFlowError.self) { try await server.exchangeCode(try await code(), request: request) }
        #expect(withoutProof?.code == .dpopProofRefused)
        let otherKey = await #expect(throws: IdentityFlowError.self) {
            try await server.exchangeCode(try await code(), request: request, proofKey: try DPoPKey.generate())
        }
        #expect(otherKey?.code == .dpopProofRefused)
        #expect(try await server.exchangeCode(try await code(), request: request, proofKey: key).isSenderConstrained)
    }

    @Test("a copied refresh token is refused with another key and without one; its own key refreshes and keeps the binding")
    func copiedRefreshToken() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let refresh = try #require(tokens.refreshToken)
        let thief = await #expect(throws: IdentityFlowError.self) { try await server.refresh(refresh, proofKey: try DPoPKey.generate()) }
        #expect(thief?.code == .dpopProofRefused)
        let bare = await #expect(throws: IdentityFlowError.self) { try await server.refresh(refresh) }
        #expect(bare?.code == .dpopProofRefused)
        let fresh = try await server.refresh(refresh, proofKey: key)
        #expect(server.dpopKeyThumbprint(ofAccessToken: fresh.accessToken.value) == key.thumbprint)
        #expect(fresh.isSenderConstrained)
    }

    @Test("a stolen access token without the key is refused by the resource server, as Bearer and with another key's proof; the key's proof passes")
    func stolenAccessToken() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let resource = ReferenceResourceServer(trusting: server)
        var bearer = Self.api
        bearer.setValue("Bearer \(tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
        #expect(try await resource.send(bearer).1.statusCode == 401)
        let thief = try DPoPKey.generate().authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date())
        #expect(try await resource.send(thief).1.statusCode == 401)
        let owner = try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date())
        #expect(try await resource.send(owner).1.statusCode == 200)
        let userInfo = await #expect(throws: IdentityFlowError.self) {
            try await server.userInfo(accessToken: tokens.accessToken, subject: "alice", proofKey: try DPoPKey.generate())
        }
        #expect(userInfo?.code == .dpopProofRefused)
        #expect(try await server.userInfo(accessToken: tokens.accessToken, subject: "alice", proofKey: key).subject == "alice")
    }

    @Test("a replayed proof is refused, at the resource server and at the token endpoint")
    func replayedProof() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let resource = ReferenceResourceServer(trusting: server)
        let recorded = try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date())
        #expect(try await resource.send(recorded).1.statusCode == 200)
        let (_, replay) = try await resource.send(recorded)
        #expect(replay.statusCode == 401)
        #expect(replay.value(forHTTPHeaderField: "WWW-Authenticate")?.contains("invalid_dpop_proof") == true)
        let proof = try key.proof(method: "POST", url: ReferenceIdentityService.tokenEndpoint, at: Date())
        #expect(try server.checkProof(proof.value) == key.thumbprint)
        #expect(throws: IdentityFlowError.self) { try server.checkProof(proof.value) }
    }

    @Test("a proof for another request is refused: another method, another URL, another token, an old iat")
    func proofForAnotherRequest() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let resource = ReferenceResourceServer(trusting: server)
        var post = try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date())
        post.httpMethod = "POST"
        #expect(try await resource.send(post).1.statusCode == 401)
        var elsewhere = try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date())
        elsewhere.url = URL(string: "https://api.example/admin")
        #expect(try await resource.send(elsewhere).1.statusCode == 401)
        var otherToken = try key.authorize(Self.api, accessToken: Redacted("at-other"), nonce: nil, at: Date())
        otherToken.setValue("DPoP \(tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
        #expect(try await resource.send(otherToken).1.statusCode == 401)
        let old = try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date().addingTimeInterval(-600))
        #expect(try await resource.send(old).1.statusCode == 401)
        #expect(resource.acceptedCount == 0)
    }

    @Test("a resource server that requires a nonce answers use_dpop_nonce with DPoP-Nonce; a proof carrying it passes")
    func resourceNonce() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let resource = ReferenceResourceServer(trusting: server, requiresNonce: true)
        let (_, first) = try await resource.send(try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nil, at: Date()))
        #expect(first.statusCode == 401)
        #expect(first.value(forHTTPHeaderField: "WWW-Authenticate")?.contains(#"error="use_dpop_nonce""#) == true)
        let nonce = try #require(first.value(forHTTPHeaderField: "DPoP-Nonce"))
        let (_, second) = try await resource.send(try key.authorize(Self.api, accessToken: tokens.accessToken, nonce: nonce, at: Date()))
        #expect(second.statusCode == 200)
        #expect(resource.nonceRequestCount == 1)
    }

    @Test("a bound token is revoked only with its key's proof")
    func revocationNeedsTheKey() async throws {
        let key = try DPoPKey.generate()
        let (server, tokens) = try await Self.signedIn(key: key)
        let bare = await #expect(throws: IdentityFlowError.self) { try await server.revoke(tokens) }
        #expect(bare?.code == .dpopProofRefused)
        try await server.revoke(tokens, proofKey: key)
        #expect(server.activeAccessTokenCount == 0)
        #expect(server.activeRefreshTokenCount == 0)
    }

    @Test("PAR: the browser URL carries client_id and request_uri only; the request is used once and expires")
    func pushedAuthorization() async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(now: date.now)
        server.senderConstraint = ReferenceIdentityService.SenderConstraint(requiresPushedAuthorization: true, pushedRequestLifetime: 60)
        let request = try AuthorizationRequest(redirectURI: Self.redirect, scopes: ["openid"])
        let url = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        #expect(Set((URLQuery.items(of: url) ?? []).map(\.name)) == ["client_id", "request_uri"])
        #expect(!url.absoluteString.contains(request.state.value))
        #expect(server.pendingPushedRequestCount == 1)
        let redirect = try server.logIn(at: url)
        #expect(URLQuery.items(of: redirect)?.first { $0.name == "state" }?.value == request.state.value)
        #expect(throws: IdentityFlowError.self) { try server.logIn(at: url) }
        let late = try await server.authorizationURL(for: ReferenceIdentityService.browserProvider, request: request)
        date.advance(by: 61)
        #expect(throws: IdentityFlowError.self) { try server.logIn(at: late) }
        let direct = try #require(URLQuery.url(ReferenceIdentityService.authorizationEndpoint, appending: [("redirect_uri", "app://callback")]))
        #expect(throws: IdentityFlowError.self) { try server.logIn(at: direct) }
    }

    @Test("the proof check refuses a jwk with a private member, another typ and a wrong signature")
    func malformedProofs() throws {
        let key = try DPoPKey.generate()
        let proof = try key.proof(method: "POST", url: ReferenceIdentityService.tokenEndpoint, at: Date()).value
        let parts = proof.split(separator: ".").map(String.init)
        func with(header: String) -> String { Base64URL.encode(Array(header.utf8)) + "." + parts[1] + "." + parts[2] }
        let header = String(decoding: try #require(Base64URL.decode(parts[0])), as: UTF8.self)
        var seen: [String: Date] = [:]
        let check = { (proof: String) throws(DPoPProofCheck.Refusal) -> String in
            try DPoPProofCheck(proof: proof, method: "POST", url: ReferenceIdentityService.tokenEndpoint).verify(at: Date(), seen: &seen)
        }
        #expect(throws: DPoPProofCheck.Refusal.self) { try check(with(header: header.replacingOccurrences(of: "dpop+jwt", with: "jwt"))) }
        #expect(throws: DPoPProofCheck.Refusal.self) { try check(with(header: header.replacingOccurrences(of: #""crv""#, with: #""d":"AAAA","crv""#))) }
        #expect(throws: DPoPProofCheck.Refusal.self) { try check(parts[0] + "." + parts[1] + "." + Base64URL.encode([UInt8](repeating: 1, count: 64))) }
        #expect(try check(proof) == key.thumbprint)
    }
}
