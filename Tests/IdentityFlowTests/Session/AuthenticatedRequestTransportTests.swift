import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// `authenticatedRequest` over its default transport, against loopback servers (two ports are
/// two origins): the token stays with its origin, plain http elsewhere is refused before anything
/// is sent, every request has the deadline, and nothing is shared with `URLSession.shared`.
@Suite("Authenticated requests over the default transport")
struct AuthenticatedRequestTransportTests {
    struct Setup {
        let date = ManualDate()
        let server: ReferenceIdentityService
        let client: UserClient

        init(transport: (any ResourceTransport)? = nil) async throws {
            server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
            client = UserClient(configuration: .testing(now: date.now), service: server, storage: InMemoryStorage(), transport: transport)
            try await client.start()
            _ = try await client.registerUser(
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
                ]))
        }
    }

    @Test("the default transport is a URLSessionTransport with the HTTP service's deadline (30 s for other services)")
    func defaultTransportTakesTheServiceDeadline() throws {
        var configuration = HTTPServiceConfiguration(
            issuer: URL(string: "https://id.example/o")!, clientID: "c", redirectURI: URL(string: "identityflow://callback")!)
        configuration.requestTimeout = 7
        let http = UserClient(configuration: .testing(), service: try HTTPIdentityService(configuration: configuration), storage: InMemoryStorage())
        #expect((http.transport as? URLSessionTransport)?.requestTimeout == 7)
        let reference = UserClient(configuration: .testing(), service: ReferenceIdentityService(), storage: InMemoryStorage())
        #expect((reference.transport as? URLSessionTransport)?.requestTimeout == 30)
    }

    @Test("the token reaches a loopback API; a cookie it sets is neither sent back nor put in the shared cookie storage")
    func ownEphemeralSession() async throws {
        let api = try LoopbackHTTPServer { request in
            .response(status: 200, headers: ["Content-Type": "text/plain", "Set-Cookie": "probe=\(request.path.dropFirst()); Path=/"], body: Data("ok".utf8))
        }
        defer { api.stop() }
        let setup = try await Setup()
        let url = api.baseURL.appendingPathComponent("me")
        for _ in 0..<2 {
            let outcome = await HangGuard.run(onHang: { api.stop() }) {
                await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(URLRequest(url: url)) }
            }
            let (data, response) = try #require(outcome).get()
            #expect(response.statusCode == 200 && String(decoding: data, as: UTF8.self) == "ok")
            #expect(response.value(forHTTPHeaderField: "Set-Cookie") != nil, "the API's headers reach the host")
        }
        #expect(api.requests.count == 2)
        #expect(api.requests.allSatisfy { $0.headers["authorization"]?.hasPrefix("Bearer ") == true })
        #expect(api.requests.allSatisfy { $0.headers["cookie"] == nil }, "a cookie was kept between requests")
        #expect(HTTPCookieStorage.shared.cookies(for: url)?.isEmpty ?? true, "the shared cookie storage was used")
    }

    struct Redirect: CustomTestStringConvertible, Sendable {
        let status: Int
        let method: String
        var testDescription: String { "\(status) of a \(method)" }
    }

    @Test(
        "a redirect to another origin is returned to the host, never followed: the token and the body stay with their origin",
        arguments: [
            Redirect(status: 302, method: "GET"), Redirect(status: 307, method: "GET"), Redirect(status: 307, method: "POST"),
            Redirect(status: 308, method: "POST"), Redirect(status: 302, method: "POST"),
        ])
    func redirectsStayHome(_ redirect: Redirect) async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .json(200, #"{"stolen": true}"#) }
        defer { elsewhere.stop() }
        let location = elsewhere.baseURL.appendingPathComponent("collect").absoluteString
        let api = try LoopbackHTTPServer { _ in .response(status: redirect.status, headers: ["Location": location], body: Data()) }
        defer { api.stop() }
        let setup = try await Setup()
        var request = URLRequest(url: api.baseURL.appendingPathComponent("orders"))
        request.httpMethod = redirect.method
        if redirect.method == "POST" { request.httpBody = Data(#"{"amount": 5}"#.utf8) }
        let sent = request
        let outcome = await HangGuard.run(onHang: {
            api.stop(); elsewhere.stop()
        }) {
            await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(sent) }
        }
        let (_, response) = try #require(outcome).get()
        #expect(response.statusCode == redirect.status)
        #expect(response.value(forHTTPHeaderField: "Location") == location)
        let token = try #require(api.requests.first?.headers["authorization"])
        #expect(token.hasPrefix("Bearer "), "the origin got the token")
        #expect(elsewhere.requests.isEmpty, "something was sent to the other origin")
    }

    @Test(
        "plain http to a non-loopback host, or another scheme, fails with 11003 before anything is sent or refreshed",
        arguments: [
            "http://api.example.com/me", "http://10.0.0.1/me", "http://127.example.com/me", "HTTP://example.com/me", "ftp://127.0.0.1/me", "file:///etc/hosts",
        ])
    func insecureURLRefused(_ address: String) async throws {
        let identity = ReferenceIdentityService(accessTokenLifetime: 60)
        let resource = ReferenceResourceServer(trusting: identity)
        let setup = try await Setup(transport: resource)
        setup.date.advance(by: 61)
        let request = URLRequest(url: try #require(URL(string: address)))
        let result = await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(request) }
        #expect(result.failure?.code == .insecureTransport)
        #expect(result.failure?.message.contains("Bearer") == false)
        #expect(resource.acceptedCount + resource.refusedCount == 0, "the transport was asked")
        #expect(!setup.server.calls.contains(.refresh), "a refresh ran first")
        let direct = await Result { () async throws(IdentityFlowError) in try await URLSessionTransport().send(request) }
        #expect(direct.failure?.code == .insecureTransport)
    }

    @Test("loopback http and https pass the check")
    func secureURLsPass() {
        for address in ["https://api.example.com/me", "http://127.0.0.1:8080/me", "http://localhost/me", "http://[::1]:9/me"] {
            #expect(URLSessionTransport.insecurity(of: URL(string: address)) == nil, "\(address)")
        }
    }

    @Test("an API that never answers ends at the transport's deadline with 9001", .timeLimit(.minutes(1)))
    func deadline() async throws {
        let api = try LoopbackHTTPServer { _ in .stall }
        defer { api.stop() }
        let setup = try await Setup(transport: URLSessionTransport(requestTimeout: 1))
        let url = api.baseURL.appendingPathComponent("slow")
        let outcome = await HangGuard.run(onHang: { api.stop() }) {
            await Result { () async throws(IdentityFlowError) in try await setup.client.authenticatedRequest(URLRequest(url: url)) }
        }
        #expect(try #require(outcome).failure?.code == .serverNotReachable)
        #expect(api.requests.count == 1)
    }
}
