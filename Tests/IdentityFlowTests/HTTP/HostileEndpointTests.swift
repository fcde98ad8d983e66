import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Every kind of call (discovery, token exchange, userinfo, revocation, an extension endpoint)
/// against every kind of hostile answer ends with the documented code, and ends: each test
/// bounds itself with ``HangGuard``.
@Suite("Hostile answers at every endpoint")
struct HostileEndpointTests {
    enum Call: String, CaseIterable, Sendable {
        case discovery, tokenExchange, userinfo, revocation, extensionPost

        /// The path the hostile answer comes from; everything else is a well-behaved provider.
        var path: String {
            switch self {
            case .discovery: "/o/.well-known/openid-configuration"
            case .tokenExchange: "/o/token/"
            case .userinfo: "/o/userinfo/"
            case .revocation: "/o/revoke/"
            case .extensionPost: "/identityflow/pin/challenge"
            }
        }

        func run(_ service: HTTPIdentityService) async -> IdentityFlowError? {
            do throws(IdentityFlowError) {
                switch self {
                case .discovery: _ = try await service.providerMetadata()
                case .tokenExchange: _ = try await service.exchangeCode(Redacted("code-1"), request: HTTPTestSupport.request)
                case .userinfo: _ = try await service.userInfo(accessToken: Redacted("access-1"), subject: "x")
                case .revocation: try await service.revoke(TokenSet(accessToken: "access-1"))
                case .extensionPost: _ = try await service.pinLoginChallenge(for: UserProfile(profileId: "profile-1"))
                }
                return nil
            } catch {
                return error
            }
        }
    }

    enum Hostility: String, CaseIterable, Sendable {
        case trickle, closeBeforeAnswer, closeDuringAnswer, oversize, redirectLoop, html, truncatedJSON, noAnswer

        func reply(at path: String) -> LoopbackHTTPServer.Reply {
            switch self {
            case .trickle:
                // A valid answer, one byte every 20 ms: about 30 s in all, far beyond the 1 s deadline.
                let body = #"{"sub": "x"}"# + String(repeating: " ", count: 1500)
                let answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
                return .trickleAll(Data(answer.utf8), pause: 20_000)
            case .closeBeforeAnswer: return .close
            case .closeDuringAnswer: return .truncated(contentType: "application/json", body: Data(#"{"access_token": "#.utf8), declaredLength: 400)
            case .oversize: return .json(200, #"{"sub": ""# + String(repeating: "x", count: 4096) + #""}"#)
            case .redirectLoop: return .response(status: 302, headers: ["Location": path], body: Data())
            case .html: return .response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<html><body>Welcome</body></html>".utf8))
            case .truncatedJSON: return .json(200, #"{"access_token": "a", "token_type": "Bear"#)
            case .noAnswer: return .stall
            }
        }

        var code: ErrorCode {
            switch self {
            case .trickle, .noAnswer: .serverNotReachable
            case .closeBeforeAnswer: .networkConnectivityFailure
            case .closeDuringAnswer, .oversize, .redirectLoop, .html, .truncatedJSON: .invalidServerResponse
            }
        }

        /// Only a deadline ends these; the others get a deadline they never reach.
        var timeout: TimeInterval { self == .trickle || self == .noAnswer ? 1 : 10 }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let call: Call
        let hostility: Hostility
        var testDescription: String { "\(hostility.rawValue) at \(call.rawValue)" }
    }

    /// Every pair but the body-only ones at revocation, whose 200 body RFC 7009 says to ignore.
    static let cases: [Case] = Call.allCases.flatMap { call in
        Hostility.allCases.compactMap { hostility in
            call == .revocation && (hostility == .html || hostility == .truncatedJSON) ? nil : Case(call: call, hostility: hostility)
        }
    }

    @Test("a hostile answer ends the call with its documented code", .timeLimit(.minutes(1)), arguments: cases)
    func hostileAnswer(_ scenario: Case) async throws {
        let target = scenario.call.path
        let server = try LoopbackHTTPServer(maxRequests: 16) { request in
            request.path == target ? scenario.hostility.reply(at: target) : Self.provider(request)
        }
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server, timeout: scenario.hostility.timeout, maxBody: 2048)
        let outcome = await HangGuard.run(onHang: { server.stop() }) { await scenario.call.run(service) }
        let error = try #require(outcome ?? nil, "the call succeeded")
        #expect(error.code == scenario.hostility.code, "\(error)")
        #expect(server.requests.contains { $0.path == target }, "the hostile endpoint was reached")
    }

    /// A well-behaved provider whose endpoints are all on this server.
    static func provider(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
        let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
        switch request.path {
        case "/o/.well-known/openid-configuration":
            return .json(
                200,
                object: [
                    "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                    "userinfo_endpoint": "\(origin)/o/userinfo/", "revocation_endpoint": "\(origin)/o/revoke/", "jwks_uri": "\(origin)/o/jwks/",
                ])
        default:
            return .json(404, #"{"error": "not_found"}"#)
        }
    }
}
