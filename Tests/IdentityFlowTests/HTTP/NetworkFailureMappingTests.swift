import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Each way a network can fail maps to the code the error reference (IdentityFlow.docc/ErrorCodes.md, "Network failures") documents, through
/// ``HTTPIdentityService`` and through the default transport of `authenticatedRequest`
/// (``URLSessionTransport``), against real loopback servers. (Refused, DNS and timeout for the
/// service are in ``HostileNetworkTests``.)
@Suite("Network failures map to their documented codes")
struct NetworkFailureMappingTests {
    enum Failure: String, CaseIterable, Sendable {
        case refused, dns, timeout, tls, closedBeforeAnswer, resetBeforeAnswer, resetDuringAnswer, cutChunked
        case cancelledBeforeAnswer, cancelledDuringAnswer

        var code: ErrorCode {
            switch self {
            case .refused, .dns, .timeout, .tls: .serverNotReachable
            case .closedBeforeAnswer, .resetBeforeAnswer: .networkConnectivityFailure
            case .resetDuringAnswer, .cutChunked: .invalidServerResponse
            case .cancelledBeforeAnswer, .cancelledDuringAnswer: .actionCancelled
            }
        }

        /// The server the failure needs (`nil`: none is listening, or the host does not resolve).
        func server() throws -> LoopbackHTTPServer? {
            switch self {
            // Port 1 on loopback: nothing listens there (a port freed by a stopped server could be
            // taken by a parallel test before the call connects).
            case .refused, .dns: return nil
            case .timeout, .cancelledBeforeAnswer: return try LoopbackHTTPServer { _ in .stall }
            case .tls: return try LoopbackHTTPServer(maxRequests: 4, greeting: Data("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\nnot tls".utf8))
            case .closedBeforeAnswer: return try LoopbackHTTPServer { _ in .close }
            case .resetBeforeAnswer: return try LoopbackHTTPServer { _ in .reset(afterHead: false) }
            case .resetDuringAnswer: return try LoopbackHTTPServer { _ in .reset(afterHead: true) }
            case .cutChunked: return try LoopbackHTTPServer { _ in .chunkedCut }
            case .cancelledDuringAnswer: return try LoopbackHTTPServer { _ in .trickle(pause: 10_000) }
            }
        }

        func base(_ server: LoopbackHTTPServer?) -> URL {
            switch self {
            case .dns: URL(string: "https://identityflow-test.invalid")!
            case .tls: URL(string: "https://127.0.0.1:\(server?.port ?? 1)")!
            default: server?.baseURL ?? URL(string: "http://127.0.0.1:1")!
            }
        }

        /// The event after which the test cancels its call.
        var cancelAfter: LoopbackHTTPServer.Event? {
            switch self {
            case .cancelledBeforeAnswer: .received("/identityflow/identity-providers")
            case .cancelledDuringAnswer: .headSent
            default: nil
            }
        }
    }

    enum Caller: String, CaseIterable, Sendable {
        /// `HTTPIdentityService.identityProviders()`, a `GET` of an extension endpoint.
        case service
        /// `URLSessionTransport.send(_:)` with a bearer token, as `authenticatedRequest` sends.
        case resourceTransport

        func call(_ base: URL, timeout: TimeInterval) async -> IdentityFlowError? {
            do throws(IdentityFlowError) {
                switch self {
                case .service:
                    let configuration = HTTPServiceConfiguration(
                        issuer: base.appendingPathComponent("o"), clientID: "c", redirectURI: URL(string: "identityflow://callback")!,
                        extensionBaseURL: base.appendingPathComponent("identityflow"), requestTimeout: timeout)
                    _ = try await HTTPIdentityService(configuration: configuration).identityProviders()
                case .resourceTransport:
                    var request = URLRequest(url: base.appendingPathComponent("identityflow/identity-providers"))
                    request.setValue("Bearer access-1", forHTTPHeaderField: "Authorization")
                    _ = try await URLSessionTransport(requestTimeout: timeout).send(request)
                }
                return nil
            } catch {
                return error
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let failure: Failure
        let caller: Caller
        var testDescription: String { "\(failure.rawValue) via \(caller.rawValue)" }
    }

    static let cases: [Case] = Failure.allCases.flatMap { failure in
        Caller.allCases.compactMap { caller in
            caller == .service && [.refused, .dns, .timeout, .closedBeforeAnswer].contains(failure) ? nil : Case(failure: failure, caller: caller)
        }
    }

    @Test("a network failure maps to its documented code", .timeLimit(.minutes(1)), arguments: cases)
    func mapping(_ scenario: Case) async throws {
        let server = try scenario.failure.server()
        defer { server?.stop() }
        let base = scenario.failure.base(server)
        let timeout: TimeInterval = scenario.failure == .timeout ? 1 : 10
        let caller = scenario.caller
        let outcome: IdentityFlowError?? = await HangGuard.run(onHang: { server?.stop() }) {
            let call = Task { await caller.call(base, timeout: timeout) }
            if let trigger = scenario.failure.cancelAfter, let server {
                for await event in server.events where event == trigger { break }
                call.cancel()
            }
            return await call.value
        }
        let error = try #require(outcome ?? nil, "the call succeeded")
        #expect(error.code == scenario.failure.code, "\(error)")
        if scenario.failure.cancelAfter != nil {
            #expect(server?.requests.isEmpty == false, "the request was sent before it was cancelled")
        }
    }

    @Test("a task cancelled before its request is sent fails with 9006 and sends nothing")
    func cancelledBeforeSending() async throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { server.stop() }
        let base = server.baseURL
        for caller in Caller.allCases {
            let call = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await caller.call(base, timeout: 10)
            }
            let error = await call.value
            #expect(error?.code == .actionCancelled, "\(caller): \(String(describing: error))")
        }
        #expect(server.requests.isEmpty)
    }
}
