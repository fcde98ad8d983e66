import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

extension InteropSuite {
    @Suite("Interop: other SDKs' flows against the fixture")
    struct SDKStyleInteropTests {
        @Test("a provider that follows RFC 9700 refuses the password grant: a credentials registration fails with 10001 and leaves nothing")
        func passwordGrantRefused() async throws {
            // The fixture's client identityflow-password has the password grant, but the server
            // enforces RFC 9700 §2.4 (COMPLIANT_BCP_RFC9700_PASSWORD_GRANT) and answers unauthorized_client.
            let service = try InteropEnvironment.service(clientID: "identityflow-password")
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await client.registerUser(
                    .provider(IdentityProvider(identifier: "seven-pass", name: "7Pass", kind: .credentials)),
                    responder: ScriptedResponder([
                        .credentials(.respond((login: "alice", password: "alice-password-1")))
                    ]))
            }
            #expect(error?.oauthError == "unauthorized_client")
            let written = try storage.keys()
            #expect(client.userProfiles.isEmpty && written.isEmpty)
        }
    }
}
