import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// OpenID Connect Core §5.3.2: the userinfo answer's `sub` must be the ID token's, or its claims
/// must not be used.
@Suite("Userinfo is for the ID token's subject")
struct UserinfoSubjectTests {
    private static func withUserinfo(answering subject: String, _ body: (HTTPIdentityService) async throws -> Void) async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in .close },
            extra: { request in
                request.path == "/o/userinfo/" ? .json(200, object: ["sub": subject, "email": "someone@example.test"]) : nil
            })
        let server = try LoopbackHTTPServer(handler: provider.handler)
        defer { server.stop() }
        try await body(try HTTPTestSupport.service(server))
    }

    @Test("an answer for another subject is refused with 11001, naming §5.3.2", arguments: ["someone-else", "user-1 ", "USER-1", "\u{212A}"])
    func otherSubjectRefused(_ answered: String) async throws {
        try await Self.withUserinfo(answering: answered) { service in
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.userInfo(accessToken: Redacted("access-1"), subject: answered == "\u{212A}" ? "K" : "user-1")
            }
            #expect(error?.message.contains("5.3.2") == true, "\(String(describing: error))")
            #expect(error?.message.contains(answered) == false, "the subjects are not echoed")
        }
    }

    @Test("an answer for the ID token's subject is used")
    func sameSubjectUsed() async throws {
        try await Self.withUserinfo(answering: "user-1") { service in
            let claims = try await service.userInfo(accessToken: Redacted("access-1"), subject: "user-1")
            #expect(claims["email"]?.stringValue == "someone@example.test")
        }
    }
}
