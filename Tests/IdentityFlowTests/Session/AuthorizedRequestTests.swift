import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// `authorize(_:)` and `handleResponse(_:body:to:)`: the session's tokens for requests the host
/// sends with its own HTTP stack, here the reference resource server called directly.
@Suite("Requests the host sends itself")
struct AuthorizedRequestTests {
    static let request = URLRequest(url: URL(string: "https://api.example/me")!)

    /// What a host does: authorize, send, hand the answer back, and retry once when told to.
    static func send(_ client: UserClient, _ resource: ReferenceResourceServer, retries: inout Int) async throws -> HTTPURLResponse {
        var request = try await client.authorize(Self.request)
        var (data, response) = try await resource.send(request)
        if try await client.handleResponse(response, body: data, to: request) == .retry {
            retries += 1
            request = try await client.authorize(request)
            (data, response) = try await resource.send(request)
            _ = try await client.handleResponse(response, body: data, to: request)
        }
        return response
    }

    @Test("bearer tokens: Authorization: Bearer, no proof; an expired token is refreshed first; a refused one is refreshed and retried once")
    func bearer() async throws {
        let setup = try await AuthenticatedRequestTests.Setup()
        let authorized = try await setup.client.authorize(Self.request)
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "Bearer \(try setup.client.sessionTokens().accessToken.value)")
        #expect(authorized.value(forHTTPHeaderField: "DPoP") == nil)
        var retries = 0
        #expect(try await Self.send(setup.client, setup.resource, retries: &retries).statusCode == 200)
        #expect(retries == 0)
        setup.date.advance(by: 61)
        #expect(try await Self.send(setup.client, setup.resource, retries: &retries).statusCode == 200)
        #expect((setup.refreshCalls, retries) == (1, 0), "refreshed before sending")
        setup.server.revokeAllAccessTokens()
        #expect(try await Self.send(setup.client, setup.resource, retries: &retries).statusCode == 200)
        #expect((setup.refreshCalls, retries) == (2, 1), "refused: refreshed here, retried once")
    }

    @Test("DPoP-bound tokens: Authorization: DPoP with a proof (ath, htm, htu); a nonce request is remembered and retried once, later requests carry it")
    func dpop() async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server, requiresNonce: true)
        let profile = try await setup.register()
        let key = try #require(setup.client.sessions.dpopKey(for: profile))
        let tokens = try setup.client.sessionTokens()
        let authorized = try await setup.client.authorize(Self.request)
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "DPoP \(tokens.accessToken.value)")
        let proof = try DPoPTestSupport.decode(Redacted(try #require(authorized.value(forHTTPHeaderField: "DPoP"))), key: key)
        #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(tokens.accessToken))
        #expect(proof.claims["htm"]?.stringValue == "GET")
        #expect(proof.claims["htu"]?.stringValue == "https://api.example/me")
        #expect(proof.claims["nonce"] == nil, "no nonce known yet")
        var retries = 0
        #expect(try await Self.send(setup.client, setup.resource, retries: &retries).statusCode == 200)
        #expect(retries == 1 && setup.resource.nonceRequestCount == 1)
        #expect(try await Self.send(setup.client, setup.resource, retries: &retries).statusCode == 200)
        #expect(retries == 1 && setup.resource.nonceRequestCount == 1, "the remembered nonce: no second request for it")
    }

    @Test("handleResponse: a nonce the proof did not carry is a retry, the very nonce it carried is not (no loop); a copied bound token alone is refused")
    func noLoops() async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server, requiresNonce: true)
        _ = try await setup.register()
        var request = try await setup.client.authorize(Self.request)
        let (data, response) = try await setup.resource.send(request)
        #expect(try await setup.client.handleResponse(response, body: data, to: request) == .retry)
        request = try await setup.client.authorize(request)
        // The server asks again for the very nonce the retry carried: the answer stands.
        setup.resource.rotateNonce()
        let (_, again) = try await setup.resource.send(request)
        let asked = try #require(again.value(forHTTPHeaderField: "DPoP-Nonce"))
        let nonceInProof = try JSONWebToken(compact: try #require(request.value(forHTTPHeaderField: "DPoP"))).claims["nonce"]?.stringValue
        #expect(nonceInProof != asked, "the rotated nonce differs: a retry is due")
        #expect(try await setup.client.handleResponse(again, body: Data(), to: request) == .retry)
        request = try await setup.client.authorize(request)
        let (_, third) = try await setup.resource.send(request)
        #expect(third.statusCode == 200)
        let repeated = try #require(
            HTTPURLResponse(
                url: Self.request.url!, statusCode: 401, httpVersion: "HTTP/1.1",
                headerFields: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": asked]))
        #expect(try await setup.client.handleResponse(repeated, body: Data(), to: request) == .accept, "the proof carried that nonce already")
        var stolen = Self.request
        stolen.setValue("Bearer \(try setup.client.sessionTokens().accessToken.value)", forHTTPHeaderField: "Authorization")
        #expect(try await setup.resource.send(stolen).1.statusCode == 401)
    }

    @Test("authorize refuses an insecure URL (11003) and needs a logged-in user (userNotAuthenticated)")
    func refusals() async throws {
        let setup = try await AuthenticatedRequestTests.Setup()
        let insecure = await Result { () async throws(IdentityFlowError) in
            try await setup.client.authorize(URLRequest(url: URL(string: "http://api.example/me")!))
        }
        #expect(insecure.failure?.code == .insecureTransport)
        try await setup.client.logout()
        let loggedOut = await Result { () async throws(IdentityFlowError) in try await setup.client.authorize(Self.request) }
        #expect(loggedOut.failure?.code == .userNotAuthenticated)
    }
}
