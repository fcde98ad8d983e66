import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// A token answer the client refuses leaves no token live on the server: whatever the reason,
/// the access and refresh tokens it carried are revoked before the call fails.
@Suite("Refused token answers are revoked")
struct RefusedTokenAnswerTests {
    /// Runs `body` against a provider whose token endpoint answers `answer` and whose revocation
    /// endpoint records the tokens it is sent.
    private static func withProvider(
        answering answer: [String: Any],
        _ body: (HTTPIdentityService) async throws -> Void
    ) async throws -> [String] {
        let revoked = Locked<[String]>([])
        let reply = String(decoding: try JSONSerialization.data(withJSONObject: answer), as: UTF8.self)
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in .json(200, reply) },
            extra: { request in
                guard request.path == "/o/revoke/" else { return nil }
                revoked.withLock { $0.append(request.form["token"] ?? "") }
                return .response(status: 200, headers: [:], body: Data())
            })
        let server = try LoopbackHTTPServer(maxRequests: 16, handler: provider.handler)
        defer { server.stop() }
        try await body(try HTTPTestSupport.service(server))
        return revoked.current
    }

    @Test(
        "a token_type other than Bearer: the code exchange and the refresh fail with 11001 and revoke both tokens",
        arguments: ["mac", "DPoP", ""])
    func tokenTypeRefused(_ type: String) async throws {
        let answer: [String: Any] = ["access_token": "access-typed", "refresh_token": "refresh-typed", "token_type": type, "expires_in": 300]
        let exchanged = try await Self.withProvider(answering: answer) { service in
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("code-1"), request: HTTPTestSupport.request)
            }
            #expect(error?.message.contains("token_type") == true)
        }
        #expect(Set(exchanged) == ["access-typed", "refresh-typed"])
        let refreshed = try await Self.withProvider(answering: answer) { service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"))
            }
        }
        #expect(Set(refreshed) == ["access-typed", "refresh-typed"])
    }

    @Test("a malformed expires_in is refused the same way, and an answer without access token has nothing to revoke")
    func otherRefusals() async throws {
        let badExpiry = try await Self.withProvider(answering: ["access_token": "access-x", "token_type": "Bearer", "expires_in": "soon"]) { service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"))
            }
        }
        #expect(badExpiry == ["access-x"])
        let noAccess = try await Self.withProvider(answering: ["refresh_token": "refresh-x", "token_type": "Bearer"]) { service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"))
            }
        }
        #expect(noAccess == ["refresh-x"])
    }
}
