import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// FoundationNetworking traps ("Received callback for HTTP redirection, but we're not waiting for
/// it") when a redirect's completion handler reaches a transfer that is no longer waiting for it:
/// one refused twice (an answer and a cancel), or one cancelled (deadline, task cancellation)
/// while the delegate decides. These runs race every kind of refusal and cancel against redirects,
/// many times over; a trap ends the whole test process, so passing means none happened.
@Suite("Redirects raced against refusals and cancels")
struct RedirectRaceTests {
    /// Rounds per test: enough for the cancel to land at every point of the redirect now and then.
    static let rounds = 60

    /// A server that answers every request with a redirect to itself (`/next`), or to `location`.
    private static func redirectingServer(requests: Int, location: String = "/next") throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(maxRequests: requests) { _ in .response(status: 302, headers: ["Location": location], body: Data()) }
    }

    private static func request(_ server: LoopbackHTTPServer, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: server.baseURL.appendingPathComponent("start"))
        request.httpMethod = method
        if method != "GET" { request.httpBody = Data("a=b".utf8) }
        return request
    }

    @Test("a refused redirect (a POST, a loop, an insecure Location) ends in 11001, every time")
    func refusedRedirects() async throws {
        for round in 0..<Self.rounds {
            let server = try Self.redirectingServer(requests: 8, location: round % 3 == 2 ? "http://insecure.example/next" : "/next")
            defer { server.stop() }
            let transport = HTTPTransport(timeout: 10, maxBodySize: 4096)
            let method = round % 3 == 0 ? "POST" : "GET"
            let result = await Result { () async throws(IdentityFlowError) in try await transport.send(Self.request(server, method: method)) }
            let expected: ErrorCode = round % 3 == 2 ? .configurationInvalid : .invalidServerResponse
            #expect(result.failure?.code == expected, "round \(round): \(String(describing: result.failure))")
        }
    }

    @Test("a task cancelled as the redirect arrives ends in 9006 or the redirect's own outcome, never a trap")
    func cancelledDuringRedirect() async throws {
        for round in 0..<Self.rounds {
            let server = try Self.redirectingServer(requests: 8)
            defer { server.stop() }
            let follows = round.isMultiple(of: 2)
            let transport = HTTPTransport(timeout: 10, maxBodySize: 4096, redirects: follows ? .followGETs : .returnRedirects)
            let call = Task { () async -> Result<HTTPResponse, IdentityFlowError> in
                await Result { () async throws(IdentityFlowError) in try await transport.send(Self.request(server)) }
            }
            // Cancel when the server has the n-th request in hand (the first, when redirects are
            // returned): its redirect is on the way. A followed chain has 6 requests.
            let target = follows ? round % 4 : 0
            var seen = 0
            for await event in server.events {
                guard case .received = event else { continue }
                if seen == target { break }
                seen += 1
            }
            call.cancel()
            let result = await call.value
            let allowed: Set<ErrorCode> = [.actionCancelled, .invalidServerResponse, .networkConnectivityFailure]
            switch result {
            case .success(let response): #expect(response.status == 302, "round \(round)")
            case .failure(let error): #expect(allowed.contains(error.code), "round \(round): \(error)")
            }
        }
    }

    @Test("a deadline that passes while redirects are followed ends in 9001 or the redirect's own outcome, never a trap")
    func deadlineDuringRedirect() async throws {
        for round in 0..<Self.rounds {
            // Each hop answers at once; a deadline of a few milliseconds expires somewhere in the chain.
            let server = try Self.redirectingServer(requests: 8)
            defer { server.stop() }
            let transport = HTTPTransport(timeout: 0.001 * Double(1 + round % 8), maxBodySize: 4096)
            let result = await Result { () async throws(IdentityFlowError) in try await transport.send(Self.request(server)) }
            let allowed: Set<ErrorCode> = [.serverNotReachable, .invalidServerResponse, .networkConnectivityFailure]
            #expect(result.failure.map { allowed.contains($0.code) } == true, "round \(round): \(String(describing: result.failure))")
        }
    }
}
