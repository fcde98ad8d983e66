import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Each hostile answer ends the call with a clear code; through a registration it ends the flow
/// and leaves no profile and nothing in storage.
@Suite("HTTP transport against a hostile network")
struct HostileNetworkTests {
    enum Scenario: String, CaseIterable, CustomTestStringConvertible {
        case notJSON, invalidJSON, wrongContentType, truncated, oversized, redirectLoop, serverError, closedWithoutAnswer

        var testDescription: String { rawValue }

        var reply: LoopbackHTTPServer.Reply {
            switch self {
            case .notJSON: .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>hello</html>".utf8))
            case .invalidJSON: .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"status": 2000, "da"#.utf8))
            case .wrongContentType: .response(status: 200, headers: ["Content-Type": "text/plain"], body: Data(#"{"status": 2000, "data": ""}"#.utf8))
            case .truncated: .truncated(contentType: "application/json", body: Data(#"{"status": 2000, "#.utf8), declaredLength: 400)
            case .oversized: .json(200, #"{"status": 4001, "data": ""# + String(repeating: "x", count: 4096) + #""}"#)
            case .redirectLoop: .response(status: 302, headers: ["Location": "/identityflow/identity-providers"], body: Data())
            case .serverError: .json(503, #"{"error": "unavailable"}"#)
            case .closedWithoutAnswer: .close
            }
        }

        var code: ErrorCode {
            switch self {
            case .serverError: .serverNotReachable
            case .closedWithoutAnswer: .networkConnectivityFailure
            default: .invalidServerResponse
            }
        }
    }

    private static func withServer<T>(
        maxRequests: Int = 16, _ handler: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply,
        _ body: (LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        let server = try LoopbackHTTPServer(maxRequests: maxRequests, handler: handler)
        defer { server.stop() }
        return try await body(server)
    }

    private static func extensionService(_ server: LoopbackHTTPServer, timeout: TimeInterval = 10) throws -> HTTPIdentityService {
        try extensionService(at: server.baseURL, timeout: timeout)
    }

    private static func extensionService(at baseURL: URL, timeout: TimeInterval = 10) throws -> HTTPIdentityService {
        let configuration = HTTPServiceConfiguration(
            issuer: baseURL.appendingPathComponent("o"), clientID: "client-1", redirectURI: URL(string: "identityflow://callback")!,
            requestTimeout: timeout, maxResponseBodySize: 2048)
        return try HTTPIdentityService(configuration: configuration)
    }

    @Test("a hostile answer to a GET fails with its code", arguments: Scenario.allCases)
    func hostileGet(_ scenario: Scenario) async throws {
        try await Self.withServer({ _ in scenario.reply }) { server in
            let service = try Self.extensionService(server)
            let error = await HTTPTestSupport.expectError(scenario.code) { () throws(IdentityFlowError) in try await service.identityProviders() }
            #expect(error?.message.isEmpty == false)
        }
    }

    @Test("a hostile answer during registration fails the flow and stores nothing", arguments: Scenario.allCases)
    func hostileRegistration(_ scenario: Scenario) async throws {
        try await Self.withServer({ _ in scenario.reply }) { server in
            let storage = InMemoryStorage()
            let client = try await Self.client(service: try Self.extensionService(server), storage: storage)
            let provider = IdentityProvider(identifier: "custom-one", name: "Custom", kind: .custom(.oneStep))
            await HTTPTestSupport.expectError(scenario == .redirectLoop ? .invalidServerResponse : scenario.code) { () throws(IdentityFlowError) in
                try await client.registerUser(.provider(provider), responder: Self.answering)
            }
            #expect(client.userProfiles.isEmpty)
            #expect(try storage.keys().isEmpty)
        }
    }

    @Test("a redirect loop is cut after 5 redirects")
    func redirectLoopIsBounded() async throws {
        try await Self.withServer(maxRequests: 20, { _ in Scenario.redirectLoop.reply }) { server in
            let service = try Self.extensionService(server)
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in try await service.identityProviders() }
            #expect(server.requests.count == 6)
        }
    }

    @Test("connection refused fails with 9001 and stores nothing")
    func connectionRefused() async throws {
        // Port 1 on loopback, where nothing listens: a stopped server's port could be taken by a
        // parallel test's server before the request arrives (as NetworkFailureMappingTests says).
        let storage = InMemoryStorage()
        let service = try Self.extensionService(at: URL(string: "http://127.0.0.1:1")!)
        let error = await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.identityProviders() }
        #expect(error?.message.contains("refused") == true)
        let client = try await Self.client(service: service, storage: storage)
        await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in
            try await client.registerUser(.provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: Self.answering)
        }
        #expect(client.userProfiles.isEmpty)
        #expect(try storage.keys().isEmpty)
    }

    @Test("a server that never answers times out with 9001")
    func timeout() async throws {
        try await Self.withServer({ _ in .stall }) { server in
            let service = try Self.extensionService(server, timeout: 1)
            let error = await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.identityProviders() }
            #expect(error?.message.contains("in time") == true)
        }
    }

    @Test("a server trickling a byte every 50 ms never completes: the request ends at its deadline with 9001", .timeLimit(.minutes(1)))
    func trickle() async throws {
        try await Self.withServer({ _ in .trickle(pause: 50_000) }) { server in
            let service = try Self.extensionService(server, timeout: 1)
            // The bound this test enforces on itself (not a speed claim): 20 deadlines.
            let watchdog = Task {
                try await Task.sleep(for: .seconds(20)); server.stop()
            }
            defer { watchdog.cancel() }
            let error = await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.identityProviders() }
            #expect(error?.message.contains("in time") == true)
            #expect(!watchdog.isCancelled)
        }
    }

    @Test("an unresolvable host fails with 9001")
    func unresolvableHost() async throws {
        let configuration = HTTPServiceConfiguration(
            issuer: URL(string: "https://identityflow-test.invalid/o")!, clientID: "c",
            redirectURI: URL(string: "identityflow://callback")!, requestTimeout: 5)
        let service = try HTTPIdentityService(configuration: configuration)
        await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.providerMetadata() }
    }

