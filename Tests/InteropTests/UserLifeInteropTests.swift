import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

extension InteropSuite {
    /// A whole user life through ``UserClient`` over real HTTP: the flows, not the service calls.
    @Suite("Interop: a user's life through UserClient")
    struct UserLifeInteropTests {
        /// Registers alice through the headless browser with PIN 73914.
        static func registered(_ client: UserClient) async throws -> UserProfile {
            try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
        }

        @Test("register, wrong then right PIN, change PIN, userinfo with the session, logout, log in, deregister")
        func wholeLife() async throws {
            let service = try InteropEnvironment.service()
            let client = try await InteropEnvironment.client(service)
            let profile = try await Self.registered(client)

            let login = ScriptedResponder([.pin(.respond("11111")), .pin(.respond("73914"), expecting: .invalidPin)])
            #expect(try await client.authenticateUser(profile, responder: login).profile == profile)
            try login.verify()

            try await client.changePin(responder: ScriptedResponder([.pin(.respond("73914")), .createPin(.respond("24680"))]))
            let relogin = ScriptedResponder([.pin(.respond("24680"))])
            _ = try await client.authenticateUser(profile, responder: relogin)
            try relogin.verify()

            let userinfo = URLRequest(url: try #require(try await service.providerMetadata().userinfoEndpoint))
            let (data, response) = try await client.authenticatedRequest(userinfo)
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self).contains("\"sub\""))

            try await client.logout()
            #expect(client.authenticatedUserProfile == nil)
            await InteropEnvironment.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
                try await client.authenticatedRequest(userinfo)
            }
            _ = try await client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
            try await client.deregister(profile)
            #expect(client.userProfiles.isEmpty)
            #expect(try await !service.profileExists(profile))
        }

        @Test("three wrong PINs deregister the profile on the server and remove it here")
        func lockout() async throws {
            let service = try InteropEnvironment.service()
            let client = try await InteropEnvironment.client(service)
            let profile = try await Self.registered(client)
            let login = ScriptedResponder([
                .pin(.respond("11111")), .pin(.respond("11111"), expecting: .invalidPin), .pin(.respond("11111"), expecting: .invalidPin),
            ])
            await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
                try await client.authenticateUser(profile, responder: login)
            }
            try login.verify()
            #expect(client.userProfiles.isEmpty)
            #expect(try await !service.profileExists(profile))
        }

        @Test("a restart over the same storage finds the profile; one the server forgot is removed at launch")
        func restart() async throws {
            let service = try InteropEnvironment.service()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-interop-\(UUID().uuidString)")
            let copy = directory.appendingPathExtension("copy")
            defer { for url in [directory, copy] { try? FileManager.default.removeItem(at: url) } }
            let first = UserClient(
                configuration: try await InteropEnvironment.client(service).configuration, service: service, storage: try FileStorage(directory: directory))
            try await first.start()
            let profile = try await Self.registered(first)
            try FileManager.default.copyItem(at: directory, to: copy)

            let second = UserClient(configuration: first.configuration, service: service, storage: try FileStorage(directory: directory))
            #expect(try await second.start().profiles == [profile])
            try await first.deregister(profile)

            let restored = UserClient(configuration: first.configuration, service: service, storage: try FileStorage(directory: copy))
            #expect(try await restored.start().removedProfiles == [profile])
            #expect(restored.userProfiles.isEmpty)
        }
    }
}
