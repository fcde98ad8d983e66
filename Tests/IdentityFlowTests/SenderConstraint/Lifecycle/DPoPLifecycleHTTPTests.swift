import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The key lifecycle over HTTP: a device-mode registration through `HTTPIdentityService` against
/// a scripted provider with DPoP and PAR (`SenderConstraintProvider`), and what the provider sees.
@Suite("DPoP key lifecycle over HTTP")
struct DPoPLifecycleHTTPTests {
    /// An API that refuses the first request (`401`), then checks each request's DPoP proof.
    final class ProvenAPI: ResourceTransport {
        let seen = Locked<[(authorization: String?, proof: String?)]>([])

        func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
            let count = seen.withLock { list in
                list.append((request.value(forHTTPHeaderField: "Authorization"), request.value(forHTTPHeaderField: "DPoP")))
                return list.count
            }
            guard let response = HTTPURLResponse(url: request.url!, statusCode: count == 1 ? 401 : 200, httpVersion: "HTTP/1.1", headerFields: [:]) else {
                throw IdentityFlowError(.unknown)
            }
            return (Data(), response)
        }
    }

    @Test("registration pushes dpop_jkt, the code exchange and the refresh prove with that key, the API gets DPoP proofs, deregistration revokes with it")
    func lifecycleOverHTTP() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        let server = try LoopbackHTTPServer(maxRequests: 32, handler: provider.handler)
        defer { server.stop() }
        let configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"], requestTimeout: 10)
        var clientConfiguration = ClientConfiguration.testing()
        clientConfiguration.authenticators = .device()
        clientConfiguration.redirectURI = URL(string: "identityflow://callback")!
        let api = ProvenAPI()
        let client = UserClient(
            configuration: clientConfiguration, service: try HTTPIdentityService(configuration: configuration), storage: InMemoryStorage(), transport: api)
        try await client.start()
        let result = try await client.registerUser(
            .provider(IdentityProvider(identifier: "openid-connect", name: "Sign in", kind: .browser), scopes: ["profile"])
        ) { challenge in
            switch challenge {
            case .browserRegistration(let browser):
                let items = URLQuery.items(of: browser.url) ?? []
                #expect(items.contains { $0.name == "request_uri" } && !items.contains { $0.name == "state" }, "PAR: request_uri only")
                let state = provider.requests(to: "/o/par/").last?.form["state"] ?? ""
                browser.sender.respond(with: URL(string: "identityflow://callback?code=code-1&state=\(state)&iss=https%3A%2F%2Fissuer.test")!, to: browser)
            case .createPin(let create): create.sender.respond(with: "24680", to: create)
            default: challenge.cancel()
            }
        }
        let key = try #require(client.sessions.dpopKey(for: result.profile))
        #expect(provider.requests(to: "/o/par/").last?.form["dpop_jkt"] == key.thumbprint)
        let exchange = try #require(provider.requests(to: "/o/token/").first)
        #expect(try DPoPTestSupport.proof(of: exchange, key: key) != nil, "the code exchange proves with the profile's key")

        // The API refuses the first request: the session refreshes (with a proof) and retries (with a proof).
        let (_, response) = try await client.authenticatedRequest(URLRequest(url: URL(string: "https://api.example/me")!))
        #expect(response.statusCode == 200)
        let refresh = try #require(provider.requests(to: "/o/token/").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        #expect(try DPoPTestSupport.proof(of: refresh, key: key) != nil)
        let calls = api.seen.current
        #expect(calls.count == 2)
        for call in calls {
            #expect(call.authorization == "DPoP access-1")
            let proof = try DPoPTestSupport.decode(Redacted(try #require(call.proof)), key: key)
            #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Redacted("access-1")))
        }

        try await client.deregister(result.profile)
        let revocations = provider.requests(to: "/o/revoke/")
        #expect(!revocations.isEmpty)
        for revocation in revocations { #expect(try DPoPTestSupport.proof(of: revocation, key: key) != nil) }
    }
}