    @Test("plain http is refused for non-loopback hosts, in the configuration, in discovery and in redirects")
    func plainHTTPRefused() async throws {
        for issuer in ["http://example.com/o", "http://10.0.0.1/o", "http://127.example.com/o", "ftp://127.0.0.1/o"] {
            let configuration = HTTPServiceConfiguration(issuer: URL(string: issuer)!, clientID: "c", redirectURI: URL(string: "identityflow://callback")!)
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try HTTPIdentityService(configuration: configuration) }
        }
        for issuer in ["http://127.0.0.1/o", "http://127.1.2.3:8080/o", "http://localhost/o", "http://[::1]:8765/o", "https://example.com/o"] {
            let configuration = HTTPServiceConfiguration(issuer: URL(string: issuer)!, clientID: "c", redirectURI: URL(string: "identityflow://callback")!)
            #expect(configuration.problem == nil, "\(issuer)")
        }
        try await Self.withServer({ request in
            request.path.hasSuffix("openid-configuration")
                ? .json(
                    200,
                    object: ["issuer": "https://issuer.test", "authorization_endpoint": "https://issuer.test/a", "token_endpoint": "http://example.com/token"])
                : .response(status: 302, headers: ["Location": "http://example.com/identityflow/identity-providers"], body: Data())
        }) { server in
            let discovering = try HTTPTestSupport.service(server)
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try await discovering.providerMetadata() }
            let redirected = try Self.extensionService(server)
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try await redirected.identityProviders() }
        }
    }

    // MARK: - Helpers

    static let answering = ClosureResponder { challenge in
        switch challenge {
        case .customRegistration(let custom): custom.sender.respond(with: "data", to: custom)
        case .createPin(let pin): pin.sender.respond(with: "73914", to: pin)
        default: challenge.cancel()
        }
    }

    static func client(service: any IdentityService, storage: InMemoryStorage) async throws -> UserClient {
        var configuration = ClientConfiguration(redirectURI: URL(string: "identityflow://callback")!)
        configuration.callbackExecutor = .immediate
        let client = UserClient(configuration: configuration, service: service, storage: storage)
        try await client.start()
        return client
    }
}
