import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// A token the service sends (an `Authorization` header, or the body of a revocation) never
/// reaches another origin through a redirect: `GET`s follow it without `Authorization`, other
/// methods do not follow it at all. Two loopback ports are two origins.
@Suite("Tokens stay with their origin across redirects")
struct BearerOriginTests {
    enum Kind: String, Sendable {
        case userinfo, revocation, pinEnrolment, mobileAuthEnrolment

        var path: String {
            switch self {
            case .userinfo: "/o/userinfo/"
            case .revocation: "/o/revoke/"
            case .pinEnrolment: "/identityflow/pin/enrol"
            case .mobileAuthEnrolment: "/identityflow/mobile-auth/enrol"
            }
        }

        func run(_ service: HTTPIdentityService, token: String) async {
            let secret = Redacted(token)
            do throws(IdentityFlowError) {
                switch self {
                case .userinfo: _ = try await service.userInfo(accessToken: secret, subject: "someone-else")
                case .revocation: try await service.revoke(TokenSet(accessToken: token))
                case .pinEnrolment:
                    _ = try await service.enrolPin(
                        PinEnrolment(profile: UserProfile(profileId: "profile-1"), salt: [1], iterations: 1000, publicKey: [2]), accessToken: secret)
                case .mobileAuthEnrolment:
                    try await service.enrolMobileAuthentication(
                        publicKey: [2], for: UserProfile(profileId: "profile-1"),
                        authorization: PinKeyAuthorization(nonce: [1], proof: [3]), accessToken: secret)
                }
            } catch {
                // The outcome of the call is not the point here; where the token went is.
            }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let kind: Kind
        let status: Int
        var testDescription: String { "\(status) at \(kind.rawValue)" }
    }

    static let cases = [
        Case(kind: .userinfo, status: 302), Case(kind: .userinfo, status: 307), Case(kind: .userinfo, status: 308),
        Case(kind: .revocation, status: 307), Case(kind: .revocation, status: 308), Case(kind: .revocation, status: 302),
        Case(kind: .pinEnrolment, status: 307), Case(kind: .pinEnrolment, status: 308),
        Case(kind: .mobileAuthEnrolment, status: 307), Case(kind: .mobileAuthEnrolment, status: 308),
    ]

    @Test("a redirect to another origin never carries the token there", .timeLimit(.minutes(1)), arguments: cases)
    func tokenStaysHome(_ scenario: Case) async throws {
        let token = "token-\(UUID().uuidString)"
        let elsewhere = try LoopbackHTTPServer { _ in .json(200, #"{"sub": "someone-else", "max_failure_count": 3}"#) }
        defer { elsewhere.stop() }
        let location = elsewhere.baseURL.absoluteString + scenario.kind.path
        let origin = try LoopbackHTTPServer { request in
            request.path == scenario.kind.path
                ? .response(status: scenario.status, headers: ["Location": location], body: Data())
                : HostileEndpointTests.provider(request)
        }
        defer { origin.stop() }
        let service = try HTTPTestSupport.service(origin)
        _ = await HangGuard.run(onHang: {
            origin.stop(); elsewhere.stop()
        }) { await scenario.kind.run(service, token: token) }
        let reached = try #require(origin.requests.first { $0.path == scenario.kind.path }, "the origin was not asked")
        #expect(
            reached.headers["authorization"] == "Bearer \(token)" || String(decoding: reached.body, as: UTF8.self).contains(token),
            "the origin got the token")
        for request in elsewhere.requests {
            #expect(request.headers["authorization"] == nil, "Authorization went to another origin")
            #expect(!String(decoding: request.body, as: UTF8.self).contains(token) && !request.target.contains(token), "the token went to another origin")
        }
        if scenario.kind == .userinfo {
            #expect(!elsewhere.requests.isEmpty, "the GET's redirect was followed (without the token)")
        } else {
            #expect(elsewhere.requests.isEmpty, "a \(scenario.status) of a non-GET was followed")
        }
    }
}
