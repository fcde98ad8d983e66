import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlowTesting
@_spi(Integrator) @testable import IdentityFlow

/// OpenID Connect Core §12.2: a refreshed ID token names the issuer, subject and audience the
/// session began with.
@Suite("Refreshed ID token continuity")
struct RefreshContinuityTests {
    /// An unsigned compact JWT with these claims (signatures are the service's concern).
    static func idToken(iss: String = "https://issuer.test", sub: String = "alice", aud: Any = "client-1") -> String {
        func part(_ object: [String: Any]) -> String {
            let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return Base64URL.encode(Array(data))
        }
        return part(["alg": "RS256"]) + "." + part(["iss": iss, "sub": sub, "aud": aud, "iat": 1, "exp": 2]) + ".c2ln"
    }

    @Test("same issuer, subject and audience pass; audiences compare as sets; a missing token is no evidence")
    func samePasses() {
        let first = Redacted(Self.idToken(aud: ["a", "b"]))
        #expect(IdTokenContinuity.problem(previous: first, refreshed: Redacted(Self.idToken(aud: ["b", "a"]))) == nil)
        #expect(IdTokenContinuity.problem(previous: first, refreshed: nil) == nil)
        #expect(IdTokenContinuity.problem(previous: nil, refreshed: first) == nil)
    }

    @Test(
        "another issuer, subject or audience is named, as is an unreadable token",
        arguments: [
            ("alice", idToken(iss: "https://evil.test"), "issuer"),
            ("alice", idToken(sub: "mallory"), "subject"),
            ("alice", idToken(aud: "client-2"), "audience"),
            ("alice", idToken(aud: ["client-1", "client-2"]), "audience"),
            ("K", idToken(sub: "\u{212A}"), "subject"),
            ("alice", "not.a.jwt", "could not be read"),
        ])
    func differencesRefused(previousSubject: String, refreshed: String, named: String) {
        let problem = IdTokenContinuity.problem(previous: Redacted(Self.idToken(sub: previousSubject)), refreshed: Redacted(refreshed))
        #expect(problem?.contains(named) == true, "\(problem ?? "nil")")
    }

    @Test("a refresh whose ID token names another subject ends the session, and its tokens are revoked, not stored")
    func clientRefusesSwappedSubject() async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
        let service = HookedService(server)
        service.editTokens(of: "exchangeCode") { tokens in
            var tokens = tokens
            tokens.idToken = Redacted(Self.idToken(sub: "alice"))
            return tokens
        }
        service.editTokens(of: "refresh") { tokens in
            var tokens = tokens
            tokens.idToken = Redacted(Self.idToken(sub: "mallory"))
            return tokens
        }
        let client = UserClient(
            configuration: .testing(now: date.now), service: service, storage: InMemoryStorage(),
            transport: ReferenceResourceServer(trusting: server))
        try await client.start()
        let profile = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ])
        ).profile
        #expect(server.activeRefreshTokenCount == 1)
        date.advance(by: 61)
        let result = await Result { () async throws(IdentityFlowError) in
            try await client.authenticatedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        }
        #expect(result.failure?.code == .userNotAuthenticated)
        #expect(result.failure?.underlying.flatMap { $0 as? IdentityFlowError }?.code == .invalidServerResponse)
        #expect(client.authenticatedUserProfile == nil)
        #expect(server.activeRefreshTokenCount == 0, "the refreshed set was revoked")
        #expect(try client.storedProfile(profile).tokens.idToken?.value == Self.idToken(sub: "alice"), "the stored session is not replaced")
    }
}
